import { AddressSuppressed, AddressUnsuppressed } from '@notify/contracts';
import { defineProjection } from '@notify/projection-runtime';
import { erasedOr } from '../erased';

/** An environment's suppressed addresses; an erased address (its user forgotten) leaves the list. */
export const suppressionsProjection = defineProjection({
  name: 'suppressions',
  version: 1,
  tables: ['rm_suppressions'],
  events: [AddressSuppressed, AddressUnsuppressed],
  on: {
    async AddressSuppressed({ environment, data: d }, tx) {
      const address = erasedOr<string | null>(d.address, null);
      if (address === null) return;
      await tx.query(
        `INSERT INTO rm_suppressions (environment, address, reason, message_id, source, detail, inserted_at) VALUES ($1, $2, $3, $4, $5, $6, $7)
         ON CONFLICT (environment, address) DO UPDATE SET reason = EXCLUDED.reason, message_id = EXCLUDED.message_id, source = EXCLUDED.source,
           detail = EXCLUDED.detail, inserted_at = EXCLUDED.inserted_at`,
        [environment, address, d.reason, d.message_id, d.source, erasedOr<string | null>(d.detail, null), d.at],
      );
    },
    async AddressUnsuppressed({ environment, data }, tx) {
      const address = erasedOr<string | null>(data.address, null);
      if (address !== null) await tx.query('DELETE FROM rm_suppressions WHERE environment = $1 AND address = $2', [environment, address]);
    },
  },
});
