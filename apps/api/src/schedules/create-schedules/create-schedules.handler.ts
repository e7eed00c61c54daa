import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { createSchedules, ScheduleDeps } from '@notify/application';
import { ScheduleT } from '@notify/contracts';
import { ReadYourWrites } from '@notify/platform';
import { ScheduleQueries } from '@notify/projections/schedules';
import { commandMetadata } from '../../shared/command-metadata';
import { SCHEDULE_DEPS } from '../schedule-deps';
import { CreateSchedulesCommand } from './create-schedules.command';

/** Answers the schedules as the read model shows them (next occurrence included). */
@CommandHandler(CreateSchedulesCommand)
export class CreateSchedulesHandler implements ICommandHandler<CreateSchedulesCommand> {
  constructor(
    @Inject(SCHEDULE_DEPS) private readonly deps: ScheduleDeps,
    private readonly consistency: ReadYourWrites,
    private readonly schedules: ScheduleQueries,
  ) {}

  async execute({ ctx, body }: CreateSchedulesCommand): Promise<ScheduleT[]> {
    const writes = await createSchedules(this.deps, ctx.environment, body, commandMetadata(ctx));
    await this.consistency.settleAll(writes.appends);
    return this.schedules.byIds(ctx.environment, writes.scheduleIds);
  }
}
