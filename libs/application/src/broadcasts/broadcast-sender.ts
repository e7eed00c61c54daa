import { BroadcastContentT } from '@notify/contracts';
import {
  BroadcastEvent,
  broadcastDecider,
  BroadcastState,
  broadcastStream,
  fold,
  resumedPage,
  WorkflowTriggeredData,
  workflowRunStream,
} from '@notify/domain';
import { DuplicateEventIdError, EventStore, EventToAppend, StreamAppend, WrongExpectedRevisionError } from '@notify/eventstore';
import { uuidV5 as uuidv5 } from '@notify/contracts';
import { canEnqueueWithTrigger, withEnqueuedRuns } from '../engine/fanout';
import { eventEnvelope } from '../envelope';
import { handleCommand, toDomainEvent } from '../handle-command';

const NAMESPACE = '8d3c1f0e-5b2a-4c7d-9e6f-1a2b3c4d5e6f';

/** A member to send to (`tenant` '' for none), as the read model pages them. */
export interface BroadcastRecipientRef {
  userId: string;
  tenant: string;
}

export interface BroadcastClaim {
  environment: string;
  key: string;
  lease: Date;
}

/** What the sender reads and leases (BroadcastQueries and BroadcastTimers satisfy these). */
export interface BroadcastSenderPorts {
  /** Members after `after` (exclusive), up to `upTo` (inclusive) when given, in page order. */
  recipients(
    environment: string,
    audienceKey: string | null,
    after: BroadcastRecipientRef | null,
    limit: number,
    upTo?: BroadcastRecipientRef,
  ): Promise<BroadcastRecipientRef[]>;
  /** The last of these members in page order (the read model's order). */
  lastOf(members: readonly BroadcastRecipientRef[]): Promise<BroadcastRecipientRef>;
  claim(now: Date, limit: number): Promise<BroadcastClaim[]>;
  renew(claim: BroadcastClaim, now: Date): Promise<BroadcastClaim | undefined>;
  release(claim: BroadcastClaim): Promise<void>;
  /**
   * The appends of a page's runs with what they decided, when they need nothing asynchronous and
   * the recipient read models are current (ADR 0262): appended with the trigger instead of its
   * bare runs. Undefined leaves the runs to the worker.
   */
  planRuns?(environment: string, trigger: WorkflowTriggeredData, runs: readonly StreamAppend[]): Promise<StreamAppend[] | undefined>;
}

export interface BroadcastSenderOptions {
  pageSize: number;
  /** The clock; tests inject one. */
  now?: () => Date;
  /** Called after a page's runs are triggered, before its progress is recorded (tests stop a sender here). */
  afterTrigger?: (page: { key: string; cursor: string; recipients: number }) => void | Promise<void>;
}

/** The run of one page of one send for one tenant: the same on every sender and every retry. */
export const broadcastRunId = (sendId: string, pageStart: string, tenant: string) =>
  uuidv5(`broadcast-run:${sendId}:${pageStart}:${tenant}`, NAMESPACE);
/** The run of one member found missing when a page is resumed (ADR 0172): also the same on every retry. */
const extraRunId = (sendId: string, pageStart: string, m: BroadcastRecipientRef) =>
  uuidv5(`broadcast-run:${sendId}:${pageStart}:${m.tenant}:${m.userId}`, NAMESPACE);

const cursorOf = (r: BroadcastRecipientRef) => JSON.stringify([r.userId, r.tenant]);
const parseCursor = (cursor: string | null): BroadcastRecipientRef | null => {
  if (!cursor) return null;
  const [userId, tenant] = JSON.parse(cursor) as [string, string];
  return { userId, tenant };
};
const lostRace = (error: unknown) => error instanceof WrongExpectedRevisionError || error instanceof DuplicateEventIdError;

