import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ScheduleDeps, updateSchedules } from '@notify/application';
import { ScheduleT } from '@notify/contracts';
import { ReadYourWrites } from '@notify/platform';
import { ScheduleQueries } from '@notify/projections/schedules';
import { commandMetadata } from '../../shared/command-metadata';
import { SCHEDULE_DEPS } from '../schedule-deps';
import { UpdateSchedulesCommand } from './update-schedules.command';

@CommandHandler(UpdateSchedulesCommand)
export class UpdateSchedulesHandler implements ICommandHandler<UpdateSchedulesCommand> {
  constructor(
    @Inject(SCHEDULE_DEPS) private readonly deps: ScheduleDeps,
    private readonly consistency: ReadYourWrites,
    private readonly schedules: ScheduleQueries,
  ) {}

  async execute({ ctx, body }: UpdateSchedulesCommand): Promise<ScheduleT[]> {
    const writes = await updateSchedules(this.deps, ctx.environment, body, commandMetadata(ctx));
    await this.consistency.settleAll(writes.appends);
    return this.schedules.byIds(ctx.environment, writes.scheduleIds);
  }
}
