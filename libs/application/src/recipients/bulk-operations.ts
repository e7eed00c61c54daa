import {
  BulkOperationKindT,
  BulkScheduleItemT,
  BulkOperationT,
  InlineIdentifyUserT,
  PreferenceSetRequestT,
  RecipientReferenceT,
  RecipientRequestT,
  toRecipientRef,
} from '@notify/contracts';
import { BulkItemError, BulkOperationEvent, bulkOperationDecider, bulkOperationStream, DomainError, fold } from '@notify/domain';
import { AppendResult, LogPosition, RecordedEvent } from '@notify/eventstore';
import { randomUUID } from 'node:crypto';
import { CommandMetadata, CommandOutcome, handleCommand, toDomainEvent } from '../handle-command';
import { engageMessage } from '../messages/engagement';
import { deterministicId } from './event-ids';
import { addSubscriptions, deleteObject, removeSubscriptions, setObject } from './object-use-cases';
import { RecipientDeps } from './ports';
import { deleteTenant, setTenant } from './tenant-use-cases';
import { eraseUser, identifyUser, updateUserAspects } from './user-use-cases';
import { identifiedRef } from '../engine/trigger';
import type { EngineLookups } from '../engine/lookups';
import { createSchedules } from '../schedules/schedule-use-cases';

/** One unit of work of each kind, as BulkOperationCreated records it. */
export type BulkItem =
  | { kind: 'users.identify'; item: InlineIdentifyUserT }
  | { kind: 'users.delete'; item: string }
  | { kind: 'users.preferences'; item: { user_id: string; preference_set_id: string; preferences: PreferenceSetRequestT } }
  | { kind: 'objects.set'; item: { id: string } & Record<string, unknown> }
  | { kind: 'objects.delete'; item: string }
  | {
      kind: 'objects.subscriptions.add';
      item: { id: string; recipients: RecipientRequestT[]; properties?: Record<string, unknown> | null };
    }
  | { kind: 'objects.subscriptions.delete'; item: { id: string; recipients: RecipientReferenceT[] } }
  | { kind: 'tenants.set'; item: string | ({ id: string } & Record<string, unknown>) }
  | { kind: 'tenants.delete'; item: string }
  | { kind: `messages.${MessageBulkAction}`; item: string }
  | { kind: 'schedules.create'; item: BulkScheduleItemT };

/** What an item's commands did to their streams. */
type ItemOutcome = { events: readonly { type: string }[]; append?: AppendResult; streamId: string };

type MessageBulkAction = 'seen' | 'unseen' | 'read' | 'unread' | 'archived' | 'unarchived' | 'interacted';

export async function createBulkOperation(
  deps: Pick<RecipientDeps, 'store'>,
  environment: string,
  input: { kind: BulkOperationKindT; collection: string | null; items: unknown[] },
  metadata: CommandMetadata,
): Promise<{ operation: BulkOperationT; outcome: CommandOutcome<unknown, BulkOperationEvent> }> {
  const id = randomUUID();
  const now = new Date().toISOString();
  const name = input.collection ? `${input.kind} (${input.collection})` : input.kind;
  const outcome = await handleCommand(
    deps.store,
    bulkOperationStream(environment, id),
    bulkOperationDecider,
    { type: 'CreateBulkOperation', bulkOperationId: id, kind: input.kind, name, collection: input.collection, items: input.items, now },
    { ...metadata, correlation_id: metadata.correlation_id ?? id },
  );
  const operation: BulkOperationT = {
    __typename: 'BulkOperation',
    id,
    name,
    status: 'queued',
    estimated_total_rows: input.items.length,
    processed_rows: 0,
    success_count: 0,
    error_count: 0,
    error_items: [],
    progress_path: `/v1/bulk_operations/${id}`,
    inserted_at: now,
    updated_at: now,
    started_at: null,
    completed_at: null,
    failed_at: null,
  };
  return { operation, outcome };
}

/** The entity an item changes: items of one entity run in order, others in parallel. */
function entityOf(
  kind: BulkOperationKindT,
  item: unknown,
  collection: string | null,
): { key: string; id: string; collection: string | null } {
  const idOf = (x: unknown) =>
    typeof x === 'string' ? x : String((x as { id?: unknown; user_id?: unknown }).id ?? (x as { user_id?: unknown }).user_id);
  if (kind === 'schedules.create') {
    // A schedule item is about its recipient: items for one recipient run in order (inline identification).
    const recipient = (item as BulkScheduleItemT).recipient;
    const ref = identifiedRef(recipient);
    return ref.type === 'user'
      ? { key: `user:${ref.id}`, id: ref.id, collection: null }
      : { key: `object:${ref.collection}:${ref.id}`, id: ref.id, collection: ref.collection };
  }
  const id = idOf(item);
  if (kind.startsWith('users.')) return { key: `user:${id}`, id, collection: null };
  if (kind.startsWith('tenants.')) return { key: `tenant:${id}`, id, collection: null };
  if (kind.startsWith('messages.')) return { key: `message:${id}`, id, collection: null };
  return { key: `object:${collection}:${id}`, id, collection };
}

