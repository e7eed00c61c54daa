import { memberSubject, MemberRoleT } from '@notify/contracts';
import {
  ConsoleLoginEvent,
  consoleLoginDecider,
  ConsoleLoginState,
  consoleLoginStream,
  fold,
  legacyMemberStream,
  MemberEvent,
  memberDecider,
  MemberState,
  memberStream,
  DomainError,
} from '@notify/domain';
import { EventStore, isStreamRedactor, LogPosition, START, WrongExpectedRevisionError } from '@notify/eventstore';
import { createHmac, randomUUID } from 'node:crypto';
import { eventEnvelope } from '../envelope';
import { ErasureKeyStore, erasureSubject } from '../erasure/erasure-keys';
import { CommandMetadata, CommandOutcome, handleCommand, toDomainEvent } from '../handle-command';

type Outcome = Promise<CommandOutcome<MemberState, MemberEvent>>;

/**
 * The key that hashes member addresses into stream ids (ADR 0220): one per installation, kept with
 * the erasure keys (created on first use, wrapped with the master key), never destroyed.
 */
const STREAM_ID_KEY = '/account/member-stream-ids';

/** The stream of the member with this address: keyed by an HMAC of the lowercased address, not the address. */
export async function memberStreamOf(keys: ErasureKeyStore, email: string): Promise<string> {
  const key = await keys.keyFor(STREAM_ID_KEY);
  return memberStream(createHmac('sha256', key).update(email.trim().toLowerCase()).digest('hex').slice(0, 40));
}

/** The erasure-key subject a member's personal fields are sealed for (`/user/member-<id>`: account-wide). */
export const memberErasureSubject = (memberId: string) => erasureSubject(null, memberSubject(memberId));

/**
 * The member's keyed stream, re-keying a member still on its legacy `member-<email>` stream first
 * (ADR 0220): its MemberAdded is written again, sealed, on the keyed stream (same ids, role, times)
 * and the legacy stream ends with MemberRekeyed, both in one append. Nothing when there is none.
 */
export async function memberStreamRekeyed(
  store: EventStore,
  keys: ErasureKeyStore,
  email: string,
  metadata: CommandMetadata,
): Promise<string> {
  const address = email.trim().toLowerCase();
  const streamId = await memberStreamOf(keys, address);
  for (let attempt = 1; ; attempt++) {
    const [keyed, legacy] = await Promise.all([store.readStream(streamId, { maxCount: 1 }), store.readStream(legacyMemberStream(address))]);
    if (keyed.length || legacy.length === 0) return streamId;
    const current = fold(memberDecider, legacy.map(toDomainEvent) as MemberEvent[]).current;
    if (!current) return streamId;
    const now = new Date().toISOString();
    const meta = { ...metadata, environment: null };
    try {
      await store.appendMany([
        {
          streamId: legacyMemberStream(address),
          expectedRevision: legacy[legacy.length - 1].revision,
          events: [eventEnvelope('MemberRekeyed', { member_id: current.memberId, stream: streamId, rekeyed_at: now }, randomUUID(), meta)],
        },
        {
          streamId,
          expectedRevision: 'no_stream',
          events: [
            eventEnvelope(
              'MemberAdded',
              {
                member_id: current.memberId,
                user_id: current.userId,
                email: current.email,
                name: current.name,
                role: current.role,
                added_at: current.addedAt,
              },
              randomUUID(),
              meta,
            ),
          ],
        },
      ]);
      return streamId;
    } catch (error) {
      if (!(error instanceof WrongExpectedRevisionError) || attempt >= 5) throw error;
    }
  }
}

/** Adds a member to the account (`notify members add`), or changes the role of the one with that address. */
export async function addMember(
  store: EventStore,
  keys: ErasureKeyStore,
  member: { email: string; name?: string | null; role: MemberRoleT },
  metadata: CommandMetadata,
): Outcome {
  const email = member.email.trim().toLowerCase();
  return handleCommand(
    store,
    await memberStreamRekeyed(store, keys, email, metadata),
    memberDecider,
    {
      type: 'AddMember',
      email,
      name: member.name ?? null,
      role: member.role,
      memberId: randomUUID(),
      userId: randomUUID(),
      now: new Date().toISOString(),
    },
    { ...metadata, environment: null },
  );
}