/** One run of a page to trigger: its id, tenant and members, and what it sends. */
interface RunToTrigger {
  runId: string;
  key: string;
  sendId: string;
  tenant: string;
  members: BroadcastRecipientRef[];
  workflow: WorkflowTriggeredData['workflow'];
  content: BroadcastContentT;
}

/** A run ready to append (its trigger, with its runs and their plans where it can), or the members of the run already there. */
type PreparedRun =
  | { existing: BroadcastRecipientRef[] }
  | {
      existing?: undefined;
      stream: string;
      event: EventToAppend<WorkflowTriggeredData>;
      withRuns?: { own: StreamAppend; runs: StreamAppend[]; executed: StreamAppend[] | undefined };
    };

/** A page's runs by tenant. */
type PreparedPage = Map<string, PreparedRun>;

const groupByTenant = (page: readonly BroadcastRecipientRef[]) => {
  const byTenant = new Map<string, BroadcastRecipientRef[]>();
  for (const r of page) {
    const members = byTenant.get(r.tenant);
    if (members) members.push(r);
    else byTenant.set(r.tenant, [r]);
  }
  return byTenant;
};

/** The broadcast as the engine runs it: a workflow snapshot keyed by the broadcast. */
export function broadcastSnapshot(key: string, sha: string, content: BroadcastContentT): WorkflowTriggeredData['workflow'] {
  return {
    key,
    version: sha,
    categories: content.categories,
    steps: content.steps,
    conditions: null,
    settings: content.settings,
    trigger_frequency: 'every_trigger',
  };
}

/**
 * Sends broadcasts (ADR 0172). It claims due work from the read model (a scheduled send whose
 * time came, or a send in progress), starts a scheduled send on the broadcast's stream, then
 * pages the audience (or every user) from the read model after the cursor the stream records.
 * Each page becomes one WorkflowTriggered per tenant, on a run stream whose id is derived from
 * (send, page start, tenant) and appended with 'no_stream' together with its members' runs
 * (RunEnqueued, ADR 0235; the next page is read meanwhile): a page triggered again by a sender
 * that continues another's work is refused by the store and changes nothing, so no member gets
 * two runs. The page's progress (its last member) is then recorded on the broadcast's stream;
 * a cancel recorded meanwhile makes that record, and so the send, stop.
 */
export class BroadcastSender {
  private readonly now: () => Date;
  private afterTrigger?: BroadcastSenderOptions['afterTrigger'];

  constructor(
    private readonly store: EventStore,
    private readonly ports: BroadcastSenderPorts,
    private readonly options: BroadcastSenderOptions,
  ) {
    this.now = options.now ?? (() => new Date());
    this.afterTrigger = options.afterTrigger;
  }

  /** Sets (or clears) the hook called after each page's triggers (e2e tests hold a running worker's sender here). */
  onPageTriggered(hook: BroadcastSenderOptions['afterTrigger']): void {
    this.afterTrigger = hook;
  }

  /** One round: claims due broadcasts and works each to its end (or until it is canceled or the lease is lost). */
  async tick(limit = 4): Promise<number> {
    const claims = await this.ports.claim(this.now(), limit);
    for (const claim of claims) await this.work(claim);
    return claims.length;
  }

  private async state(environment: string, key: string): Promise<BroadcastState> {
    const history = await this.store.readStream(broadcastStream(environment, key));
    return fold(broadcastDecider, history.map(toDomainEvent) as BroadcastEvent[]);
  }

