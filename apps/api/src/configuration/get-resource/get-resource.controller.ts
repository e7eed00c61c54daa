import { Controller } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import {
  emailLayoutRoutes,
  guideRoutes,
  getWorkflowRoute,
  messageTypeRoutes,
  audienceRoutes,
  partialRoutes,
  RouteInput,
  translationRoutes,
} from '@notify/contracts';
import { Ctx, Endpoint, Input, RequestContext } from '@notify/http';
import { resourceIds } from '../shared/resource-ids';
import { GetResourceQuery } from './get-resource.query';

type Get<R> = RouteInput<R> & { params: Record<string, string>; query: Record<string, any> };

@Controller()
export class GetResourceController {
  constructor(private readonly queries: QueryBus) {}

  @Endpoint(getWorkflowRoute)
  workflow(@Input() { params, query }: RouteInput<typeof getWorkflowRoute>, @Ctx() ctx: RequestContext) {
    return this.queries.execute(new GetResourceQuery(ctx.environment, 'workflow', resourceIds('workflow', params.workflow_key), query));
  }

  @Endpoint(audienceRoutes.get)
  async audience(@Input() { params, query }: Get<typeof audienceRoutes.get>, @Ctx() ctx: RequestContext) {
    return this.queries.execute(new GetResourceQuery(ctx.environment, 'audience', resourceIds('audience', params.audience_key), query));
  }

  @Endpoint(partialRoutes.get)
  async partial(@Input() { params, query }: Get<typeof partialRoutes.get>, @Ctx() ctx: RequestContext) {
    return this.queries.execute(new GetResourceQuery(ctx.environment, 'partial', resourceIds('partial', params.partial_key), query));
  }

  @Endpoint(emailLayoutRoutes.get)
  emailLayout(@Input() { params, query }: Get<typeof emailLayoutRoutes.get>, @Ctx() ctx: RequestContext) {
    return this.queries.execute(
      new GetResourceQuery(ctx.environment, 'email_layout', resourceIds('email_layout', params.email_layout_key), query),
    );
  }

  @Endpoint(guideRoutes.get)
  guide(@Input() { params, query }: RouteInput<typeof guideRoutes.get>, @Ctx() ctx: RequestContext) {
    return this.queries.execute(new GetResourceQuery(ctx.environment, 'guide', resourceIds('guide', params.guide_key), query));
  }

  @Endpoint(messageTypeRoutes.get)
  messageType(@Input() { params, query }: Get<typeof messageTypeRoutes.get>, @Ctx() ctx: RequestContext) {
    return this.queries.execute(
      new GetResourceQuery(ctx.environment, 'message_type', resourceIds('message_type', params.message_type_key), query),
    );
  }

  /**
   * A translation answers wrapped under `translation` (the reference, @knocklabs/mgmt) and with
   * the same fields at the top level (the Knock CLI's `translation pull <ref>`).
   */
  @Endpoint(translationRoutes.get)
  async translation(@Input() { params, query }: Get<typeof translationRoutes.get>, @Ctx() ctx: RequestContext) {
    const translation = await this.queries.execute(
      new GetResourceQuery(ctx.environment, 'translation', resourceIds('translation', params.locale_code, query), query),
    );
    return { ...translation, translation };
  }
}