/**
 * Removes the member with that address (looked up by id from the read model by the caller) and
 * erases it (ADR 0220): its key is destroyed, so its address and name read as erased in every
 * event of its stream, and the read model drops its row.
 */
export async function removeMember(store: EventStore, keys: ErasureKeyStore, email: string, metadata: CommandMetadata): Outcome {
  const outcome = await handleCommand(
    store,
    await memberStreamRekeyed(store, keys, email, metadata),
    memberDecider,
    { type: 'RemoveMember', now: new Date().toISOString() },
    { ...metadata, environment: null },
  );
  for (const e of outcome.events) if (e.type === 'MemberRemoved') await keys.destroy(memberErasureSubject(e.data.member_id));
  return outcome;
}

/** The member with this address, from the log (its keyed stream, else its legacy one). */
export async function memberByEmail(store: EventStore, keys: ErasureKeyStore, email: string): Promise<MemberState['current']> {
  const address = email.trim().toLowerCase();
  for (const streamId of [await memberStreamOf(keys, address), legacyMemberStream(address)]) {
    const history = await store.readStream(streamId);
    if (history.length) return fold(memberDecider, history.map(toDomainEvent) as MemberEvent[]).current;
  }
  return undefined;
}

/**
 * Uses a console login link (ADR 0210): records its redemption in the link's own stream, or
 * refuses (`login_link_used`) when it was used before, also by a concurrent request.
 */
export function redeemLoginLink(
  store: EventStore,
  link: { linkId: string; memberId: string; sessionExpiresAt: string; now: string },
  metadata: CommandMetadata,
): Promise<CommandOutcome<ConsoleLoginState, ConsoleLoginEvent>> {
  return handleCommand(
    store,
    consoleLoginStream(link.linkId),
    consoleLoginDecider,
    { type: 'RedeemLoginLink', ...link },
    { ...metadata, environment: null },
  );
}

/** A legacy member stream id: `member-` and an address (keyed ones are 40 hex digits). */
const isLegacyMemberStream = (streamId: string) => streamId.startsWith('member-') && streamId.includes('@');

/**
 * `notify members purge-legacy-streams` (ADR 0240): the legacy `member-<email>` streams written
 * before ADR 0220 hold the address in their id (and their events in clear). Every member still on
 * one is re-keyed first (its keyed stream gets its MemberAdded, sealed), then the legacy streams
 * are deleted from the log in one transaction with a `LegacyMemberStreamsPurged` record naming
 * each by its keyed stream, the rows deleted and its last hash. Removed members are covered too.
 */
export async function purgeLegacyMemberStreams(
  store: EventStore,
  keys: ErasureKeyStore,
  metadata: CommandMetadata,
  reason: string,
): Promise<{ streams: number; events: number; recordStream: string | null; position: LogPosition | null }> {
  if (!isStreamRedactor(store))
    throw new DomainError('not_supported', 'This event store cannot delete streams (PostgreSQL only)', 'invalid_request');
  const legacy = new Set<string>();
  let after: LogPosition = START;
  for (;;) {
    const page = await store.readAll({ after, maxCount: 1000, filter: { streamPrefixes: ['member-'] } });
    for (const e of page.events) if (isLegacyMemberStream(e.streamId)) legacy.add(e.streamId);
    if (page.scannedTo === after) break;
    after = page.scannedTo;
  }
  const keyedOf = new Map<string, string>();
  for (const streamId of legacy) {
    const address = streamId.slice('member-'.length);
    keyedOf.set(streamId, await memberStreamRekeyed(store, keys, address, metadata));
  }
  const recordStream = `log_redaction-${randomUUID()}`;
  const meta = { ...metadata, environment: null };
  const { deleted, position } = await store.deleteStreams([...legacy], (streams) => ({
    streamId: recordStream,
    expectedRevision: 'no_stream',
    events: [
      eventEnvelope(
        'LegacyMemberStreamsPurged',
        {
          streams: streams.map((d) => ({
            member_stream: keyedOf.get(d.streamId)!,
            events: d.events,
            global_positions: d.globalPositions.map(String),
            head_hash: d.headHash,
          })),
          reason,
          purged_at: new Date().toISOString(),
        },
        randomUUID(),
        meta,
      ),
    ],
  }));
  return {
    streams: deleted.length,
    events: deleted.reduce((n, d) => n + d.events, 0),
    recordStream: deleted.length ? recordStream : null,
    position,
  };
}
