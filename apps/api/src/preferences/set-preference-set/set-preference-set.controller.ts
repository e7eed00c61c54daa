import { Controller } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { RouteInput, setObjectPreferencesRoute, setUserPreferencesRoute } from '@notify/contracts';
import { Ctx, Endpoint, Input, RequestContext } from '@notify/http';
import { SetPreferenceSetCommand } from './set-preference-set.command';

@Controller()
export class SetPreferenceSetController {
  constructor(private readonly commands: CommandBus) {}

  @Endpoint(setUserPreferencesRoute)
  forUser(@Input() { params, body }: RouteInput<typeof setUserPreferencesRoute>, @Ctx() ctx: RequestContext) {
    return this.commands.execute(new SetPreferenceSetCommand(ctx, { type: 'user', id: params.user_id }, params.id, body));
  }

  @Endpoint(setObjectPreferencesRoute)
  forObject(@Input() { params, body }: RouteInput<typeof setObjectPreferencesRoute>, @Ctx() ctx: RequestContext) {
    return this.commands.execute(
      new SetPreferenceSetCommand(ctx, { type: 'object', collection: params.collection, id: params.object_id }, params.id, body),
    );
  }
}
