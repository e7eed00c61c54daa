import { Command } from '@nestjs/cqrs';
import { ScheduleT } from '@notify/contracts';
import { RequestContext } from '@notify/http';

export class DeleteSchedulesCommand extends Command<ScheduleT[]> {
  constructor(
    readonly ctx: RequestContext,
    readonly scheduleIds: string[],
  ) {
    super();
  }
}
