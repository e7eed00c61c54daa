import type { EventOf, UserDeleted, UserIdentified } from '@notify/contracts';

export type UserEvent = EventOf<typeof UserIdentified> | EventOf<typeof UserDeleted>;
