import { Controller } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import {
  emailLayoutRoutes,
  guideRoutes,
  listWorkflowsRoute,
  messageTypeRoutes,
  audienceRoutes,
  partialRoutes,
  RouteInput,
  translationRoutes,
} from '@notify/contracts';
import { Ctx, Endpoint, Input, RequestContext } from '@notify/http';
import { ReadOptions } from '../get-resource/get-resource.query';
import { ListResourcesQuery } from './list-resources.query';

type List<R> = RouteInput<R> & {
  query: ReadOptions & { limit: number; after?: string; before?: string; locale_code?: string; namespace?: string; tenant?: string };
};

@Controller()
export class ListResourcesController {
  constructor(private readonly queries: QueryBus) {}

  @Endpoint(listWorkflowsRoute)
  workflows(@Input() { query }: RouteInput<typeof listWorkflowsRoute>, @Ctx() ctx: RequestContext) {
    return this.queries.execute(new ListResourcesQuery(ctx.environment, 'workflow', query, query, {}, query.tag));
  }

  @Endpoint(guideRoutes.list)
  guides(@Input() { query }: RouteInput<typeof guideRoutes.list>, @Ctx() ctx: RequestContext) {
    return this.queries.execute(new ListResourcesQuery(ctx.environment, 'guide', query, query));
  }

  @Endpoint(audienceRoutes.list)
  audiences(@Input() { query }: List<typeof audienceRoutes.list>, @Ctx() ctx: RequestContext) {
    return this.queries.execute(new ListResourcesQuery(ctx.environment, 'audience', query, query));
  }

  @Endpoint(partialRoutes.list)
  partials(@Input() { query }: List<typeof partialRoutes.list>, @Ctx() ctx: RequestContext) {
    return this.queries.execute(new ListResourcesQuery(ctx.environment, 'partial', query, query));
  }

  @Endpoint(emailLayoutRoutes.list)
  emailLayouts(@Input() { query }: List<typeof emailLayoutRoutes.list>, @Ctx() ctx: RequestContext) {
    return this.queries.execute(new ListResourcesQuery(ctx.environment, 'email_layout', query, query));
  }

  @Endpoint(messageTypeRoutes.list)
  messageTypes(@Input() { query }: List<typeof messageTypeRoutes.list>, @Ctx() ctx: RequestContext) {
    return this.queries.execute(new ListResourcesQuery(ctx.environment, 'message_type', query, query));
  }

  @Endpoint(translationRoutes.list)
  translations(@Input() { query }: List<typeof translationRoutes.list>, @Ctx() ctx: RequestContext) {
    const where = { locale_code: query.locale_code, namespace: query.namespace, tenant: query.tenant };
    return this.queries.execute(new ListResourcesQuery(ctx.environment, 'translation', query, query, where));
  }
}
