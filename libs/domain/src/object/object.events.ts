import type { EventOf, ObjectDeleted, ObjectSet, SubscriptionAdded, SubscriptionRemoved } from '@notify/contracts';
import type { AspectEvent } from '../recipient/recipient-aspects';

export type ObjectEvent =
  | EventOf<typeof ObjectSet>
  | EventOf<typeof ObjectDeleted>
  | EventOf<typeof SubscriptionAdded>
  | EventOf<typeof SubscriptionRemoved>
  | AspectEvent;