/** Chunks whose items may run before the progress of an earlier one is recorded. */
const CHUNKS_AHEAD = 4;

/** What one item wrote (or had written before), for the read-your-writes wait of its chunk. */
export interface BulkWrite {
  /** Position of the stream's latest event. */
  position: LogPosition;
  events: readonly { type: string; streamId: string }[];
}

export interface BulkProcessorDeps extends RecipientDeps {
  /** Workflows and recipients, for bulk schedule creation. */
  lookups?: Pick<EngineLookups, 'workflow' | 'recipient'>;
  /**
   * Resolves once every read model that shows any of `writes` has caught up with them; throws
   * when they stay behind (the chunk is then redone later). Progress and completion are recorded
   * only after it, so an operation reported `completed` has effects that reads show (ADR 0120).
   */
  readModelsAt(writes: readonly BulkWrite[]): Promise<void>;
}

export interface BulkRunnerOptions {
  /** Items per progress event: a restart redoes at most one chunk. */
  chunkSize: number;
  /** Entities worked on at once within a chunk. */
  itemConcurrency: number;
  /** Called after each item; tests use it to crash mid-chunk. */
  afterItem?: (index: number) => void | Promise<void>;
}

/**
 * Works through a bulk operation chunk by chunk. Progress is an event on the operation's
 * stream, appended with the revision read, so a restart resumes after the last recorded chunk.
 * Items of a chunk that is redone after a crash append nothing twice: every item's events carry
 * ids derived from the operation id and the item's index.
 */
export class BulkOperationProcessor {
  constructor(
    private readonly deps: BulkProcessorDeps,
    private readonly options: BulkRunnerOptions,
  ) {}

  async process(created: RecordedEvent): Promise<void> {
    const data = created.data as { bulk_operation_id: string; kind: BulkOperationKindT; collection: string | null; items: unknown[] };
    const environment = created.metadata.environment!;
    const stream = bulkOperationStream(environment, data.bulk_operation_id);
    const metadata: CommandMetadata = {
      environment,
      correlation_id: created.metadata.correlation_id ?? data.bulk_operation_id,
      causation_id: created.id,
      actor: `bulk-operation:${data.bulk_operation_id}`,
    };
    const history = await this.deps.store.readStream(stream);
    const state = fold(bulkOperationDecider, history.map(toDomainEvent) as BulkOperationEvent[]);
    if (!state.exists || state.completed) return;

    // A chunk's progress is recorded once reads show its items, in order; meanwhile the next
    // chunks run, at most CHUNKS_AHEAD of them past the last one recorded.
    let recorded: Promise<void> = Promise.resolve();
    const recordings: Promise<void>[] = [];
    for (let from = state.processed; from < data.items.length; from += this.options.chunkSize) {
      const to = Math.min(from + this.options.chunkSize, data.items.length);
      let chunk: Awaited<ReturnType<BulkOperationProcessor['runChunk']>>;
      try {
        await recordings[recordings.length - CHUNKS_AHEAD];
        chunk = await this.runChunk(environment, data, from, to, metadata);
      } catch (error) {
        await recorded.catch(() => undefined);
        throw error;
      }
      const { errors, outcomes } = chunk;
      recorded = recorded.then(async () => {
        await this.deps.readModelsAt(await this.writesOf(outcomes));
        await handleCommand(
          this.deps.store,
          stream,
          bulkOperationDecider,
          { type: 'RecordBulkProgress', bulkOperationId: data.bulk_operation_id, from, to, errors, now: new Date().toISOString() },
          metadata,
          {
            eventId: () => deterministicId(`${data.bulk_operation_id}:progress:${to}`),
          },
        );
      });
      // Awaited before a later chunk runs or the operation completes; a failure is rethrown
      // there, not reported as unhandled meanwhile.
      recorded.catch(() => undefined);
      recordings.push(recorded);
    }
    await recorded;
    await handleCommand(
      this.deps.store,
      stream,
      bulkOperationDecider,
      { type: 'CompleteBulkOperation', bulkOperationId: data.bulk_operation_id, now: new Date().toISOString() },
      metadata,
      {
        eventId: () => deterministicId(`${data.bulk_operation_id}:completed`),
      },
    );
  }

