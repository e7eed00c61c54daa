import { Query } from '@nestjs/cqrs';
import { ListSchedulesResponse, RecipientRefT } from '@notify/contracts';
import { ScheduleFilter } from '@notify/projections/schedules';
import { z } from 'zod';

/** Schedules of a workflow (GET /v1/schedules) or of one recipient (users/objects routes). */
export class ListSchedulesQuery extends Query<z.infer<typeof ListSchedulesResponse>> {
  constructor(
    readonly environment: string,
    readonly filter: ScheduleFilter,
    readonly page: { after?: string; before?: string; page_size: number },
    /** Set for a recipient's listing: 404 when the recipient does not exist. */
    readonly recipient?: RecipientRefT,
  ) {
    super();
  }
}
