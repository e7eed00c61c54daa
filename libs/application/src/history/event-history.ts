import { ChainReportT, eventContracts, expandRecorded, LogEventPageT, RecipientRefT, RunExplanationT } from '@notify/contracts';
import {
  commitLogStream,
  Decider,
  DomainError,
  fold,
  objectDecider,
  tenantDecider,
  tenantStream,
  userDecider,
  invalidParams,
  messageDecider,
  messageStream,
  resourceMissing,
  objectStream,
  runStream,
  userStream,
  workflowRunStream,
  workflowStream,
} from '@notify/domain';
import {
  decodePosition,
  encodePosition,
  EventStore,
  isLogRangeLocator,
  isTamperEvident,
  LogFilter,
  LogPosition,
  minPosition,
  START,
} from '@notify/eventstore';
import {
  decodeHistoryCursor,
  encodeHistoryCursor,
  EventRefinement,
  inLogOrder,
  matchesRefinement,
  parseAsOf,
  presentLogEvent,
  recordedBy,
  STREAM_CATEGORIES,
} from './log-reading';
import { explainRun, formatExplanation } from './explain';

/** The runs and messages of one recipient, as the read models know them (they only find ids; the events come from the log). */
export interface RecipientActivity {
  of(environment: string, recipient: RecipientRefT): Promise<{ runs: { id: string; workflowRunId: string }[]; messageIds: string[] }>;
}

export interface ReadLogRequest {
  after?: LogPosition;
  limit: number;
  filter?: LogFilter;
  refine?: EventRefinement;
}

/** How many store pages one log read may look through before it answers with what it found (and a cursor to go on). */
const SCAN_PAGES = 20;

/**
 * Reading the log for auditors, through the EventStore port only, so it works on PostgreSQL and
 * EventStoreDB alike. Filters the store takes (types, stream prefixes) go to the store; time and
 * environment are applied here while scanning.
 */
export class EventHistory {
  constructor(
    private readonly store: EventStore,
    private readonly activity?: RecipientActivity,
  ) {}

  categories() {
    return { entries: [...STREAM_CATEGORIES] };
  }

  types() {
    return {
      entries: [...eventContracts.values()]
        .map((c) => ({ type: c.type, schema_version: c.version }))
        .sort((a, b) => a.type.localeCompare(b.type)),
    };
  }

  /** The newest readable position, and the cursor that reads what comes after it. */
  async head() {
    const position = await this.store.headPosition();
    return { position, after: encodeHistoryCursor({ kind: 'log', position }) };
  }

  async readStream(
    streamId: string,
    q: { direction: 'forwards' | 'backwards'; from_revision?: number; after?: string; limit: number },
  ): Promise<LogEventPageT> {
    let direction = q.direction;
    let from = q.from_revision;
    if (q.after !== undefined) {
      const cursor = decodeHistoryCursor(q.after);
      if (cursor?.kind !== 'stream') throw invalidParams([{ field: 'after', message: 'is not a cursor of this list', type: 'invalid' }]);
      direction = cursor.direction;
      from = cursor.revision;
    }
    const events = await this.store.readStream(streamId, { direction, fromRevision: from, maxCount: q.limit + 1 });
    const page = events.slice(0, q.limit);
    const next = events[q.limit];
    return {
      entries: page.map(presentLogEvent),
      page_info: { after: next ? encodeHistoryCursor({ kind: 'stream', direction, revision: next.revision }) : null, page_size: q.limit },
    };
  }

