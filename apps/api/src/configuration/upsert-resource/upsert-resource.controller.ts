import { Controller } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import {
  emailLayoutRoutes,
  guideRoutes,
  messageTypeRoutes,
  audienceRoutes,
  partialRoutes,
  RouteInput,
  translationRoutes,
  upsertWorkflowRoute,
} from '@notify/contracts';
import { Ctx, Endpoint, Input, RequestContext } from '@notify/http';
import { resourceIds } from '../shared/resource-ids';
import { UpsertResourceCommand } from './upsert-resource.command';

type Upsert<R> = RouteInput<R> & {
  params: Record<string, string>;
  query: Record<string, any>;
  body: Record<string, Record<string, unknown>>;
};

@Controller()
export class UpsertResourceController {
  constructor(private readonly commands: CommandBus) {}

  @Endpoint(upsertWorkflowRoute)
  workflow(@Input() { params, query, body }: RouteInput<typeof upsertWorkflowRoute>, @Ctx() ctx: RequestContext) {
    return this.commands.execute(
      new UpsertResourceCommand(ctx, 'workflow', resourceIds('workflow', params.workflow_key), body.workflow, query),
    );
  }

  @Endpoint(guideRoutes.upsert)
  guide(@Input() { params, query, body }: RouteInput<typeof guideRoutes.upsert>, @Ctx() ctx: RequestContext) {
    return this.commands.execute(new UpsertResourceCommand(ctx, 'guide', resourceIds('guide', params.guide_key), body.guide, query));
  }

  @Endpoint(audienceRoutes.upsert)
  audience(@Input() { params, query, body }: Upsert<typeof audienceRoutes.upsert>, @Ctx() ctx: RequestContext) {
    return this.commands.execute(
      new UpsertResourceCommand(ctx, 'audience', resourceIds('audience', params.audience_key), body.audience, query),
    );
  }

  @Endpoint(partialRoutes.upsert)
  partial(@Input() { params, query, body }: Upsert<typeof partialRoutes.upsert>, @Ctx() ctx: RequestContext) {
    return this.commands.execute(
      new UpsertResourceCommand(ctx, 'partial', resourceIds('partial', params.partial_key), body.partial, query),
    );
  }

  @Endpoint(emailLayoutRoutes.upsert)
  emailLayout(@Input() { params, query, body }: Upsert<typeof emailLayoutRoutes.upsert>, @Ctx() ctx: RequestContext) {
    return this.commands.execute(
      new UpsertResourceCommand(ctx, 'email_layout', resourceIds('email_layout', params.email_layout_key), body.email_layout, query),
    );
  }

  @Endpoint(messageTypeRoutes.upsert)
  messageType(@Input() { params, query, body }: Upsert<typeof messageTypeRoutes.upsert>, @Ctx() ctx: RequestContext) {
    return this.commands.execute(
      new UpsertResourceCommand(ctx, 'message_type', resourceIds('message_type', params.message_type_key), body.message_type, query),
    );
  }

  @Endpoint(translationRoutes.upsert)
  translation(@Input() { params, query, body }: Upsert<typeof translationRoutes.upsert>, @Ctx() ctx: RequestContext) {
    return this.commands.execute(
      new UpsertResourceCommand(ctx, 'translation', resourceIds('translation', params.locale_code, query), body.translation, query),
    );
  }
}
