import type { AspectCommand, RecipientRef } from '../recipient/recipient-aspects';

/**
 * Who subscribes is read from the subscriptions read model by the caller and passed in
 * (`current`): subscribers are users and objects whose deletion elsewhere ends their
 * subscriptions, which this stream alone cannot see.
 */
export interface SubscriberChange {
  recipient: RecipientRef;
  /** The subscription as it stands, or null when there is none. */
  current: { properties: Record<string, unknown> | null } | null;
}

export type ObjectCommand =
  | { type: 'SetObject'; collection: string; objectId: string; properties: Record<string, unknown>; aspects?: AspectCommand[]; now: string }
  | { type: 'DeleteObject'; collection: string; objectId: string; now: string }
  | { type: 'UpdateObjectAspects'; collection: string; objectId: string; commands: AspectCommand[]; now: string }
  /** `properties` undefined keeps an existing subscription's properties. */
  | {
      type: 'AddSubscriptions';
      collection: string;
      objectId: string;
      subscribers: SubscriberChange[];
      properties: Record<string, unknown> | null | undefined;
      now: string;
    }
  | { type: 'RemoveSubscriptions'; collection: string; objectId: string; subscribers: SubscriberChange[]; now: string };
