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
  validateWorkflowRoute,
} from '@notify/contracts';
import { Ctx, Endpoint, Input, RequestContext } from '@notify/http';
import { resourceIds } from '../shared/resource-ids';
import { ValidateResourceCommand } from './validate-resource.command';

type Validate<R> = RouteInput<R> & {
  params: Record<string, string>;
  query: Record<string, any>;
  body: Record<string, Record<string, unknown>>;
};

@Controller()
export class ValidateResourceController {
  constructor(private readonly commands: CommandBus) {}

  @Endpoint(validateWorkflowRoute)
  workflow(@Input() { params, body }: RouteInput<typeof validateWorkflowRoute>, @Ctx() ctx: RequestContext) {
    return this.commands.execute(new ValidateResourceCommand(ctx, 'workflow', resourceIds('workflow', params.workflow_key), body.workflow));
  }

  @Endpoint(guideRoutes.validate)
  guide(@Input() { params, body }: RouteInput<typeof guideRoutes.validate>, @Ctx() ctx: RequestContext) {
    return this.commands.execute(new ValidateResourceCommand(ctx, 'guide', resourceIds('guide', params.guide_key), body.guide));
  }

  @Endpoint(audienceRoutes.validate)
  audience(@Input() { params, body }: Validate<typeof audienceRoutes.validate>, @Ctx() ctx: RequestContext) {
    return this.commands.execute(new ValidateResourceCommand(ctx, 'audience', resourceIds('audience', params.audience_key), body.audience));
  }

  @Endpoint(partialRoutes.validate)
  partial(@Input() { params, body }: Validate<typeof partialRoutes.validate>, @Ctx() ctx: RequestContext) {
    return this.commands.execute(new ValidateResourceCommand(ctx, 'partial', resourceIds('partial', params.partial_key), body.partial));
  }

  @Endpoint(emailLayoutRoutes.validate)
  emailLayout(@Input() { params, body }: Validate<typeof emailLayoutRoutes.validate>, @Ctx() ctx: RequestContext) {
    return this.commands.execute(
      new ValidateResourceCommand(ctx, 'email_layout', resourceIds('email_layout', params.email_layout_key), body.email_layout),
    );
  }

  @Endpoint(messageTypeRoutes.validate)
  messageType(@Input() { params, body }: Validate<typeof messageTypeRoutes.validate>, @Ctx() ctx: RequestContext) {
    return this.commands.execute(
      new ValidateResourceCommand(ctx, 'message_type', resourceIds('message_type', params.message_type_key), body.message_type),
    );
  }

  @Endpoint(translationRoutes.validate)
  translation(@Input() { params, query, body }: Validate<typeof translationRoutes.validate>, @Ctx() ctx: RequestContext) {
    return this.commands.execute(
      new ValidateResourceCommand(ctx, 'translation', resourceIds('translation', params.locale_code, query), body.translation),
    );
  }
}
