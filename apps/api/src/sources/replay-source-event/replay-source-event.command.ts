import { Command } from '@nestjs/cqrs';
import { RequestContext } from '@notify/http';

export class ReplaySourceEventCommand extends Command<{ log_id: string; status: 'accepted'; replay_of: string }> {
  constructor(
    readonly ctx: RequestContext,
    readonly key: string,
    readonly logId: string,
  ) {
    super();
  }
}
