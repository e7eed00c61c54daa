import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { APP_CONFIG, AppConfig } from '@notify/config';
import { SchedulePreviewT } from '@notify/contracts';
import { pendingOccurrences, resourceMissing, wallTime } from '@notify/domain';
import { recipientFromColumns } from '@notify/projections/recipient-columns';
import { ScheduleQueries, scheduleZone, timingOf } from '@notify/projections/schedules';
import { PreviewScheduleQuery } from './preview-schedule.query';

/**
 * The next occurrences not yet decided (an overdue one first, if the firer has not reached it),
 * computed from the read model exactly as the firer will: same zone, same rules.
 */
@QueryHandler(PreviewScheduleQuery)
export class PreviewScheduleHandler implements IQueryHandler<PreviewScheduleQuery> {
  constructor(
    private readonly schedules: ScheduleQueries,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async execute({ environment, scheduleId, count }: PreviewScheduleQuery): Promise<SchedulePreviewT> {
    const row = await this.schedules.row(environment, scheduleId);
    if (!row) throw resourceMissing('schedule');
    const own = await this.schedules.recipientZone(
      environment,
      recipientFromColumns(row.recipient_type, row.recipient_collection, row.recipient_id),
    );
    const { source } = scheduleZone(own, this.config.SCHEDULES_DEFAULT_TIMEZONE);
    const occurrences = pendingOccurrences(timingOf(row), row.time_zone, { limit: count });
    return {
      __typename: 'SchedulePreview',
      schedule_id: row.id,
      time_zone: row.time_zone,
      time_zone_source: source,
      occurrences: occurrences.map((o) => ({
        occurrence: o.local,
        at: o.at,
        local_at: wallTime(o.at, row.time_zone),
        adjusted: o.adjusted,
      })),
    };
  }
}
