import { Controller } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { RouteInput, userGuideRoutes } from '@notify/contracts';
import { Ctx, Endpoint, Input, RequestContext } from '@notify/http';
import { EngageUserGuideCommand } from './engage-user-guide.command';

type Step = { channel_id: string; guide_id: string; guide_key: string; guide_step_ref: string; tenant?: string | null };
const step = (b: Step) => ({
  channelId: b.channel_id,
  guideId: b.guide_id,
  guideKey: b.guide_key,
  stepRef: b.guide_step_ref,
  tenant: b.tenant ?? null,
});

/**
 * Engagement with a guide step. The paths with a message id name the step's guide message; the
 * body names the step too, and the step decides (both clients send it).
 */
@Controller()
export class EngageUserGuideController {
  constructor(private readonly commands: CommandBus) {}

  @Endpoint(userGuideRoutes.seen)
  seen(@Input() { params, body }: RouteInput<typeof userGuideRoutes.seen>, @Ctx() ctx: RequestContext) {
    return this.commands.execute(new EngageUserGuideCommand(ctx, params.user_id, { action: 'seen', ...step(body), data: body.data }));
  }

  @Endpoint(userGuideRoutes.seenById)
  seenById(@Input() { params, body }: RouteInput<typeof userGuideRoutes.seenById>, @Ctx() ctx: RequestContext) {
    return this.commands.execute(new EngageUserGuideCommand(ctx, params.user_id, { action: 'seen', ...step(body), data: body.data }));
  }

  @Endpoint(userGuideRoutes.interacted)
  interacted(@Input() { params, body }: RouteInput<typeof userGuideRoutes.interacted>, @Ctx() ctx: RequestContext) {
    return this.commands.execute(
      new EngageUserGuideCommand(ctx, params.user_id, { action: 'interacted', ...step(body), metadata: body.metadata }),
    );
  }

  @Endpoint(userGuideRoutes.interactedById)
  interactedById(@Input() { params, body }: RouteInput<typeof userGuideRoutes.interactedById>, @Ctx() ctx: RequestContext) {
    return this.commands.execute(
      new EngageUserGuideCommand(ctx, params.user_id, { action: 'interacted', ...step(body), metadata: body.metadata }),
    );
  }

  @Endpoint(userGuideRoutes.archived)
  archived(@Input() { params, body }: RouteInput<typeof userGuideRoutes.archived>, @Ctx() ctx: RequestContext) {
    return this.commands.execute(
      new EngageUserGuideCommand(ctx, params.user_id, { action: 'archived', ...step(body), isFinal: body.is_final }),
    );
  }

  @Endpoint(userGuideRoutes.archivedById)
  archivedById(@Input() { params, body }: RouteInput<typeof userGuideRoutes.archivedById>, @Ctx() ctx: RequestContext) {
    return this.commands.execute(
      new EngageUserGuideCommand(ctx, params.user_id, { action: 'archived', ...step(body), isFinal: body.is_final }),
    );
  }

  @Endpoint(userGuideRoutes.unarchived)
  unarchived(@Input() { params, body }: RouteInput<typeof userGuideRoutes.unarchived>, @Ctx() ctx: RequestContext) {
    return this.commands.execute(
      new EngageUserGuideCommand(ctx, params.user_id, { action: 'unarchived', guideKey: body.guide_key, tenant: body.tenant ?? null }),
    );
  }

  @Endpoint(userGuideRoutes.reset)
  reset(@Input() { params, body }: RouteInput<typeof userGuideRoutes.reset>, @Ctx() ctx: RequestContext) {
    return this.commands.execute(
      new EngageUserGuideCommand(ctx, params.user_id, { action: 'reset', guideKey: body.guide_key, tenant: body.tenant ?? null }),
    );
  }
}
