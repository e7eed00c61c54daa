import type { EventOf, UserDeleted, UserIdentified, UserMerged } from '@notify/contracts';
import type { AspectEvent } from '../recipient/recipient-aspects';

export type UserEvent = EventOf<typeof UserIdentified> | EventOf<typeof UserDeleted> | EventOf<typeof UserMerged> | AspectEvent;
