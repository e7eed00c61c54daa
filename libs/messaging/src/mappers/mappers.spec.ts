import type { RecordedEvent } from '@notify/eventstore';
import { partEventId, workflowVersionId } from '@notify/contracts';
import { MessageEventEnvelopeV1 } from '../envelopes/message-event.v1';
import { WorkflowRunEventEnvelopeV1 } from '../envelopes/workflow-run-event.v1';
import { RelayMapperRegistry } from '../relay/relay-mapper';
import { kafkaTopics } from '../topics';
import { MessageEventMapper, queuedEventId } from './message-event.mapper';
import { StreamReader } from './stream-histories';
import { WorkflowRunEventMapper } from './workflow-run-event.mapper';

const topics = kafkaTopics('t.');
const ENV = 'dev';
const MESSAGE_ID = '11111111-1111-4111-8111-111111111111';
const RUN_ID = '22222222-2222-4222-8222-222222222222';
const WORKFLOW_RUN_ID = '33333333-3333-4333-8333-333333333333';
const MESSAGE_STREAM = `message-${ENV}-${MESSAGE_ID}`;
const RUN_STREAM = `run-${ENV}-${RUN_ID}`;

/** A log held in memory that counts its reads. */
class MemoryLog implements StreamReader {
  readonly streams = new Map<string, RecordedEvent[]>();
  reads = 0;
  private position = 0;

  append(streamId: string, type: string, data: Record<string, unknown>): RecordedEvent {
    const events = this.streams.get(streamId) ?? [];
    this.position++;
    const event: RecordedEvent = {
      id: `00000000-0000-4000-8000-${String(this.position).padStart(12, '0')}`,
      type,
      streamId,
      revision: events.length,
      globalPosition: BigInt(this.position),
      position: String(this.position).padStart(32, '0'),
      data,
      metadata: { environment: ENV, schema_version: 1 },
      createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, this.position)),
    };
    events.push(event);
    this.streams.set(streamId, events);
    return event;
  }

  async readStreams(ids: readonly string[]): Promise<Map<string, RecordedEvent[]>> {
    this.reads++;
    return new Map(ids.map((id) => [id, [...(this.streams.get(id) ?? [])]]));
  }
}

function created(log: MemoryLog, channelType = 'email'): RecordedEvent {
  return log.append(MESSAGE_STREAM, 'MessageCreated', {
    message_id: MESSAGE_ID,
    channel: { id: '44444444-4444-4444-8444-444444444444', key: 'postmark', type: channelType, provider: 'postmark' },
    recipient: { type: 'user', id: 'dr_grant' },
    recipient_snapshot: { email: 'grant@example.com' },
    workflow: { key: 'welcome', categories: ['onboarding'], version: null },
    workflow_run_id: WORKFLOW_RUN_ID,
    workflow_recipient_run_id: RUN_ID,
    step_ref: 'email_1',
    tenant: 'ingen',
    actors: [{ type: 'object', collection: 'teams', id: 'paleo' }],
    activities: [],
    total_activities: 1,
    total_actors: 1,
    data: { dig: 'montana' },
    content: { channel_type: 'sms', to: '+1', body: 'hi' },
    metadata: null,
    sandbox: false,
    created_at: '2026-01-01T00:00:01.000Z',
  });
}

const at = (n: number) => ({ message_id: MESSAGE_ID, at: `2026-01-01T00:01:0${n}.000Z` });

