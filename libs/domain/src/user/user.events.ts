import type { EventOf, UserDeleted, UserErased, UserIdentified, UserMerged } from '@notify/contracts';
import type { AspectEvent } from '../recipient/recipient-aspects';

export type UserEvent =
  EventOf<typeof UserIdentified> | EventOf<typeof UserDeleted> | EventOf<typeof UserErased> | EventOf<typeof UserMerged> | AspectEvent;
