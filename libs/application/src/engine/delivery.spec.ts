import { DeliveryProvider, DeliveryRequest, DeliveryResult, ProviderConfig, ProviderRegistry } from '@notify/delivery';
import { MessageCreatedData, messageStream } from '@notify/domain';
import { EventStore, EventToAppend, RecordedEvent, WrongExpectedRevisionError } from '@notify/eventstore';
import { DeliveryExecutor, DeliveryStoppedError, inFlightBoundMs, receiptsUrlOf, resolveVariableReferences } from './delivery';
import type { ChannelView, EngineLookups } from './lookups';

/** Just enough of an event store for one message stream: revisions checked, event ids idempotent. */
class MemoryStore {
  readonly streams = new Map<string, RecordedEvent[]>();
  private position = 0n;

  async readStream(streamId: string, options: { maxCount?: number } = {}): Promise<RecordedEvent[]> {
    const events = this.streams.get(streamId) ?? [];
    return options.maxCount ? events.slice(0, options.maxCount) : [...events];
  }

  async append(streamId: string, events: readonly EventToAppend[], options: { expectedRevision?: number | 'no_stream' } = {}) {
    const stream = this.streams.get(streamId) ?? [];
    const actual = stream.length ? stream.length - 1 : 'no_stream';
    if (options.expectedRevision !== undefined && options.expectedRevision !== actual) {
      // As the real stores do: ids already appended are a replay of that append, answered as it was.
      if (events.every((e) => stream.some((s) => s.id === e.id)))
        return { streamId, nextExpectedRevision: stream.length - 1, position: String(this.position), globalPosition: this.position };
      throw new WrongExpectedRevisionError(streamId, options.expectedRevision, actual);
    }
    for (const e of events) {
      if (stream.some((s) => s.id === e.id)) continue;
      this.position++;
      stream.push({
        ...e,
        streamId,
        revision: stream.length,
        globalPosition: this.position,
        position: String(this.position),
        createdAt: new Date(),
      });
    }
    this.streams.set(streamId, stream);
    return { streamId, nextExpectedRevision: stream.length - 1, position: String(this.position), globalPosition: this.position };
  }

  types(streamId: string): string[] {
    return (this.streams.get(streamId) ?? []).map((e) => e.type);
  }
}

const env = 'development';
const meta = { environment: env, schema_version: 1 };
const messageId = '11111111-1111-4111-8111-111111111111';
const stream = messageStream(env, messageId);

function created(provider: string): MessageCreatedData {
  return {
    message_id: messageId,
    channel: { id: '22222222-2222-4222-8222-222222222222', key: 'ch', type: provider === 'resend' ? 'email' : 'sms', provider },
    recipient: { type: 'user', id: 'ada' },
    recipient_snapshot: provider === 'resend' ? { email: 'ada@example.org' } : { phone_number: '+15550001' },
    workflow: { key: 'w', categories: [], version: null },
    workflow_run_id: '33333333-3333-4333-8333-333333333333',
    workflow_recipient_run_id: '44444444-4444-4444-8444-444444444444',
    step_ref: 's',
    tenant: null,
    actors: [],
    activities: [],
    total_activities: 1,
    total_actors: 0,
    data: {},
    content:
      provider === 'resend'
        ? { channel_type: 'email', from: 'a@b.c', to: 'ada@example.org', subject: 's', html_body: 'h', text_body: 't' }
        : { channel_type: 'sms', to: '+15550001', body: 'hi' },
    metadata: null,
    sandbox: false,
    created_at: new Date().toISOString(),
  };
}

/** A provider whose answer the test controls; `hold` keeps the call open until aborted. */
function fakeProvider(id: string, channelType: 'sms' | 'email') {
  const calls: DeliveryRequest[] = [];
  const configs: ProviderConfig[] = [];
  const provider: DeliveryProvider & { calls: DeliveryRequest[]; configs: ProviderConfig[]; answer: () => DeliveryResult | 'hold' } = {
    id,
    channelType,
    calls,
    configs,
    answer: () => ({ outcome: 'sent', providerMessageId: 'p-1', logs: [] }),
    send(request, config, signal) {
      calls.push(request);
      configs.push(config);
      const answer = provider.answer();
      if (answer !== 'hold') return Promise.resolve(answer);
      return new Promise((resolve) =>
        signal?.addEventListener('abort', () =>
          resolve({ outcome: 'failed', retryable: true, code: 'aborted', reason: 'aborted', logs: [] }),
        ),
      );
    },
  };
  return provider;
}