  /**
   * `$all` after a position. The answer always carries a cursor (the log goes on growing): a page
   * with fewer entries than asked means the scan budget or the head was reached, not the end.
   */
  async readLog(request: ReadLogRequest): Promise<LogEventPageT> {
    const refine = request.refine ?? {};
    const found = [];
    let position = request.after ?? START;
    // A read by time starts where the time range begins in commit order (ADR 0241), not at the log's start.
    if ((refine.since || refine.until) && isLogRangeLocator(this.store)) {
      const located = await this.store.locateRange({
        times: { from: refine.since ?? new Date(0), to: refine.until ?? new Date('9999-12-31T23:59:59.999Z') },
      });
      if (located) {
        const { major, minor } = decodePosition(located.first);
        // Never past the head: a transaction still open began after `since` and can commit
        // events of the range at positions before the range's first visible one; the head is
        // older than every transaction still open, so starting there misses none of them.
        const before = minPosition(encodePosition(major, minor - 1n), await this.store.headPosition());
        if (before > position) position = before;
      }
    }
    for (let pages = 0; pages < SCAN_PAGES && found.length < request.limit; pages++) {
      const page = await this.store.readAll({ after: position, maxCount: request.limit, filter: request.filter });
      let stoppedEarly = false;
      for (const event of page.events) {
        if (matchesRefinement(event, refine)) found.push(event);
        if (found.length === request.limit) {
          position = event.position;
          stoppedEarly = true;
          break;
        }
      }
      if (stoppedEarly) break;
      if (page.scannedTo === position) break;
      position = page.scannedTo;
    }
    return {
      entries: found.map(presentLogEvent),
      page_info: { after: encodeHistoryCursor({ kind: 'log', position }), page_size: request.limit },
    };
  }

  /** Why one recipient run sent what it sent: its trigger, its own events and its messages' events, folded. */
  async explainRun(environment: string, runId: string): Promise<RunExplanationT> {
    const run = await this.store.readStream(runStream(environment, runId));
    const enqueued = run.find((e) => e.type === 'RunEnqueued')?.data as { workflow_run_id?: string } | undefined;
    if (!enqueued?.workflow_run_id) throw resourceMissing('workflow recipient run');
    const messageIds = new Set<string>();
    // The last step's output is on the RunCompleted that carries it (ADR 0233).
    for (const e of run.flatMap((r) => expandRecorded(r))) {
      const id = (e.data as { output?: { message_id?: unknown } | null }).output?.message_id;
      if (typeof id === 'string') messageIds.add(id);
    }
    const others = await this.store.readStreams([
      workflowRunStream(environment, enqueued.workflow_run_id),
      ...[...messageIds].map((id) => messageStream(environment, id)),
    ]);
    // The trigger stream holds one event for every recipient; only the trigger itself concerns this run.
    const explanation = explainRun([...run, ...[...others.values()].flat()]);
    return { ...explanation, text: formatExplanation(explanation) };
  }

  /** A message's explanation is its run's. */
  async explainMessage(environment: string, messageId: string): Promise<RunExplanationT> {
    const [created] = await this.store.readStream(messageStream(environment, messageId), { maxCount: 1 });
    const runId = (created?.data as { workflow_recipient_run_id?: string } | undefined)?.workflow_recipient_run_id;
    if (!runId) throw resourceMissing('message');
    return this.explainRun(environment, runId);
  }

  /** A user as the log had it at a point in time: its events up to `as_of` folded by the user decider. */
  async userAsOf(environment: string, userId: string, asOfText: string) {
    const { state, read } = await this.foldAsOf(userStream(environment, userId), userDecider as never, asOfText);
    const user = state as unknown as ReturnType<typeof userDecider.initialState>;
    return {
      id: userId,
      exists: user.exists,
      properties: user.exists ? user.properties : null,
      preferences: user.exists ? user.aspects.preferences : null,
      ...read,
    };
  }

  /** An object (its properties and preference sets) as the log had it at a point in time. */
  async objectAsOf(environment: string, collection: string, objectId: string, asOfText: string) {
    const { state, read } = await this.foldAsOf(objectStream(environment, collection, objectId), objectDecider as never, asOfText);
    const object = state as unknown as ReturnType<typeof objectDecider.initialState>;
    return {
      id: objectId,
      collection,
      exists: object.exists,
      properties: object.exists ? object.properties : null,
      preferences: object.exists ? object.aspects.preferences : null,
      ...read,
    };
  }

