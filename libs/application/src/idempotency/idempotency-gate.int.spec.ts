import { idempotencyStream } from '@notify/domain';
import { PostgresEventStore } from '@notify/eventstore';
import { createHash } from 'node:crypto';
import { createTestDatabase, TestDatabase } from '@notify/testing';
import { IdempotencyGate, IdempotentRequest } from './idempotency-gate';

const request = (over: Partial<IdempotentRequest> = {}): IdempotentRequest => ({
  environment: 'test',
  key: 'key-1',
  operation: 'triggerWorkflow',
  fingerprint: 'f1',
  requestId: 'req-1',
  metadata: { environment: 'test', actor: 'test' },
  ...over,
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** A one-time signal: `happened` resolves once `done()` is called. */
function signal(): { done: () => void; happened: Promise<void> } {
  let done!: () => void;
  const happened = new Promise<void>((resolve) => (done = resolve));
  return { done, happened };
}

/** The gate over a real event store: concurrency, waiting, refusal and takeover. */
describe('the idempotency gate', () => {
  let db: TestDatabase;
  let store: PostgresEventStore;

  beforeAll(async () => {
    db = await createTestDatabase();
    store = await PostgresEventStore.create({ pool: db.database.pool });
  });
  afterAll(async () => {
    await store.close();
    await db.close();
  });

  it('runs concurrent requests with one key once; the others wait and get its response', async () => {
    const gate = new IdempotencyGate(store, { ttlMs: 86_400_000, leaseMs: 60_000, waitMs: 5_000 });
    let executions = 0;
    const execute = async () => {
      executions++;
      await sleep(300);
      return { status: 200, body: { n: executions } };
    };
    const outcomes = await Promise.all(
      Array.from({ length: 5 }, (_, i) => gate.run(request({ key: 'concurrent', requestId: `req-${i}` }), execute)),
    );
    expect(executions).toBe(1);
    expect(outcomes.filter((o) => !o.replayed)).toHaveLength(1);
    const original = outcomes.find((o) => !o.replayed)!;
    for (const o of outcomes) expect(o.response).toEqual({ status: 200, body: { n: 1 } });
    const [claimed] = await store.readStream(idempotencyStream('test', createHash('sha256').update('concurrent').digest('hex')));
    const winner = (claimed.data as { request_id: string }).request_id;
    for (const o of outcomes.filter((x) => x.replayed)) expect(o).toMatchObject({ originalRequestId: winner });
    expect(original.replayed).toBe(false);
  });

  it('refuses a repeat as in use (409) when the first request takes longer than the wait', async () => {
    const gate = new IdempotencyGate(store, { ttlMs: 86_400_000, leaseMs: 60_000, waitMs: 100 });
    // The first request holds its claim until the repeat has been refused.
    const claimed = signal();
    const refused = signal();
    const first = gate.run(request({ key: 'slow' }), async () => {
      claimed.done();
      await refused.happened;
      return { status: 200, body: { ok: true } };
    });
    await claimed.happened;
    await expect(
      gate.run(request({ key: 'slow', requestId: 'req-2' }), async () => ({ status: 200, body: { ok: false } })),
    ).rejects.toMatchObject({ code: 'idempotency_key_in_use', kind: 'conflict' });
    refused.done();
    expect((await first).replayed).toBe(false);
    expect(
      (await gate.run(request({ key: 'slow', requestId: 'req-3' }), async () => ({ status: 200, body: { ok: false } }))).response.body,
    ).toEqual({ ok: true });
  });

  it('stores only 2xx: a failed or refused request leaves the key free for a retry', async () => {
    const gate = new IdempotencyGate(store);
    await expect(gate.run(request({ key: 'fails' }), async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    const refused = await gate.run(request({ key: 'fails' }), async () => ({ status: 409, body: { code: 'x' } }));
    expect(refused.replayed).toBe(false);
    const ok = await gate.run(request({ key: 'fails' }), async () => ({ status: 200, body: { ok: 1 } }));
    expect(ok).toEqual({ replayed: false, response: { status: 200, body: { ok: 1 } } });
    expect((await gate.run(request({ key: 'fails' }), async () => ({ status: 200, body: { ok: 2 } }))).response.body).toEqual({ ok: 1 });
  });

  it('lets a new request take over a claim whose request died (lease ran out)', async () => {
    const gate = new IdempotencyGate(store, { ttlMs: 86_400_000, leaseMs: 200, waitMs: 1_000 });
    // The first request never finishes (its process died).
    const claimed = signal();
    void gate.run(request({ key: 'orphan' }), () => {
      claimed.done();
      return new Promise(() => undefined);
    });
    await claimed.happened;
    const taken = await gate.run(request({ key: 'orphan', requestId: 'req-2' }), async () => ({ status: 200, body: { second: true } }));
    expect(taken).toEqual({ replayed: false, response: { status: 200, body: { second: true } } });
  });

  it('refuses other parameters or another operation under the same key (422)', async () => {
    const gate = new IdempotencyGate(store);
    await gate.run(request({ key: 'reused' }), async () => ({ status: 200, body: {} }));
    await expect(gate.run(request({ key: 'reused', fingerprint: 'f2' }), async () => ({ status: 200, body: {} }))).rejects.toMatchObject({
      code: 'idempotency_key_reused',
      kind: 'invalid_params',
    });
    await expect(
      gate.run(request({ key: 'reused', operation: 'cancelWorkflow' }), async () => ({ status: 204, body: null })),
    ).rejects.toMatchObject({ code: 'idempotency_key_reused' });
    // Keys are per environment.
    expect(
      (
        await gate.run(request({ key: 'reused', fingerprint: 'f2', environment: 'other' }), async () => ({
          status: 200,
          body: { other: true },
        }))
      ).replayed,
    ).toBe(false);
  });
});
