import { AddressSuppressed, AddressUnsuppressed, UserErased } from '@notify/contracts';
import { defineProjection } from '@notify/projection-runtime';
import { erasedOr } from '../erased';

/**
 * An environment's suppressed addresses; an erased address (its user forgotten) leaves the list,
 * and so does every address of a user as the user is erased (the key that opens them is
 * destroyed after `UserErased`, but the row must not wait for a rebuild to go).
 */
export const suppressionsProjection = defineProjection({
  name: 'suppressions',
  version: 2,
  tables: ['rm_suppressions'],
  events: [AddressSuppressed, AddressUnsuppressed, UserErased],
  on: {
    async AddressSuppressed({ environment, data: d }, tx) {
      const address = erasedOr<string | null>(d.address, null);
      if (address === null) return;
      await tx.query(
        `INSERT INTO rm_suppressions (environment, address, reason, message_id, source, detail, inserted_at, user_id)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
         ON CONFLICT (environment, address) DO UPDATE SET reason = EXCLUDED.reason, message_id = EXCLUDED.message_id, source = EXCLUDED.source,
           detail = EXCLUDED.detail, inserted_at = EXCLUDED.inserted_at, user_id = EXCLUDED.user_id`,
        [environment, address, d.reason, d.message_id, d.source, erasedOr<string | null>(d.detail, null), d.at, d.user_id],
      );
    },
    async AddressUnsuppressed({ environment, data }, tx) {
      const address = erasedOr<string | null>(data.address, null);
      if (address !== null) await tx.query('DELETE FROM rm_suppressions WHERE environment = $1 AND address = $2', [environment, address]);
    },
    async UserErased({ environment, data }, tx) {
      await tx.query('DELETE FROM rm_suppressions WHERE environment = $1 AND user_id = $2', [environment, data.user_id]);
    },
  },
});