  /** A tenant (its properties and settings: branding, default preference set) as the log had it at a point in time. */
  async tenantAsOf(environment: string, tenantId: string, asOfText: string) {
    const { state, read } = await this.foldAsOf(tenantStream(environment, tenantId), tenantDecider as never, asOfText);
    const tenant = state as unknown as ReturnType<typeof tenantDecider.initialState>;
    return {
      id: tenantId,
      exists: tenant.exists,
      properties: tenant.exists ? tenant.properties : null,
      settings: tenant.exists ? tenant.settings : null,
      ...read,
    };
  }

  /** A message (status, engagement, what it was created with) and its events as the log had them at a point in time. */
  async messageAsOf(environment: string, messageId: string, asOfText: string) {
    const asOf = parseAsOf(asOfText);
    const events = (await this.store.readStream(messageStream(environment, messageId))).filter((e) => recordedBy(e, asOf));
    const message = fold(
      messageDecider as never,
      events.map((e) => ({ type: e.type, data: e.data })),
    ) as unknown as ReturnType<typeof messageDecider.initialState>;
    const created = events.find((e) => e.type === 'MessageCreated')?.data as Record<string, any> | undefined;
    const last = events[events.length - 1];
    return {
      id: messageId,
      exists: message.exists,
      status: message.exists ? message.status : null,
      seen_at: message.seen_at,
      read_at: message.read_at,
      archived_at: message.archived_at,
      interacted_at: message.interacted_at,
      link_clicked_at: message.link_clicked_at,
      attempts: { started: message.attemptsStarted, completed: message.attemptsCompleted },
      channel: created?.channel ?? null,
      recipient: created?.recipient ?? null,
      workflow: created?.workflow ?? null,
      tenant: created?.tenant ?? null,
      workflow_recipient_run_id: created?.workflow_recipient_run_id ?? null,
      activities: created ? (Array.isArray(created.activities) ? created.activities : [created.activities]) : null,
      total_activities: created?.total_activities ?? null,
      data: created?.data ?? null,
      events: events.map(presentLogEvent),
      as_of: asOfText,
      revision: last ? last.revision : null,
      global_position: last ? last.globalPosition.toString() : null,
      position: last ? last.position : null,
      recorded_at: last ? last.createdAt.toISOString() : null,
    };
  }

  /**
   * A workflow as an environment served it at a point: the version triggers then ran (the latest
   * saved one, or the one promoted into the environment), whether it was active, and what was
   * committed. Folded from the workflow's stream and the environment's commit log.
   */
  async workflowAsOf(environment: string, key: string, asOfText: string) {
    const asOf = parseAsOf(asOfText);
    const streams = await this.store.readStreams([workflowStream(environment, key), commitLogStream(environment)]);
    const events = inLogOrder([...streams.values()].flat().filter((e) => recordedBy(e, asOf)));
    let version: { sha: string; valid: boolean; content: Record<string, unknown>; saved_at: string; source: 'saved' | 'promoted' } | null =
      null;
    let committed: { sha: string; commit_id: string; committed_at: string } | null = null;
    let active = false;
    let last: (typeof events)[number] | undefined;
    const isThis = (r: { type: string; identifier: string }) => r.type === 'workflow' && r.identifier === key;
    for (const e of events) {
      const d = e.data as Record<string, any>;
      if (e.type === 'WorkflowUpserted')
        version = { sha: d.sha, valid: d.valid, content: d.content, saved_at: d.upserted_at, source: 'saved' };
      else if (e.type === 'WorkflowActivated') active = true;
      else if (e.type === 'WorkflowDeactivated') active = false;
      else if (e.type === 'CommitPromoted' && isThis(d.resource)) {
        version = { sha: d.sha, valid: true, content: d.content, saved_at: d.promoted_at, source: 'promoted' };
        committed = { sha: d.sha, commit_id: d.commit_id, committed_at: d.promoted_at };
      } else if (e.type === 'ResourcesCommitted') {
        const mine = (d.commits as { commit_id: string; resource: { type: string; identifier: string }; sha: string }[]).find((c) =>
          isThis(c.resource),
        );
        if (!mine) continue;
        committed = { sha: mine.sha, commit_id: mine.commit_id, committed_at: d.committed_at };
      } else continue;
      last = e;
    }
    return {
      key,
      exists: version !== null,
      active,
      version,
      committed,
      as_of: asOfText,
      global_position: last ? last.globalPosition.toString() : null,
      position: last ? last.position : null,
      recorded_at: last ? last.createdAt.toISOString() : null,
    };
  }