  private async runChunk(
    environment: string,
    data: { bulk_operation_id: string; kind: BulkOperationKindT; collection: string | null; items: unknown[] },
    from: number,
    to: number,
    metadata: CommandMetadata,
  ): Promise<{ errors: BulkItemError[]; outcomes: ItemOutcome[] }> {
    const groups = new Map<string, number[]>();
    for (let index = from; index < to; index++) {
      const { key } = entityOf(data.kind, data.items[index], data.collection);
      const group = groups.get(key);
      if (group) group.push(index);
      else groups.set(key, [index]);
    }
    const errors: BulkItemError[] = [];
    const outcomes: ItemOutcome[] = [];
    const queue = [...groups.values()];
    // After a failure no worker starts another item: the chunk is redone as a whole later.
    let failure: unknown;
    const worker = async () => {
      for (let group = queue.shift(); group && failure === undefined; group = queue.shift()) {
        for (const index of group) {
          if (failure !== undefined) return;
          try {
            outcomes.push(
              ...(await this.execute(
                environment,
                { kind: data.kind, item: data.items[index] } as BulkItem,
                data.collection,
                metadata,
                `${data.bulk_operation_id}:${index}`,
              )),
            );
            await this.options.afterItem?.(index);
          } catch (error) {
            // A rule the item breaks is the item's error; anything else (the database gone, a
            // crash) fails the chunk, which the reactor retries.
            if (!(error instanceof DomainError)) {
              failure ??= error;
              return;
            }
            const entity = entityOf(data.kind, data.items[index], data.collection);
            const detail = error.fields.length ? `: ${error.fields.map((f) => `${f.field} ${f.message}`).join('; ')}` : '';
            errors.push({ index, id: entity.id, collection: entity.collection, reason: `${error.code}${detail}` });
          }
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(this.options.itemConcurrency, queue.length) }, worker));
    if (failure !== undefined) throw failure;
    return { errors: errors.sort((a, b) => a.index - b.index), outcomes };
  }

  /**
   * Where each item's stream stands. An item that appended nothing (its decision was made
   * before, e.g. by the run of this chunk that crashed) still waits for its stream's events:
   * those are read back, all streams of the chunk in one query.
   */
  private async writesOf(outcomes: readonly ItemOutcome[]): Promise<BulkWrite[]> {
    const writes: BulkWrite[] = [];
    const unchanged: string[] = [];
    for (const outcome of outcomes) {
      if (outcome.append && outcome.events.length)
        writes.push({
          position: outcome.append.position,
          events: outcome.events.map((e) => ({ type: e.type, streamId: outcome.streamId })),
        });
      else unchanged.push(outcome.streamId);
    }
    if (unchanged.length) {
      for (const [streamId, history] of await this.deps.store.readStreams([...new Set(unchanged)])) {
        if (history.length)
          writes.push({
            position: history[history.length - 1].position,
            events: [...new Set(history.map((e) => e.type))].map((type) => ({ type, streamId })),
          });
      }
    }
    return writes;
  }

  private async execute(
    environment: string,
    work: BulkItem,
    collection: string | null,
    metadata: CommandMetadata,
    seed: string,
  ): Promise<ItemOutcome[]> {
    const deps = this.deps;
    const opts = { seed };
    switch (work.kind) {
      case 'users.identify': {
        const { id, ...body } = work.item;
        return [await identifyUser(deps, environment, id, body, metadata, opts)];
      }
      case 'users.delete':
        return [await eraseUser(deps, environment, work.item, null, metadata, opts)];
      case 'users.preferences': {
        const command = {
          type: 'SetPreferenceSet',
          preferenceSetId: work.item.preference_set_id,
          request: work.item.preferences,
          strategy: 'replace',
          now: new Date().toISOString(),
        } as const;
        return [await updateUserAspects(deps, environment, work.item.user_id, [command], metadata, opts)];
      }
      case 'objects.set': {
        const { id, ...body } = work.item;
        return [await setObject(deps, environment, collection!, id, body, metadata, opts)];
      }
      case 'objects.delete':
        return [await deleteObject(deps, environment, collection!, work.item, metadata, opts)];
      case 'objects.subscriptions.add':
        return (
          await addSubscriptions(deps, environment, collection!, work.item.id, work.item.recipients, work.item.properties, metadata, opts)
        ).outcomes;
      case 'objects.subscriptions.delete':
        return [
          await removeSubscriptions(deps, environment, collection!, work.item.id, work.item.recipients.map(toRecipientRef), metadata, opts),
        ];
      case 'tenants.set': {
        const { id, ...body } = typeof work.item === 'string' ? { id: work.item } : work.item;
        return [await setTenant(deps, environment, id, body, metadata, opts)];
      }
      case 'tenants.delete':
        return [await deleteTenant(deps, environment, work.item, metadata, opts)];
      case 'messages.seen':
      case 'messages.unseen':
      case 'messages.read':
      case 'messages.unread':
      case 'messages.archived':
      case 'messages.unarchived':
      case 'messages.interacted':
        return [
          await engageMessage(deps.store, environment, work.item, work.kind.slice('messages.'.length) as MessageBulkAction, metadata, opts),
        ];
      case 'schedules.create': {
        if (!deps.lookups) throw new Error('bulk schedule creation needs the engine lookups');
        const { recipient, ...rest } = work.item;
        const writes = await createSchedules(
          { recipients: deps, lookups: deps.lookups },
          environment,
          { ...rest, recipients: [recipient] },
          metadata,
          { idFor: () => deterministicId(`${seed}:schedule`) },
        );
        return writes.appends.map((a) => ({ events: a.events, append: a.append, streamId: a.append.streamId }));
      }
    }
  }
}
