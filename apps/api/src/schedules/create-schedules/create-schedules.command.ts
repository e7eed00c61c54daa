import { Command } from '@nestjs/cqrs';
import { CreateSchedulesBodyT, ScheduleT } from '@notify/contracts';
import { RequestContext } from '@notify/http';

export class CreateSchedulesCommand extends Command<ScheduleT[]> {
  constructor(
    readonly ctx: RequestContext,
    readonly body: CreateSchedulesBodyT,
  ) {
    super();
  }
}
