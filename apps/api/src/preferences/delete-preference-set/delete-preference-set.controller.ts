import { Controller } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { deleteObjectPreferencesRoute, deleteUserPreferencesRoute, RouteInput } from '@notify/contracts';
import { Ctx, Endpoint, Input, RequestContext } from '@notify/http';
import { DeletePreferenceSetCommand } from './delete-preference-set.command';

@Controller()
export class DeletePreferenceSetController {
  constructor(private readonly commands: CommandBus) {}

  @Endpoint(deleteUserPreferencesRoute)
  async forUser(@Input() { params }: RouteInput<typeof deleteUserPreferencesRoute>, @Ctx() ctx: RequestContext): Promise<void> {
    await this.commands.execute(new DeletePreferenceSetCommand(ctx, { type: 'user', id: params.user_id }, params.id));
  }

  @Endpoint(deleteObjectPreferencesRoute)
  async forObject(@Input() { params }: RouteInput<typeof deleteObjectPreferencesRoute>, @Ctx() ctx: RequestContext): Promise<void> {
    await this.commands.execute(
      new DeletePreferenceSetCommand(ctx, { type: 'object', collection: params.collection, id: params.object_id }, params.id),
    );
  }
}