function setup(providerId: 'twilio' | 'resend', settings: Record<string, unknown> = {}, publicUrl?: string) {
  const store = new MemoryStore();
  const provider = fakeProvider(providerId, providerId === 'resend' ? 'email' : 'sms');
  const channel: ChannelView = {
    id: '22222222-2222-4222-8222-222222222222',
    key: 'ch',
    type: provider.channelType,
    provider: providerId,
    settings: { channel_settings: {}, provider_settings: { timeout_ms: 1000, ...settings }, is_sandbox: false },
  };
  const lookups = {
    channelByKey: async () => channel,
    recipient: async () => ({ ref: { type: 'user', id: 'ada' }, properties: { id: 'ada', name: 'Ada' } }),
    channelData: async () => undefined,
    vars: async () => ({ key: 'k-123' }),
  } as unknown as EngineLookups;
  let now = Date.parse('2026-01-01T00:00:00.000Z');
  const executor = new DeliveryExecutor(
    store as unknown as EventStore,
    lookups,
    new ProviderRegistry([provider]),
    { maxAttempts: 3, baseDelayMs: 1000, maxDelayMs: 10_000, jitter: 0 },
    { clock: () => new Date(now), publicUrl },
  );
  const create = () => store.append(stream, [{ id: 'e0', type: 'MessageCreated', data: created(providerId), metadata: meta }]);
  const fire = (timerId: string) =>
    store.append(stream, [
      { id: `fired-${timerId}`, type: 'TimerFired', data: { timer_id: timerId, fired_at: new Date(now).toISOString() }, metadata: meta },
    ]);
  return { store, provider, executor, lookups, create, fire, advance: (ms: number) => (now += ms) };
}

const settle = () => new Promise((r) => setTimeout(r, 10));