  private async work(first: BroadcastClaim): Promise<void> {
    let claim: BroadcastClaim | undefined = first;
    const { environment, key } = first;
    const metadata = { environment, actor: 'broadcast-sender' };
    const stream = broadcastStream(environment, key);
    // The next page, read ahead with its runs prepared: for this send, after that cursor.
    let next: { sendId: string; after: string; page: Promise<BroadcastRecipientRef[]>; runs: Promise<PreparedPage> } | undefined;
    // This page's runs being prepared.
    let current: Promise<PreparedPage> | undefined;
    // The sha of the content being sent, read once per send.
    let sent: { sendId: string; sha: string | undefined } | undefined;
    try {
      let state = await this.state(environment, key);
      if (state.status === 'scheduled' && state.sendId) {
        const started = await handleCommand(
          this.store,
          stream,
          broadcastDecider,
          { type: 'StartScheduledSend', key, sendId: state.sendId, now: this.now().toISOString() },
          metadata,
        );
        state = started.state;
      }
      while (state.status === 'sending' && state.sendId && state.sending && claim) {
        const sendId = state.sendId;
        const content = state.sending;
        const ahead = next && next.sendId === sendId && next.after === state.cursor ? next : undefined;
        next = undefined;
        const page = ahead
          ? await ahead.page
          : await this.ports.recipients(environment, content.target_audience_key, parseCursor(state.cursor), this.options.pageSize);
        const pageStart = state.cursor ?? '';
        if (sent?.sendId !== sendId) sent = { sendId, sha: await this.sha(environment, key) };
        const workflow = broadcastSnapshot(key, sent.sha ?? sendId, content);
        const runOf = (runId: string, tenant: string, members: BroadcastRecipientRef[]): RunToTrigger => ({
          runId,
          key,
          sendId,
          tenant,
          members,
          workflow,
          content,
        });
        const byTenant = groupByTenant(page);
        // This page's runs, prepared with the page before it or now (reads only: the page's
        // tenants are still recorded before any run of them is appended, ADR 0232).
        const prepared =
          ahead?.runs ??
          this.preparePage(environment, byTenant, (tenant, members) => runOf(broadcastRunId(sendId, pageStart, tenant), tenant, members));
        current = prepared;
        prepared.catch(() => undefined); // thrown where it is awaited, or dropped with the page
        // The next page is read and its runs prepared while this one is triggered and recorded
        // (its start is this page's last member, unless the page is resumed and ends elsewhere:
        // then it is read again).
        if (page.length === this.options.pageSize) {
          const after = cursorOf(page[page.length - 1]);
          const read = this.ports.recipients(environment, content.target_audience_key, page[page.length - 1], this.options.pageSize);
          const runs = read.then((members) =>
            this.preparePage(environment, groupByTenant(members), (tenant, own) =>
              runOf(broadcastRunId(sendId, after, tenant), tenant, own),
            ),
          );
          // A failure is thrown where the page is awaited, or dropped with the prefetch.
          read.catch(() => undefined);
          runs.catch(() => undefined);
          next = { sendId, after, page: read, runs };
        }
        const completeSend = () =>
          handleCommand(
            this.store,
            stream,
            broadcastDecider,
            { type: 'CompleteSend', key, sendId, now: this.now().toISOString() },
            metadata,
          );
        // Tenants a sender that stopped before recording this page may have triggered runs in.
        const earlier = state.pageTenants;
        if (page.length === 0 && earlier.length === 0) {
          await completeSend();
          return;
        }
        // The page's tenants are recorded before any run of them is triggered (ADR 0232).
        if ([...byTenant.keys()].some((t) => !earlier.includes(t))) {
          const started = await handleCommand(
            this.store,
            stream,
            broadcastDecider,
            {
              type: 'StartPage',
              key,
              sendId,
              pageStart: state.cursor,
              tenants: [...byTenant.keys()],
              now: this.now().toISOString(),
            },
            metadata,
          );
          state = started.state;
          // Canceled (or continued by another sender) meanwhile: nothing of this page is triggered.
          if (state.status !== 'sending' || state.sendId !== sendId || (state.cursor ?? '') !== pageStart) break;
        }
        const trigger = (runId: string, tenant: string, members: BroadcastRecipientRef[]) =>
          this.trigger(environment, runOf(runId, tenant, members));
        // Each tenant's run of the page: the members it holds, just triggered or (a resumed page) before.
        const triggered = new Map<string, BroadcastRecipientRef[]>();
        let resumed = false;
        const ready = await prepared;
        for (const [tenant, members] of byTenant) {
          const run = runOf(broadcastRunId(sendId, pageStart, tenant), tenant, members);
          const before = await this.appendRun(run, ready.get(tenant)!);
          resumed ||= before !== undefined;
          triggered.set(tenant, before ?? members);
        }
        // A tenant of the page as first triggered that has no member in it now: its run went out all the same.
        for (const tenant of earlier) {
          if (byTenant.has(tenant)) continue;
          const before = await this.existingMembers(workflowRunStream(environment, broadcastRunId(sendId, pageStart, tenant)), tenant);
          if (!before) continue;
          resumed = true;
          triggered.set(tenant, before);
        }
        const everyone = [...triggered.values()].flat();
        if (page.length === 0 && everyone.length === 0) {
          // Its tenants were recorded, but no run of it was triggered and no member is left: done.
          await completeSend();
          return;
        }
        let last = page.length > 0 ? page[page.length - 1] : undefined;
        let recipients = page.length;
        if (resumed) {
          // Membership may have changed since the page was first triggered: the page runs to the
          // later end, and whoever is in it and in no run yet gets one of their own (ADR 0172).
          const end = await this.ports.lastOf(last ? [last, ...everyone] : everyone);
          const beyond = last ? await this.range(environment, content.target_audience_key, last, end) : [];
          const { extras, recipients: counted } = resumedPage([...page, ...beyond], triggered);
          for (const m of extras) await trigger(extraRunId(sendId, pageStart, m), m.tenant, [m]);
          last = end;
          recipients = counted;
        }
        if (!last) break; // unreachable: a page with no member and no run continued above
        const cursor = cursorOf(last);
        await this.afterTrigger?.({ key, cursor, recipients });
        const recorded = await handleCommand(
          this.store,
          stream,
          broadcastDecider,
          { type: 'RecordPage', key, sendId, cursor, recipients, now: this.now().toISOString() },
          metadata,
        );
        state = recorded.state;
        claim = await this.ports.renew(claim, this.now());
      }
    } finally {
      // Nothing of this send is read after it returns: a prefetch in flight settles first.
      await Promise.allSettled([current, next?.runs]);
      if (claim) await this.ports.release(claim);
    }
  }