  /** A stream's events up to `as_of` folded by its decider, and where that state was read (ADR 0175). */
  private async foldAsOf(streamId: string, decider: Decider<unknown, never, { type: string; data: unknown }>, asOfText: string) {
    const asOf = parseAsOf(asOfText);
    const events = (await this.store.readStream(streamId)).filter((e) => recordedBy(e, asOf));
    const state = fold(
      decider,
      events.map((e) => ({ type: e.type, data: e.data })),
    );
    const last = events[events.length - 1];
    return {
      state,
      read: {
        as_of: asOfText,
        revision: last ? last.revision : null,
        global_position: last ? last.globalPosition.toString() : null,
        position: last ? last.position : null,
        recorded_at: last ? last.createdAt.toISOString() : null,
      },
    };
  }

  /** The hash chain check (ADR 0176); only a store that keeps one can answer. */
  async verify(options: { checkpoint?: boolean } = {}): Promise<ChainReportT> {
    if (!isTamperEvident(this.store))
      throw new DomainError('not_supported', `The ${this.store.kind} event store keeps no hash chain to verify`, 'invalid_request');
    const report = await this.store.verifyChain(options);
    return {
      ok: report.findings.length === 0,
      checked_events: report.checkedEvents,
      streams: report.streams,
      unchained_events: report.unchainedEvents,
      root: report.root,
      findings: report.findings.map((f) => ({
        kind: f.kind,
        stream: f.streamId,
        revision: f.revision,
        global_position: f.globalPosition === undefined ? null : f.globalPosition.toString(),
        detail: f.detail,
      })),
      checkpointed: report.checkpointed,
    };
  }

  /** Everything that happened to one recipient: its own stream, the triggers and runs it was in, its messages; in log order. */
  async recipientHistory(environment: string, recipient: RecipientRefT, q: { after?: string; limit: number }): Promise<LogEventPageT> {
    if (!this.activity) throw new Error('recipientHistory needs the recipient activity lookup');
    let after: LogPosition = START;
    if (q.after !== undefined) {
      const cursor = decodeHistoryCursor(q.after);
      if (cursor?.kind !== 'log') throw invalidParams([{ field: 'after', message: 'is not a cursor of this list', type: 'invalid' }]);
      after = cursor.position;
    }
    const { runs, messageIds } = await this.activity.of(environment, recipient);
    const own =
      recipient.type === 'user' ? userStream(environment, recipient.id) : objectStream(environment, recipient.collection, recipient.id);
    const streams = new Set([
      own,
      ...runs.map((r) => workflowRunStream(environment, r.workflowRunId)),
      ...runs.map((r) => runStream(environment, r.id)),
      ...messageIds.map((id) => messageStream(environment, id)),
    ]);
    const read = await this.store.readStreams([...streams]);
    const ordered = inLogOrder([...read.values()].flat()).filter((e) => e.position > after);
    const page = ordered.slice(0, q.limit);
    const more = ordered.length > q.limit;
    return {
      entries: page.map(presentLogEvent),
      page_info: {
        after: more ? encodeHistoryCursor({ kind: 'log', position: page[page.length - 1].position }) : null,
        page_size: q.limit,
      },
    };
  }
}