describe('MessageEventMapper', () => {
  it('publishes each public message event with the message folded up to that event, keyed by recipient', async () => {
    const log = new MemoryLog();
    const events = [
      created(log),
      log.append(MESSAGE_STREAM, 'MessageDeliveryAttemptStarted', { message_id: MESSAGE_ID, attempt: 1, started_at: 'x' }),
      log.append(MESSAGE_STREAM, 'MessageSent', { ...at(1), attempt: 1, provider_message_id: 'pm-1' }),
      log.append(MESSAGE_STREAM, 'MessageRead', at(2)),
      log.append(MESSAGE_STREAM, 'MessageSeen', at(2)),
      log.append(MESSAGE_STREAM, 'MessageLinkClicked', { ...at(3), url: 'https://example.com/dig' }),
      log.append(MESSAGE_STREAM, 'MessageArchived', at(4)),
    ];
    const registry = new RelayMapperRegistry([new MessageEventMapper(log)]);
    const records = await registry.map(events, topics);

    expect(records.map((r) => r.headers['event-type'])).toEqual([
      'message.created',
      'message.queued',
      'message.sent',
      'message.read',
      'message.seen',
      'message.link_clicked',
      'message.archived',
    ]);
    expect(new Set(records.map((r) => r.topic))).toEqual(new Set(['t.message-events.v1']));
    expect(new Set(records.map((r) => r.key))).toEqual(new Set(['dev:user:dr_grant']));
    // One read for the whole batch.
    expect(log.reads).toBe(1);

    const values = records.map((r) => MessageEventEnvelopeV1.parse(JSON.parse(JSON.stringify(r.value))));
    const [create, queued, sent, read, seen, clicked, archived] = values;
    expect(create).toMatchObject({ __typename: 'Event', environment: 'dev', created_at: '2026-01-01T00:00:01.000Z', event_data: null });
    expect(create.data).toMatchObject({
      __typename: 'Message',
      id: MESSAGE_ID,
      channel_id: '44444444-4444-4444-8444-444444444444',
      recipient: 'dr_grant',
      actors: [{ collection: 'teams', id: 'paleo' }],
      workflow: 'welcome',
      tenant: 'ingen',
      status: 'queued',
      engagement_statuses: [],
      source: { key: 'welcome', version_id: workflowVersionId('dev', 'welcome', null), categories: ['onboarding'], step_ref: 'email_1' },
      data: { dig: 'montana' },
      inserted_at: '2026-01-01T00:00:01.000Z',
      updated_at: '2026-01-01T00:00:01.000Z',
    });
    // The recipient snapshot (addresses, tokens) is not published.
    expect(create.data).not.toHaveProperty('recipient_snapshot');
    expect(queued.data).toEqual(create.data);
    expect(records[1].headers['event-id']).toBe(queuedEventId(events[0].id));
    expect(records[1].headers['event-id']).not.toBe(records[0].headers['event-id']);
    expect(sent.data.status).toBe('sent');
    expect(sent.event_data).toEqual({ attempt: 1, provider_message_id: 'pm-1' });
    expect(records[2].headers['event-id']).toBe(events[2].id);
    expect(read.data).toMatchObject({ status: 'sent', read_at: '2026-01-01T00:01:02.000Z', seen_at: null, engagement_statuses: ['read'] });
    expect(seen.data.engagement_statuses).toEqual(['seen', 'read']);
    expect(clicked).toMatchObject({ event_data: { url: 'https://example.com/dig' } });
    expect(clicked.data).toMatchObject({
      link_clicked_at: '2026-01-01T00:01:03.000Z',
      clicked_at: '2026-01-01T00:01:03.000Z',
      archived_at: null,
    });
    expect(archived.data).toMatchObject({
      archived_at: '2026-01-01T00:01:04.000Z',
      engagement_statuses: ['seen', 'read', 'link_clicked', 'archived'],
      updated_at: events[6].createdAt.toISOString(),
    });
  });

  it('publishes a message created delivered (one entry, ADR 0233) as created, queued and delivered, as the two entries older code wrote', async () => {
    const withoutTimes = (v: unknown) => {
      const { created_at: _c, data, ...rest } = v as { created_at: string; data: Record<string, unknown> };
      const { updated_at: _u, ...message } = data;
      return { ...rest, data: message };
    };
    const old = new MemoryLog();
    const oldEvents = [created(old, 'in_app_feed'), old.append(MESSAGE_STREAM, 'MessageDelivered', at(1))];
    const before = await new RelayMapperRegistry([new MessageEventMapper(old)]).map(oldEvents, topics);
    const log = new MemoryLog();
    const entry = created(log, 'in_app_feed');
    (entry.data as Record<string, unknown>).delivered_at = at(1).at;
    const after = await new RelayMapperRegistry([new MessageEventMapper(log)]).map([entry], topics);
    expect(after.map((r) => r.headers['event-type'])).toEqual(['message.created', 'message.queued', 'message.delivered']);
    expect(after.map((r) => (r.value as MessageEventEnvelopeV1).data.status)).toEqual(['queued', 'queued', 'delivered']);
    expect(after.map((r) => r.headers['event-id'])).toEqual([entry.id, queuedEventId(entry.id), partEventId(entry.id, 1)]);
    expect(after.map((r) => withoutTimes(r.value))).toEqual(before.map((r) => withoutTimes(r.value)));
    expect(after.map((r) => [r.topic, r.key])).toEqual(before.map((r) => [r.topic, r.key]));
  });

  it('maps the same event to the same records whatever was appended to the stream since (pure in the log)', async () => {
    const log = new MemoryLog();
    const first = created(log);
    const sent = log.append(MESSAGE_STREAM, 'MessageSent', { ...at(1), attempt: 1, provider_message_id: null });
    const before = await new RelayMapperRegistry([new MessageEventMapper(log)]).map([first, sent], topics);
    log.append(MESSAGE_STREAM, 'MessageDelivered', at(2));
    log.append(MESSAGE_STREAM, 'MessageSeen', at(3));
    const after = await new RelayMapperRegistry([new MessageEventMapper(log)]).map([first, sent], topics);
    expect(after).toEqual(before);
    expect((after[2].value as MessageEventEnvelopeV1).data.status).toBe('sent');
  });

  it('reports failures and their reasons, and keys objects by collection', async () => {
    const log = new MemoryLog();
    const c = created(log);
    (c.data as { recipient: unknown }).recipient = { type: 'object', collection: 'sites', id: 'nublar' };
    const attempted = log.append(MESSAGE_STREAM, 'MessageDeliveryAttempted', {
      ...at(1),
      attempt: 1,
      reason: 'timeout',
      retry_at: '2026-01-01T00:05:00.000Z',
    });
    const undelivered = log.append(MESSAGE_STREAM, 'MessageUndelivered', { ...at(2), attempts: 3, reason: 'timeout' });
    const records = await new RelayMapperRegistry([new MessageEventMapper(log)]).map([attempted, undelivered], topics);
    expect(records.map((r) => r.key)).toEqual(['dev:object:sites:nublar', 'dev:object:sites:nublar']);
    expect(records.map((r) => (r.value as MessageEventEnvelopeV1).data.status)).toEqual(['delivery_attempted', 'undelivered']);
    expect(records.map((r) => (r.value as MessageEventEnvelopeV1).event_data)).toEqual([
      { attempt: 1, reason: 'timeout', retry_at: '2026-01-01T00:05:00.000Z' },
      { attempts: 3, reason: 'timeout' },
    ]);
  });

  it('publishes what a delivery receipt caused (delivered, then a bounce), not the receipt itself', async () => {
    const log = new MemoryLog();
    created(log);
    const receipt = (kind: string) =>
      log.append(MESSAGE_STREAM, 'MessageReceiptRecorded', {
        ...at(1),
        receipt_id: `r-${kind}`,
        source: 'postmark',
        kind,
        bounce_type: kind === 'bounced' ? 'hard' : null,
        reason: null,
        url: null,
        recipient: 'grant@example.com',
        payload: {},
        occurred_at: 'x',
      });
    const events = [
      receipt('delivered'),
      log.append(MESSAGE_STREAM, 'MessageDelivered', at(2)),
      receipt('bounced'),
      log.append(MESSAGE_STREAM, 'MessageBounced', { ...at(3), reason: 'hard_bounce: bounced' }),
    ];
    const records = await new RelayMapperRegistry([new MessageEventMapper(log)]).map(events, topics);
    expect(records.map((r) => [(r.value as MessageEventEnvelopeV1).type, (r.value as MessageEventEnvelopeV1).data.status])).toEqual([
      ['message.delivered', 'delivered'],
      ['message.bounced', 'bounced'],
    ]);
    expect((records[1].value as MessageEventEnvelopeV1).event_data).toEqual({ reason: 'hard_bounce: bounced' });
  });

  it('publishes nothing for attempt bookkeeping and timers', async () => {
    const log = new MemoryLog();
    created(log);
    const started = log.append(MESSAGE_STREAM, 'MessageDeliveryAttemptStarted', { message_id: MESSAGE_ID, attempt: 1, started_at: 'x' });
    const timer = log.append(MESSAGE_STREAM, 'TimerScheduled', { timer_id: 't', fire_at: 'x', purpose: 'delivery_check' });
    expect(await new RelayMapperRegistry([new MessageEventMapper(log)]).map([started, timer], topics)).toEqual([]);
  });
});

