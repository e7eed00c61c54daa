import { Controller } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { guideRoutes, RouteInput } from '@notify/contracts';
import { Ctx, Endpoint, Input, RequestContext } from '@notify/http';
import { ActivateGuideCommand } from './activate-guide.command';

@Controller()
export class ActivateGuideController {
  constructor(private readonly commands: CommandBus) {}

  /** A status (body or query) switches the guide now; from / until schedule a window, which activates it. */
  @Endpoint(guideRoutes.activate)
  activate(@Input() { params, query, body }: RouteInput<typeof guideRoutes.activate>, @Ctx() ctx: RequestContext) {
    const scheduled = body?.from !== undefined || body?.until !== undefined;
    const active = scheduled || (body?.status ?? query.status ?? true);
    return this.commands.execute(
      new ActivateGuideCommand(ctx, params.guide_key, {
        active,
        from: active ? (body?.from ?? null) : null,
        until: active ? (body?.until ?? null) : null,
      }),
    );
  }
}
