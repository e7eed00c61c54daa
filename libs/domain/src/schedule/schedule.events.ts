import type { EventOf, OccurrenceFired, ScheduleCreated, ScheduleDeleted, ScheduleUpdated } from '@notify/contracts';

export type ScheduleEvent =
  EventOf<typeof ScheduleCreated> | EventOf<typeof ScheduleUpdated> | EventOf<typeof ScheduleDeleted> | EventOf<typeof OccurrenceFired>;
export type OccurrenceFiredData = EventOf<typeof OccurrenceFired>['data'];
export type ScheduleCreatedData = EventOf<typeof ScheduleCreated>['data'];
