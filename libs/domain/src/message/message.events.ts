import type {
  EventOf,
  MessageArchived,
  MessageBounced,
  MessageCreated,
  MessageDelivered,
  MessageDeliveryAttemptCompleted,
  MessageDeliveryAttempted,
  MessageDeliveryAttemptStarted,
  MessageInteracted,
  MessageLinkClicked,
  MessageNotSent,
  MessageRead,
  MessageReceiptRecorded,
  MessageSeen,
  MessageSent,
  MessageUnarchived,
  MessageUndelivered,
  MessageUnread,
  MessageUnseen,
  TimerFired,
  TimerScheduled,
} from '@notify/contracts';

export type MessageCreatedData = EventOf<typeof MessageCreated>['data'];
export type ReceiptData = EventOf<typeof MessageReceiptRecorded>['data'];
export type DeliveryAttemptCompletedData = EventOf<typeof MessageDeliveryAttemptCompleted>['data'];

export type MessageEvent =
  | EventOf<typeof MessageCreated>
  | EventOf<typeof MessageDeliveryAttemptStarted>
  | EventOf<typeof MessageDeliveryAttemptCompleted>
  | EventOf<typeof MessageSent>
  | EventOf<typeof MessageDelivered>
  | EventOf<typeof MessageDeliveryAttempted>
  | EventOf<typeof MessageUndelivered>
  | EventOf<typeof MessageNotSent>
  | EventOf<typeof MessageBounced>
  | EventOf<typeof MessageSeen>
  | EventOf<typeof MessageUnseen>
  | EventOf<typeof MessageRead>
  | EventOf<typeof MessageUnread>
  | EventOf<typeof MessageArchived>
  | EventOf<typeof MessageUnarchived>
  | EventOf<typeof MessageInteracted>
  | EventOf<typeof MessageLinkClicked>
  | EventOf<typeof MessageReceiptRecorded>
  | EventOf<typeof TimerScheduled>
  | EventOf<typeof TimerFired>;
