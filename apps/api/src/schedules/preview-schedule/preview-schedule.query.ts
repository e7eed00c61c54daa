import { Query } from '@nestjs/cqrs';
import { SchedulePreviewT } from '@notify/contracts';

export class PreviewScheduleQuery extends Query<SchedulePreviewT> {
  constructor(
    readonly environment: string,
    readonly scheduleId: string,
    readonly count: number,
  ) {
    super();
  }
}
