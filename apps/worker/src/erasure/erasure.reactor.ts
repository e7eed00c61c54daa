import { Inject, Injectable } from '@nestjs/common';
import { ERASURE_KEYS, ErasureKeyStore, erasureSubject, memberErasureSubject } from '@notify/application';
import { RecordedEvent } from '@notify/eventstore';
import { Reactor } from '@notify/projection-runtime';

/**
 * Every erasure destroys the user's key (ADR 0144), whoever recorded it: a bulk delete, the CLI,
 * or the API (which destroys it at once as well, to answer). A removed member's key likewise (ADR
 * 0220: the removal destroys it at once; this covers a process that stopped in between).
 * Destroying a destroyed key changes nothing, so a redelivered batch is harmless.
 */
@Injectable()
export class ErasureReactor implements Reactor {
  readonly name = 'erasure';
  readonly filter = { eventTypes: ['UserErased', 'MemberRemoved'] };

  constructor(@Inject(ERASURE_KEYS) private readonly keys: ErasureKeyStore) {}

  async handle(events: readonly RecordedEvent[]): Promise<void> {
    for (const event of events) {
      if (event.type === 'MemberRemoved') {
        await this.keys.destroy(memberErasureSubject((event.data as { member_id: string }).member_id));
        continue;
      }
      const { user_id } = event.data as { user_id: string };
      await this.keys.destroy(erasureSubject(event.metadata.environment ?? null, user_id));
    }
  }
}