describe('DeliveryExecutor', () => {
  it('records the attempt and its check timer before the call, and the outcome after', async () => {
    const { store, provider, executor, create } = setup('twilio');
    await create();
    await executor.handle(env, messageId, { type: 'MessageCreated' });
    await settle();
    expect(provider.calls).toHaveLength(1);
    expect(store.types(stream)).toEqual([
      'MessageCreated',
      'MessageDeliveryAttemptStarted',
      'TimerScheduled',
      'MessageDeliveryAttemptCompleted',
      'MessageSent',
    ]);
    const check = (await store.readStream(stream))[2].data as { timer_id: string; fire_at: string; purpose: string };
    // 2 x timeout_ms + 2 s after the start.
    expect(check).toEqual({ timer_id: `${messageId}:check:1`, fire_at: '2026-01-01T00:00:04.000Z', purpose: 'delivery_check' });

    // The same event again, and the check timer after completion: nothing more.
    await executor.handle(env, messageId, { type: 'MessageCreated' });
    await executor.handle(env, messageId, { type: 'TimerFired', timerId: check.timer_id });
    await settle();
    expect(provider.calls).toHaveLength(1);
    expect(store.types(stream)).toHaveLength(5);
  });

  it('calls the provider once when two workers handle the same MessageCreated at the same time', async () => {
    const { store, provider, executor, lookups, create } = setup('twilio');
    // The other worker is another process: its own store client over the same log (within one
    // process, commands on a stream are queued and never race; see handleCommand).
    const otherProcessStore = Object.create(store) as EventStore;
    const other = new DeliveryExecutor(otherProcessStore, lookups, new ProviderRegistry([provider]), {
      maxAttempts: 3,
      baseDelayMs: 1000,
      maxDelayMs: 10_000,
      jitter: 0,
    });
    await create();
    // Both decide on the same revision before either appends (the race of two workers).
    const append = store.append.bind(store);
    let arrived = 0;
    let release!: () => void;
    const bothDecided = new Promise<void>((r) => (release = r));
    store.append = async (...args: Parameters<typeof append>) => {
      if (args[1][0]?.type === 'MessageDeliveryAttemptStarted') {
        if (++arrived === 2) release();
        await bothDecided;
      }
      return append(...args);
    };
    await Promise.all([
      executor.handle(env, messageId, { type: 'MessageCreated' }),
      other.handle(env, messageId, { type: 'MessageCreated' }),
    ]);
    expect(arrived).toBe(2);
    await settle();
    expect(provider.calls).toHaveLength(1);
    expect(store.types(stream).filter((t) => t === 'MessageDeliveryAttemptStarted')).toHaveLength(1);
  });

  it('on stop, abandons a call in flight unrecorded and starts nothing new', async () => {
    const { store, provider, executor, create } = setup('twilio');
    provider.answer = () => 'hold';
    await create();
    await executor.handle(env, messageId, { type: 'MessageCreated' });
    expect(provider.calls).toHaveLength(1);
    await executor.stop();
    expect(store.types(stream)).toEqual(['MessageCreated', 'MessageDeliveryAttemptStarted', 'TimerScheduled']);
    await expect(executor.handle(env, messageId, { type: 'MessageCreated' })).rejects.toBeInstanceOf(DeliveryStoppedError);
  });

  it('settles an attempt nobody finished when its check fires: undelivered without an idempotency key', async () => {
    const { store, provider, executor, create, fire } = setup('twilio');
    await create();
    await store.append(stream, [
      {
        id: 's1',
        type: 'MessageDeliveryAttemptStarted',
        data: { message_id: messageId, attempt: 1, started_at: '2026-01-01T00:00:00.000Z' },
        metadata: meta,
      },
      {
        id: 't1',
        type: 'TimerScheduled',
        data: { timer_id: `${messageId}:check:1`, fire_at: '2026-01-01T00:00:04.000Z', purpose: 'delivery_check' },
        metadata: meta,
      },
    ]);
    // A replayed creation does not repeat the call.
    await executor.handle(env, messageId, { type: 'MessageCreated' });
    expect(provider.calls).toHaveLength(0);
    await fire(`${messageId}:check:1`);
    await executor.handle(env, messageId, { type: 'TimerFired', timerId: `${messageId}:check:1` });
    const events = await store.readStream(stream);
    expect(events.at(-1)).toMatchObject({
      type: 'MessageUndelivered',
      data: { attempts: 1, reason: expect.stringMatching(/^delivery_interrupted/) },
    });
    expect(provider.calls).toHaveLength(0);
  });

  it('retries an unfinished attempt with the same key when the provider takes one', async () => {
    const { store, provider, executor, create, fire } = setup('resend');
    await create();
    await store.append(stream, [
      {
        id: 's1',
        type: 'MessageDeliveryAttemptStarted',
        data: { message_id: messageId, attempt: 1, started_at: '2026-01-01T00:00:00.000Z' },
        metadata: meta,
      },
      {
        id: 't1',
        type: 'TimerScheduled',
        data: { timer_id: `${messageId}:check:1`, fire_at: '2026-01-01T00:00:04.000Z', purpose: 'delivery_check' },
        metadata: meta,
      },
    ]);
    await executor.handle(env, messageId, { type: 'TimerFired', timerId: `${messageId}:check:1` });
    const events = await store.readStream(stream);
    expect(events.at(-2)).toMatchObject({
      type: 'MessageDeliveryAttempted',
      data: { attempt: 1, reason: expect.stringMatching(/^delivery_interrupted/) },
    });
    expect(events.at(-1)).toMatchObject({
      type: 'TimerScheduled',
      data: { timer_id: `${messageId}:attempt:2`, purpose: 'delivery_retry' },
    });
    await fire(`${messageId}:attempt:2`);
    await executor.handle(env, messageId, { type: 'TimerFired', timerId: `${messageId}:attempt:2` });
    await settle();
    expect(provider.calls.map((c) => [c.attempt, c.idempotencyKey])).toEqual([[2, messageId]]);
    expect(store.types(stream).at(-1)).toBe('MessageSent');
  });

  it('resolves {{ vars.x }} references in provider settings, and bounds the time a call can be in flight', async () => {
    expect(
      resolveVariableReferences(
        { api_key: '{{ vars.key }}', nested: { v: 'a {{vars.key}} b' }, other: '{{ vars.missing }}', n: 3 },
        { key: 'k-123' },
      ),
    ).toEqual({
      api_key: 'k-123',
      nested: { v: 'a k-123 b' },
      other: '{{ vars.missing }}',
      n: 3,
    });
    expect(inFlightBoundMs({})).toBe(22_000);
    expect(inFlightBoundMs({ timeout_ms: 3000 })).toBe(8_000);
  });

  it('gives the provider its receipts endpoint under the public URL, and none without one', async () => {
    expect(receiptsUrlOf('https://notify.example/', 'development', { key: 'sms/eu', provider: 'twilio' })).toBe(
      'https://notify.example/v1/receipts/development/sms%2Feu/twilio',
    );
    const withUrl = setup('twilio', {}, 'https://notify.example');
    await withUrl.create();
    await withUrl.executor.handle(env, messageId, { type: 'MessageCreated' });
    await settle();
    expect(withUrl.provider.configs.map((c) => c.receiptsUrl)).toEqual(['https://notify.example/v1/receipts/development/ch/twilio']);

    const without = setup('twilio');
    await without.create();
    await without.executor.handle(env, messageId, { type: 'MessageCreated' });
    await settle();
    expect(without.provider.configs).toHaveLength(1);
    expect(without.provider.configs[0].receiptsUrl).toBeUndefined();
  });
});
