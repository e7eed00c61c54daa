import { MessageDeliveryAttemptCompleted } from '@notify/contracts';
import { defineProjection } from '@notify/projection-runtime';

/** Provider message ids compare without the angle brackets of an RFC 5322 Message-ID. */
export const normaliseProviderMessageId = (id: string) => id.trim().replace(/^<(.*)>$/, '$1');

/**
 * Messages by the id their provider gave them at send: how a delivery receipt, which names only
 * the provider's id, finds its message (ADR 0203).
 */
export const messageProviderIdsProjection = defineProjection({
  name: 'message-provider-ids',
  version: 1,
  tables: ['rm_message_provider_ids'],
  events: [MessageDeliveryAttemptCompleted],
  on: {
    async MessageDeliveryAttemptCompleted({ environment, data }, tx) {
      if (data.outcome === 'failed' || !data.provider_message_id) return;
      await tx.query(
        `INSERT INTO rm_message_provider_ids (environment, provider_message_id, message_id) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`,
        [environment, normaliseProviderMessageId(data.provider_message_id), data.message_id],
      );
    },
  },
});
