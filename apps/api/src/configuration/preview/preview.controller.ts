import { Controller } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import {
  previewEmailLayoutRoute,
  previewPartialRoute,
  previewTemplateRoute,
  previewWorkflowTemplateRoute,
  RouteInput,
} from '@notify/contracts';
import { Ctx, Endpoint, Input, RequestContext } from '@notify/http';
import { PreviewQuery } from './preview.query';

@Controller()
export class PreviewController {
  constructor(private readonly queries: QueryBus) {}

  @Endpoint(previewTemplateRoute)
  template(@Input() { body }: RouteInput<typeof previewTemplateRoute>, @Ctx() ctx: RequestContext) {
    return this.queries.execute(
      new PreviewQuery(ctx.environment, {
        kind: 'template',
        channelType: body.channel_type,
        template: body.template,
        layout: body.layout,
        audience: body,
      }),
    );
  }

  @Endpoint(previewPartialRoute)
  partial(@Input() { body }: RouteInput<typeof previewPartialRoute>, @Ctx() ctx: RequestContext) {
    return this.queries.execute(new PreviewQuery(ctx.environment, { kind: 'partial', partial: body.partial, data: body.data }));
  }

  @Endpoint(previewEmailLayoutRoute)
  emailLayout(@Input() { body }: RouteInput<typeof previewEmailLayoutRoute>, @Ctx() ctx: RequestContext) {
    return this.queries.execute(
      new PreviewQuery(ctx.environment, {
        kind: 'email_layout',
        layout: { ...body.email_layout, footer_links: body.email_layout.footer_links },
        audience: body,
      }),
    );
  }

  @Endpoint(previewWorkflowTemplateRoute)
  workflowStep(@Input() { params, body }: RouteInput<typeof previewWorkflowTemplateRoute>, @Ctx() ctx: RequestContext) {
    return this.queries.execute(
      new PreviewQuery(ctx.environment, {
        kind: 'workflow_step',
        workflowKey: params.workflow_key,
        stepRef: params.step_ref,
        audience: body,
      }),
    );
  }
}
