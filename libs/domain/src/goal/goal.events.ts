import type { EventOf, GoalArchived, GoalUpserted, RunConverted } from '@notify/contracts';

export type GoalEvent = EventOf<typeof GoalUpserted> | EventOf<typeof GoalArchived>;
export type RunConvertedEvent = EventOf<typeof RunConverted>;
