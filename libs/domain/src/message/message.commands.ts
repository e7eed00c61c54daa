import type { DeliveryAttemptCompletedData, MessageCreatedData, ReceiptData } from './message.events';

export type EngagementAction = 'seen' | 'unseen' | 'read' | 'unread' | 'archived' | 'unarchived' | 'interacted' | 'link_clicked';

export type MessageCommand =
  /** deliver: 'now' for in-app (no provider), 'provider' for external channels, 'sandbox' records not_sent. */
  | { type: 'CreateMessage'; message: MessageCreatedData; delivery: 'now' | 'provider' | 'sandbox'; now: string }
  /**
   * `checkAt`: when the attempt can no longer be in flight anywhere. A timer then checks that it
   * finished; one that did not was interrupted (the worker stopped mid-call).
   */
  | { type: 'StartDeliveryAttempt'; attempt: number; now: string; checkAt: string }
  | {
      type: 'CompleteDeliveryAttempt';
      result: Omit<DeliveryAttemptCompletedData, 'message_id' | 'completed_at'>;
      /** When the attempt failed and may be retried: when. Null gives up. */
      retryAt: string | null;
      now: string;
    }
  | { type: 'Engage'; action: EngagementAction; metadata?: Record<string, unknown> | null; url?: string; now: string }
  /** A provider's report about the message after it was handed over (ADR 0203). */
  | { type: 'RecordReceipt'; receipt: Omit<ReceiptData, 'message_id' | 'at'>; now: string };