  /** The sha of the content being sent, from the stream's BroadcastSendStarted. */
  private async sha(environment: string, key: string): Promise<string | undefined> {
    const history = await this.store.readStream(broadcastStream(environment, key));
    const started = [...history].reverse().find((e) => e.type === 'BroadcastSendStarted');
    return (started?.data as { sha?: string } | undefined)?.sha;
  }

  /** Members after `after` up to `end` (both as the read model orders them), every page of them. */
  private async range(
    environment: string,
    audienceKey: string | null,
    after: BroadcastRecipientRef,
    end: BroadcastRecipientRef,
  ): Promise<BroadcastRecipientRef[]> {
    const found: BroadcastRecipientRef[] = [];
    for (let from = after; ;) {
      const page = await this.ports.recipients(environment, audienceKey, from, this.options.pageSize, end);
      found.push(...page);
      if (page.length < this.options.pageSize) return found;
      from = page[page.length - 1];
    }
  }

  /** Each tenant's run of a page, prepared one after the other. */
  private async preparePage(
    environment: string,
    byTenant: ReadonlyMap<string, BroadcastRecipientRef[]>,
    runOf: (tenant: string, members: BroadcastRecipientRef[]) => RunToTrigger,
  ): Promise<PreparedPage> {
    const prepared: PreparedPage = new Map();
    for (const [tenant, members] of byTenant) prepared.set(tenant, await this.prepare(environment, runOf(tenant, members)));
    return prepared;
  }

  /** Prepares a run's trigger (`prepare`) and appends it (`appendRun`). */
  private async trigger(environment: string, run: RunToTrigger): Promise<BroadcastRecipientRef[] | undefined> {
    return this.appendRun(run, await this.prepare(environment, run));
  }