function enqueued(log: MemoryLog): RecordedEvent {
  return log.append(RUN_STREAM, 'RunEnqueued', {
    run_id: RUN_ID,
    workflow_run_id: WORKFLOW_RUN_ID,
    workflow_key: 'welcome',
    recipient: { type: 'user', id: 'dr_grant' },
    actor: { type: 'user', id: 'hammond' },
    tenant: null,
    data: {},
    cancellation_key: null,
    trigger_source: { type: 'api' },
    trigger_position: '0',
    subscribed_to: null,
    enqueued_at: '2026-01-01T00:00:00.000Z',
  });
}

describe('WorkflowRunEventMapper', () => {
  it('publishes started, error and completed with the run folded up to each, keyed by recipient', async () => {
    const log = new MemoryLog();
    const events = [
      enqueued(log),
      log.append(RUN_STREAM, 'StepStarted', { run_id: RUN_ID, step_ref: 'fetch_1', step_type: 'http_fetch', at: 'x' }),
      log.append(RUN_STREAM, 'StepCompleted', {
        run_id: RUN_ID,
        step_ref: 'fetch_1',
        step_type: 'http_fetch',
        status: 'error',
        reason: 'http_500',
        output: null,
        attempt: 3,
        next_path: [1],
        at: 'x',
      }),
      log.append(RUN_STREAM, 'StepCompleted', {
        run_id: RUN_ID,
        step_ref: 'email_1',
        step_type: 'channel',
        status: 'ok',
        reason: null,
        output: null,
        attempt: null,
        next_path: null,
        at: 'x',
      }),
      log.append(RUN_STREAM, 'RunCompleted', { run_id: RUN_ID, outcome: 'ended', reason: null, at: 'x' }),
    ];
    const records = await new RelayMapperRegistry([new WorkflowRunEventMapper(log)]).map(events, topics);
    expect(records.map((r) => r.headers['event-type'])).toEqual([
      'workflow_recipient_run.started',
      'workflow_recipient_run.error',
      'workflow_recipient_run.completed',
    ]);
    expect(records.map((r) => r.headers['event-id'])).toEqual([events[0].id, events[2].id, events[4].id]);
    expect(new Set(records.map((r) => `${r.topic} ${r.key}`))).toEqual(new Set(['t.workflow-run-events.v1 dev:user:dr_grant']));
    const [started, error, completed] = records.map((r) => WorkflowRunEventEnvelopeV1.parse(JSON.parse(JSON.stringify(r.value))));
    expect(started.data).toMatchObject({
      __typename: 'WorkflowRecipientRun',
      id: RUN_ID,
      workflow_run_id: WORKFLOW_RUN_ID,
      workflow: 'welcome',
      status: 'queued',
      recipient: 'dr_grant',
      actor: 'hammond',
      error_count: 0,
      trigger_source: { type: 'api' },
    });
    expect(error).toMatchObject({
      event_data: { step_ref: 'fetch_1', step_type: 'http_fetch', error: 'http_500' },
      data: { status: 'processing', error_count: 1 },
    });
    expect(completed).toMatchObject({
      event_data: { outcome: 'ended', reason: null },
      data: { status: 'completed', error_count: 1, updated_at: events[4].createdAt.toISOString() },
    });
  });

  it('publishes a RunCompleted carrying its failed last step (ADR 0233) as error then completed, as the two entries older code wrote', async () => {
    const step = {
      step_ref: 'fetch_1',
      step_type: 'http_fetch',
      status: 'error',
      reason: 'http_500',
      output: null,
      attempt: 3,
      next_path: null,
      at: 'x',
    };
    const withoutTimes = (v: unknown) => {
      const { created_at: _c, data, ...rest } = v as { created_at: string; data: Record<string, unknown> };
      const { updated_at: _u, ...run } = data;
      return { ...rest, data: run };
    };
    const old = new MemoryLog();
    const oldEvents = [
      enqueued(old),
      old.append(RUN_STREAM, 'StepCompleted', { run_id: RUN_ID, ...step }),
      old.append(RUN_STREAM, 'RunCompleted', { run_id: RUN_ID, outcome: 'ended', reason: null, at: 'x' }),
    ];
    const before = await new RelayMapperRegistry([new WorkflowRunEventMapper(old)]).map(oldEvents, topics);
    const log = new MemoryLog();
    const events = [
      enqueued(log),
      log.append(RUN_STREAM, 'RunCompleted', { run_id: RUN_ID, outcome: 'ended', reason: null, at: 'x', step }),
    ];
    const after = await new RelayMapperRegistry([new WorkflowRunEventMapper(log)]).map(events, topics);
    expect(after.map((r) => r.headers['event-type'])).toEqual([
      'workflow_recipient_run.started',
      'workflow_recipient_run.error',
      'workflow_recipient_run.completed',
    ]);
    expect(after.map((r) => r.headers['event-id'])).toEqual([events[0].id, partEventId(events[1].id, 0), events[1].id]);
    expect(after.map((r) => withoutTimes(r.value))).toEqual(before.map((r) => withoutTimes(r.value)));
    expect(after.map((r) => (r.value as WorkflowRunEventEnvelopeV1).data.status)).toEqual(['queued', 'processing', 'completed']);
  });

  it('leaves out successful steps and runs that do not start with RunEnqueued', async () => {
    const log = new MemoryLog();
    const orphan = log.append(RUN_STREAM, 'RunCompleted', { run_id: RUN_ID, outcome: 'ended', reason: null, at: 'x' });
    expect(await new RelayMapperRegistry([new WorkflowRunEventMapper(log)]).map([orphan], topics)).toEqual([]);
  });
});
