import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler, IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import {
  audienceExists,
  BroadcastOutcome,
  cancelBroadcast,
  checkBroadcast,
  contentSha,
  normalizeBroadcast,
  sendBroadcast,
  upsertBroadcast,
} from '@notify/application';
import { BroadcastRequestT, BroadcastT } from '@notify/contracts';
import { assertNotBranch, branchParent, invalidParams, resourceMissing } from '@notify/domain';
import { EventStore } from '@notify/eventstore';
import { EVENT_STORE, ReadYourWrites } from '@notify/platform';
import { BroadcastQueries, BroadcastRecord } from '@notify/projections/broadcasts';
import { ConfigResourceQueries } from '@notify/projections/config-resources';
import { commandMetadata } from '../../shared/command-metadata';
import { ResourceChecks } from '../shared/resource-deps';
import {
  CancelBroadcastCommand,
  GetBroadcastQuery,
  ListBroadcastsQuery,
  SendBroadcastCommand,
  UpsertBroadcastCommand,
} from './broadcast.messages';

/** Whether a broadcast's target audience exists: defined here, promoted here, or created by a members call. */
const exists = (store: EventStore, resources: ConfigResourceQueries, environment: string, audienceKey: string) =>
  audienceExists({ store, audienceDefinitions: resources }, environment, audienceKey);

const PUBLIC_STATUS = { draft: 'draft', scheduled: 'scheduled', sending: 'sent', sent: 'sent', canceled: 'sent' } as const;

/**
 * The reference's three statuses (`status`), the full lifecycle (`send_status`), and the counts
 * of the current (or last) send (ADR 0172).
 */
async function present(record: BroadcastRecord, queries: BroadcastQueries): Promise<BroadcastT> {
  const counts = record.sendId ? await queries.counts(record.environment, record.key, record.sendId) : { messages: 0, skips: 0 };
  const { description, target_audience_key, ...content } = record.content;
  return {
    key: record.key,
    ...content,
    ...(description === null ? {} : { description }),
    ...(target_audience_key === null ? {} : { target_audience_key }),
    status: PUBLIC_STATUS[record.status],
    send_status: record.status,
    valid: record.valid,
    ...(record.valid ? {} : { errors: record.errors }),
    environment: record.environment,
    sha: record.sha,
    scheduled_at: record.scheduledAt?.toISOString() ?? null,
    sent_at: record.startedAt && record.status !== 'scheduled' && record.status !== 'draft' ? record.startedAt.toISOString() : null,
    archived_at: null,
    counts: { recipients: record.recipients, ...counts },
    created_at: record.createdAt.toISOString(),
    updated_at: record.updatedAt.toISOString(),
  };
}

async function written(
  consistency: ReadYourWrites,
  queries: BroadcastQueries,
  environment: string,
  key: string,
  outcome: BroadcastOutcome,
) {
  await consistency.settle(outcome.append, outcome.events);
  const record = await queries.get(environment, key);
  if (!record) throw new Error(`broadcast ${key} was written but is not in the read model`);
  return { broadcast: await present(record, queries) };
}

@QueryHandler(ListBroadcastsQuery)
export class ListBroadcastsHandler implements IQueryHandler<ListBroadcastsQuery> {
  constructor(private readonly queries: BroadcastQueries) {}

  async execute({ environment, page }: ListBroadcastsQuery) {
    const { entries, page_info } = await this.queries.list(environment, page);
    return { entries: await Promise.all(entries.map((e) => present(e, this.queries))), page_info };
  }
}

@QueryHandler(GetBroadcastQuery)
export class GetBroadcastHandler implements IQueryHandler<GetBroadcastQuery> {
  constructor(private readonly queries: BroadcastQueries) {}

  async execute({ environment, key }: GetBroadcastQuery) {
    const record = await this.queries.get(environment, key);
    if (!record) throw resourceMissing('broadcast');
    return present(record, this.queries);
  }
}

