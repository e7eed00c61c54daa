import { Command } from '@nestjs/cqrs';
import { ScheduleT, UpdateSchedulesBodyT } from '@notify/contracts';
import { RequestContext } from '@notify/http';

export class UpdateSchedulesCommand extends Command<ScheduleT[]> {
  constructor(
    readonly ctx: RequestContext,
    readonly body: UpdateSchedulesBodyT,
  ) {
    super();
  }
}
