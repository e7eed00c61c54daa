import type { RecordedEvent } from '@notify/eventstore';
import { DomainEventEnvelopeV1 } from '../envelopes/domain-event.v1';
import { MessageEventEnvelopeV1 } from '../envelopes/message-event.v1';
import { kafkaTopics } from '../topics';
import { DomainEventMapper, domainEventRecord } from './domain-event.mapper';
import { chunkBySize, RecordPublisher } from './kafka-publisher';
import { KafkaRelay, kafkaRelayName } from './kafka-relay';
import { messageEventRecord, workflowRunEventRecord } from './knock-event.records';
import { OutboundRecord } from './outbound-record';
import { RelayMapper, RelayMapperRegistry } from './relay-mapper';

const topics = kafkaTopics('t.');

function event(n: number, overrides: Partial<RecordedEvent> = {}): RecordedEvent {
  return {
    id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    type: 'UserIdentified',
    streamId: `user-dev-u${n % 2}`,
    revision: n,
    globalPosition: 9_007_199_254_740_993n + BigInt(n),
    position: String(n).padStart(32, '0'),
    data: { user_id: `u${n % 2}`, properties: {}, identified_at: '2026-01-01T00:00:00.000Z' },
    metadata: { environment: 'dev', schema_version: 1, correlation_id: 'c-1', actor: 'key-1' },
    createdAt: new Date('2026-01-01T00:00:00.000Z'),
    ...overrides,
  };
}

class Recording implements RecordPublisher {
  batches: OutboundRecord[][] = [];
  failWith?: Error;
  async publish(records: readonly OutboundRecord[]) {
    if (this.failWith) throw this.failWith;
    this.batches.push([...records]);
  }
  async close() {}
}

describe('domain event records', () => {
  it('carry the event as the log holds it, keyed by stream id, with routing headers', () => {
    const record = domainEventRecord(event(3), topics.events);
    expect(record.topic).toBe('t.events.v1');
    expect(record.key).toBe('user-dev-u1');
    expect(record.headers).toEqual({
      'event-id': event(3).id,
      'event-type': 'UserIdentified',
      'schema-version': '1',
      environment: 'dev',
      envelope: 'notify.domain-event.v1',
      'content-type': 'application/json',
    });
    const value = DomainEventEnvelopeV1.parse(JSON.parse(JSON.stringify(record.value)));
    expect(value).toMatchObject({
      id: event(3).id,
      stream_id: 'user-dev-u1',
      revision: 3,
      global_position: '9007199254740996',
      schema_version: 1,
      environment: 'dev',
      created_at: '2026-01-01T00:00:00.000Z',
    });
    expect(value.metadata).toMatchObject({ correlation_id: 'c-1', actor: 'key-1' });
  });

  it('leave out the environment header for account-level events', () => {
    const record = domainEventRecord(event(1, { metadata: { environment: null, schema_version: 2 } }), topics.events);
    expect(record.headers).not.toHaveProperty('environment');
    expect(record.headers['schema-version']).toBe('2');
    expect((record.value as DomainEventEnvelopeV1).environment).toBeNull();
  });
});

describe('RelayMapperRegistry', () => {
  const tagging = (name: string, eventTypes: readonly string[] | '*'): RelayMapper => ({
    name,
    eventTypes,
    map: async (e) => [{ topic: name, key: e.id, value: e.type, headers: {} }],
  });

  it('maps a batch in log order, each event through its mappers in registration order', async () => {
    const registry = new RelayMapperRegistry([tagging('all', '*'), tagging('users', ['UserIdentified']), tagging('none', ['Other'])]);
    const records = await registry.map([event(1), event(2, { type: 'UserDeleted' })], topics);
    expect(records.map((r) => `${r.topic}:${r.value}`)).toEqual(['all:UserIdentified', 'users:UserIdentified', 'all:UserDeleted']);
  });

  it('refuses two mappers with one name', () => {
    expect(() => new RelayMapperRegistry([tagging('x', '*'), tagging('x', ['A'])])).toThrow('registered twice');
  });
});

