import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { deleteSchedules, ScheduleDeps } from '@notify/application';
import { ScheduleT } from '@notify/contracts';
import { ReadYourWrites } from '@notify/platform';
import { ScheduleQueries } from '@notify/projections/schedules';
import { commandMetadata } from '../../shared/command-metadata';
import { SCHEDULE_DEPS } from '../schedule-deps';
import { DeleteSchedulesCommand } from './delete-schedules.command';

/** Answers the deleted schedules as they were; ids of unknown or already deleted ones are left out. */
@CommandHandler(DeleteSchedulesCommand)
export class DeleteSchedulesHandler implements ICommandHandler<DeleteSchedulesCommand> {
  constructor(
    @Inject(SCHEDULE_DEPS) private readonly deps: ScheduleDeps,
    private readonly consistency: ReadYourWrites,
    private readonly schedules: ScheduleQueries,
  ) {}

  async execute({ ctx, scheduleIds }: DeleteSchedulesCommand): Promise<ScheduleT[]> {
    const before = await this.schedules.byIds(ctx.environment, [...new Set(scheduleIds)]);
    const writes = await deleteSchedules(this.deps, ctx.environment, scheduleIds, 'requested', commandMetadata(ctx));
    await this.consistency.settleAll(writes.appends);
    const deleted = new Set(writes.appends.flatMap((a) => (a.events.length ? [a.append.streamId.slice(-36)] : [])));
    return before.filter((s) => deleted.has(s.id));
  }
}