  /**
   * Everything a run's trigger needs before its append, read and decided without writing: the
   * members of the run already there (a sender that stopped before recording the page triggered
   * it), or the trigger with its runs and, where they can be (ADR 0262), their plans. A page's
   * runs are prepared while the page before it is appended and recorded.
   */
  private async prepare(environment: string, run: RunToTrigger): Promise<PreparedRun> {
    const { runId, key, sendId, tenant, members, workflow, content } = run;
    const stream = workflowRunStream(environment, runId);
    // Read first: an append of the same event again succeeds (appends are idempotent by event id).
    const existing = await this.existingMembers(stream, tenant);
    if (existing) return { existing };
    const triggered: WorkflowTriggeredData = {
      workflow_run_id: runId,
      workflow,
      actor: null,
      recipients: members.map((m) => ({ type: 'user' as const, id: m.userId })),
      tenant: tenant === '' ? null : tenant,
      data: {},
      cancellation_key: null,
      settings: { sandbox_mode: false, skip_delay: false },
      trigger_source: { type: 'broadcast', broadcast_key: key, broadcast_send_id: sendId, audience_key: content.target_audience_key },
      triggered_at: this.now().toISOString(),
    };
    const event = eventEnvelope('WorkflowTriggered', triggered, uuidv5(`triggered:${runId}`, NAMESPACE), {
      environment,
      actor: 'broadcast-sender',
    });
    // Its runs with it, in the same atomic append (ADR 0235); where appends are not atomic the
    // fan-out appends them, as a crash between the two must not leave a trigger without runs.
    if (!this.store.atomicMultiStreamAppend || !canEnqueueWithTrigger(triggered)) return { stream, event };
    const { trigger, runs } = withEnqueuedRuns(environment, event);
    const own: StreamAppend = { streamId: stream, expectedRevision: 'no_stream', events: [trigger] };
    // Where the runs need nothing asynchronous, their decisions go in the same append (ADR 0262).
    const executed = await this.ports.planRuns?.(environment, trigger.data as WorkflowTriggeredData, runs);
    return { stream, event, withRuns: { own, runs, executed } };
  }

  /**
   * Appends a prepared run's WorkflowTriggered with 'no_stream'. Undefined when it is new; the
   * members of the run already there when a sender that stopped before recording the page
   * triggered it.
   */
  private async appendRun(run: RunToTrigger, prepared: PreparedRun): Promise<BroadcastRecipientRef[] | undefined> {
    if (prepared.existing) return prepared.existing;
    const { stream, event, withRuns } = prepared;
    try {
      if (withRuns) {
        const { own, runs, executed } = withRuns;
        if (executed) {
          try {
            await this.store.appendMany([own, ...executed]);
            return undefined;
          } catch (error) {
            // A stream a run's plan creates exists after all: the runs go bare, for the worker to decide.
            if (!(error instanceof WrongExpectedRevisionError) || error.streamId === stream) throw error;
          }
        }
        await this.store.appendMany([own, ...runs]);
      } else await this.store.append(stream, [event], { expectedRevision: 'no_stream' });
      return undefined;
    } catch (error) {
      // Triggered meanwhile by a sender that took the row over: what it triggered stands.
      if (!lostRace(error)) throw error;
      return (await this.existingMembers(stream, run.tenant)) ?? run.members;
    }
  }

  /** The members of a run triggered already (by a sender that stopped before recording the page). */
  private async existingMembers(stream: string, tenant: string): Promise<BroadcastRecipientRef[] | undefined> {
    const [first] = await this.store.readStream(stream, { maxCount: 1 });
    if (!first) return undefined;
    const data = first.data as WorkflowTriggeredData;
    return data.recipients.flatMap((r) => (typeof r === 'object' && r.type === 'user' ? [{ userId: r.id, tenant }] : []));
  }
}