/** Upsert (save) and validate (check only, 422 with every problem, nothing written). */
@CommandHandler(UpsertBroadcastCommand)
export class UpsertBroadcastHandler implements ICommandHandler<UpsertBroadcastCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly consistency: ReadYourWrites,
    private readonly queries: BroadcastQueries,
    private readonly checks: ResourceChecks,
    private readonly resources: ConfigResourceQueries,
  ) {}

  async execute({ ctx, key, body, save }: UpsertBroadcastCommand) {
    if (body.key !== undefined && body.key !== key)
      throw invalidParams([{ field: 'broadcast.key', message: `does not match the path (${key})`, type: 'mismatch' }]);
    const deps = this.checks.in(ctx.environment);
    // A branch's draft may target its own audiences or its parent's (where it is sent once merged).
    const parent = branchParent(ctx.environment);
    const audienceHere = (audienceKey: string) =>
      exists(this.store, this.resources, ctx.environment, audienceKey).then(
        (found) => found || (parent !== undefined && exists(this.store, this.resources, parent, audienceKey)),
      );
    const checked = await checkBroadcast(normalizeBroadcast(body as BroadcastRequestT), deps.references, deps.templates, audienceHere);
    // `scheduled_at` schedules the send as `send` with `send_at` does (ADR 0201).
    const scheduledAt = (body as BroadcastRequestT).scheduled_at ?? null;
    if (scheduledAt !== null && save) assertNotBranch(ctx.environment, 'Scheduling a broadcast');
    if (save)
      return written(
        this.consistency,
        this.queries,
        ctx.environment,
        key,
        await upsertBroadcast(
          this.store,
          ctx.environment,
          key,
          checked,
          commandMetadata(ctx),
          scheduledAt === null
            ? undefined
            : { scheduledAt, audienceExists: (audienceKey) => exists(this.store, this.resources, ctx.environment, audienceKey) },
        ),
      );
    if (scheduledAt !== null && !(Date.parse(scheduledAt) > Date.now()))
      throw invalidParams([{ field: 'broadcast.scheduled_at', message: 'must be in the future', type: 'invalid' }]);
    if (checked.errors.length)
      throw invalidParams(
        checked.errors.map((e) => ({ ...e, field: `broadcast.${e.field}` })),
        'The broadcast is not valid',
      );
    const existing = await this.queries.get(ctx.environment, key);
    const now = new Date();
    const record: BroadcastRecord = {
      environment: ctx.environment,
      key,
      content: checked.content,
      sha: contentSha(checked.content),
      valid: true,
      errors: [],
      status: existing?.status ?? 'draft',
      sendId: existing?.sendId ?? null,
      sendAt: existing?.sendAt ?? null,
      scheduledAt: existing?.scheduledAt ?? null,
      startedAt: existing?.startedAt ?? null,
      completedAt: existing?.completedAt ?? null,
      recipients: existing?.recipients ?? 0,
      createdAt: existing?.createdAt ?? now,
      updatedAt: now,
    };
    return { broadcast: await present(record, this.queries) };
  }
}

@CommandHandler(SendBroadcastCommand)
export class SendBroadcastHandler implements ICommandHandler<SendBroadcastCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly consistency: ReadYourWrites,
    private readonly queries: BroadcastQueries,
    private readonly resources: ConfigResourceQueries,
  ) {}

  async execute({ ctx, key, sendAt }: SendBroadcastCommand) {
    assertNotBranch(ctx.environment, 'Sending a broadcast');
    const outcome = await sendBroadcast(
      this.store,
      ctx.environment,
      key,
      sendAt,
      (audienceKey) => exists(this.store, this.resources, ctx.environment, audienceKey),
      commandMetadata(ctx),
    );
    return written(this.consistency, this.queries, ctx.environment, key, outcome);
  }
}

@CommandHandler(CancelBroadcastCommand)
export class CancelBroadcastHandler implements ICommandHandler<CancelBroadcastCommand> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly consistency: ReadYourWrites,
    private readonly queries: BroadcastQueries,
  ) {}

  async execute({ ctx, key }: CancelBroadcastCommand) {
    return written(
      this.consistency,
      this.queries,
      ctx.environment,
      key,
      await cancelBroadcast(this.store, ctx.environment, key, commandMetadata(ctx)),
    );
  }
}

export const broadcastHandlers = [
  ListBroadcastsHandler,
  GetBroadcastHandler,
  UpsertBroadcastHandler,
  SendBroadcastHandler,
  CancelBroadcastHandler,
];