describe('KafkaRelay', () => {
  it('hands every record of a batch to the publisher in one call', async () => {
    const publisher = new Recording();
    const relay = new KafkaRelay(publisher, new RelayMapperRegistry([new DomainEventMapper()]), topics);
    await relay.handle([event(0), event(1), event(2)]);
    expect(publisher.batches).toHaveLength(1);
    expect(publisher.batches[0].map((r) => r.headers['event-id'])).toEqual([event(0).id, event(1).id, event(2).id]);
    expect(relay.name).toBe(kafkaRelayName(topics));
    expect(relay.name).not.toBe(kafkaRelayName(kafkaTopics('other.')));
  });

  it('fails the batch when the broker does not acknowledge, so the runtime keeps the checkpoint', async () => {
    const publisher = new Recording();
    publisher.failWith = new Error('broker down');
    const relay = new KafkaRelay(publisher, new RelayMapperRegistry([new DomainEventMapper()]), topics);
    await expect(relay.handle([event(0)])).rejects.toThrow('broker down');
  });

  it('is disabled when asked, so the runtime never runs it', () => {
    expect(new KafkaRelay(new Recording(), new RelayMapperRegistry([]), topics, { enabled: false }).enabled).toBe(false);
    expect(new KafkaRelay(new Recording(), new RelayMapperRegistry([]), topics).enabled).toBe(true);
  });
});

describe('chunkBySize', () => {
  it('splits in order without exceeding the limit, a single oversize item alone', () => {
    const items = [40, 40, 30, 100, 10].map((bytes, i) => ({ bytes, i }));
    expect(chunkBySize(items, 80).map((c) => c.map((x) => x.i))).toEqual([[0, 1], [2], [3], [4]]);
  });
});

describe('MessageEvent and workflow run records (for the engine mappers)', () => {
  const message = {
    __typename: 'Message' as const,
    id: 'msg_1',
    channel_id: '7f1d3a2e-0000-4000-8000-000000000001',
    recipient: 'u1',
    status: 'sent' as const,
    engagement_statuses: [],
    source: { key: 'welcome', version_id: 'v1', categories: [] },
    inserted_at: '2026-01-01T00:00:00Z',
    updated_at: '2026-01-01T00:00:01Z',
  };

  it('key by recipient and carry the source event id', () => {
    const envelope: MessageEventEnvelopeV1 = {
      __typename: 'Event',
      type: 'message.sent',
      created_at: '2026-01-01T00:00:01Z',
      environment: 'dev',
      data: message,
      event_data: null,
    };
    const record = messageEventRecord(event(5), topics.messageEvents, envelope);
    expect(record).toMatchObject({ topic: 't.message-events.v1', key: 'dev:user:u1' });
    expect(record.headers).toMatchObject({
      'event-id': event(5).id,
      'event-type': 'message.sent',
      'schema-version': '1',
      environment: 'dev',
      envelope: 'notify.message-event.v1',
    });
    const run = workflowRunEventRecord(event(6), topics.workflowRunEvents, {
      __typename: 'Event',
      type: 'workflow_recipient_run.completed',
      created_at: '2026-01-01T00:00:02Z',
      environment: 'dev',
      data: {
        __typename: 'WorkflowRecipientRun',
        id: 'r1',
        workflow_run_id: 'wr1',
        workflow: 'welcome',
        status: 'completed',
        recipient: { collection: 'projects', id: 'p1' },
        inserted_at: '2026-01-01T00:00:00Z',
        updated_at: '2026-01-01T00:00:02Z',
      },
      event_data: null,
    });
    expect(run.key).toBe('dev:object:projects:p1');
  });

  it('refuse an envelope the published schema does not allow', () => {
    const bad = {
      __typename: 'Event',
      type: 'message.teleported',
      created_at: 'yesterday',
      environment: 'dev',
      data: message,
      event_data: null,
    } as unknown as MessageEventEnvelopeV1;
    expect(() => messageEventRecord(event(5), topics.messageEvents, bad)).toThrow();
  });
});
