import { BroadcastContentT } from '@notify/contracts';
import {
  BroadcastEvent,
  broadcastDecider,
  BroadcastState,
  broadcastStream,
  fold,
  WorkflowTriggeredData,
  workflowRunStream,
} from '@notify/domain';
import { DuplicateEventIdError, EventStore, WrongExpectedRevisionError } from '@notify/eventstore';
import { v5 as uuidv5 } from 'uuid';
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
  recipients(
    environment: string,
    audienceKey: string | null,
    after: BroadcastRecipientRef | null,
    limit: number,
  ): Promise<BroadcastRecipientRef[]>;
  claim(now: Date, limit: number): Promise<BroadcastClaim[]>;
  renew(claim: BroadcastClaim, now: Date): Promise<BroadcastClaim | undefined>;
  release(claim: BroadcastClaim): Promise<void>;
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

const cursorOf = (r: BroadcastRecipientRef) => JSON.stringify([r.userId, r.tenant]);
const parseCursor = (cursor: string | null): BroadcastRecipientRef | null => {
  if (!cursor) return null;
  const [userId, tenant] = JSON.parse(cursor) as [string, string];
  return { userId, tenant };
};
const lostRace = (error: unknown) => error instanceof WrongExpectedRevisionError || error instanceof DuplicateEventIdError;

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
 * (send, page start, tenant) and appended with 'no_stream': a page triggered again by a sender
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
        const page = await this.ports.recipients(
          environment,
          content.target_audience_key,
          parseCursor(state.cursor),
          this.options.pageSize,
        );
        if (page.length === 0) {
          await handleCommand(
            this.store,
            stream,
            broadcastDecider,
            { type: 'CompleteSend', key, sendId, now: this.now().toISOString() },
            metadata,
          );
          return;
        }
        const pageStart = state.cursor ?? '';
        const byTenant = new Map<string, BroadcastRecipientRef[]>();
        for (const r of page) byTenant.set(r.tenant, [...(byTenant.get(r.tenant) ?? []), r]);
        const workflow = broadcastSnapshot(key, (await this.sha(environment, key)) ?? sendId, content);
        for (const [tenant, members] of byTenant)
          await this.trigger(environment, key, sendId, pageStart, tenant, members, workflow, content);
        const cursor = cursorOf(page[page.length - 1]);
        await this.afterTrigger?.({ key, cursor, recipients: page.length });
        const recorded = await handleCommand(
          this.store,
          stream,
          broadcastDecider,
          { type: 'RecordPage', key, sendId, cursor, recipients: page.length, now: this.now().toISOString() },
          metadata,
        );
        state = recorded.state;
        claim = await this.ports.renew(claim, this.now());
      }
    } finally {
      if (claim) await this.ports.release(claim);
    }
  }

  /** The sha of the content being sent, from the stream's BroadcastSendStarted. */
  private async sha(environment: string, key: string): Promise<string | undefined> {
    const history = await this.store.readStream(broadcastStream(environment, key));
    const started = [...history].reverse().find((e) => e.type === 'BroadcastSendStarted');
    return (started?.data as { sha?: string } | undefined)?.sha;
  }

  private async trigger(
    environment: string,
    key: string,
    sendId: string,
    pageStart: string,
    tenant: string,
    members: BroadcastRecipientRef[],
    workflow: WorkflowTriggeredData['workflow'],
    content: BroadcastContentT,
  ): Promise<void> {
    const runId = broadcastRunId(sendId, pageStart, tenant);
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
    try {
      await this.store.append(
        workflowRunStream(environment, runId),
        [
          eventEnvelope('WorkflowTriggered', triggered, uuidv5(`triggered:${runId}`, NAMESPACE), {
            environment,
            actor: 'broadcast-sender',
          }),
        ],
        { expectedRevision: 'no_stream' },
      );
    } catch (error) {
      // Triggered already by a sender that stopped before recording the page: nothing to do.
      if (!lostRace(error)) throw error;
    }
  }
}
