import type { EventStore, RecordedEvent } from '@notify/eventstore';
import type { EngineLookups } from './lookups';
import { WaitingRunsPort, WaitMatcher } from './wait-matcher';

let seq = 0;
const event = (type: string, environment: string, data: Record<string, unknown>, streamId: string): RecordedEvent => {
  seq++;
  return {
    id: `e${seq}`,
    type,
    streamId,
    revision: 0,
    globalPosition: BigInt(seq),
    position: String(seq).padStart(12, '0'),
    data,
    metadata: { environment, schema_version: 1 },
    createdAt: new Date('2026-11-26T12:00:00Z'),
  } as RecordedEvent;
};
const identified = (environment: string, user: string) =>
  event('UserIdentified', environment, { user_id: user, properties: { name: 'x' } }, `user-${environment}-${user}`);
const paused = (environment: string) => event('RunPaused', environment, { reason: 'wait_for_event' }, `run-${seq}`);

/** A waiting-runs read model whose answers the test sets, counting what was asked. */
function readModel() {
  const awaited = new Set<string>();
  const calls = { awaitedKinds: [] as string[][], waitingFor: [] as string[] };
  const port: WaitingRunsPort = {
    async awaitedKinds(environments) {
      calls.awaitedKinds.push([...environments]);
      return new Set([...awaited].filter((k) => environments.includes(k.slice(0, k.indexOf('|')))));
    },
    async waitingFor(environment, keys) {
      calls.waitingFor.push(...keys.map((k) => `${environment}:${k.recipient.id}:${k.eventType}`));
      return [];
    },
  };
  return { awaited, calls, port };
}

describe('WaitMatcher: what environments await, kept between batches', () => {
  const matcher = (port: WaitingRunsPort) => new WaitMatcher({} as EventStore, port, {} as EngineLookups, async () => undefined);

  it('reads what an environment awaits once while nothing is awaited, again after a RunPaused of it', async () => {
    const model = readModel();
    const m = matcher(model.port);
    await m.handle([identified('a', 'u1')]);
    await m.handle([identified('a', 'u2')]);
    expect(model.calls.awaitedKinds).toEqual([['a']]);

    // A run of `a` pauses on a recipient update; the read model has it once settled.
    model.awaited.add('a|recipient|updated');
    await m.handle([paused('a'), identified('a', 'u3')]);
    expect(model.calls.awaitedKinds).toEqual([['a'], ['a']]);
    expect(model.calls.waitingFor).toEqual(['a:u3:recipient']);

    // An occurrence it awaited drops the entry (runs may have resumed): the next batch reads again.
    model.awaited.clear();
    await m.handle([identified('a', 'u4')]);
    await m.handle([identified('a', 'u5')]);
    expect(model.calls.awaitedKinds).toEqual([['a'], ['a'], ['a']]);
    expect(model.calls.waitingFor).toEqual(['a:u3:recipient']);
  });

  it('keeps each environment apart, and forgets everything when the reactor skipped events', async () => {
    const model = readModel();
    const m = matcher(model.port);
    await m.handle([identified('a', 'u1')]);
    await m.handle([identified('a', 'u2'), identified('b', 'u1')]);
    expect(model.calls.awaitedKinds).toEqual([['a'], ['b']]);
    // A RunPaused of b does not make a read a's again.
    await m.handle([paused('b'), identified('a', 'u3')]);
    expect(model.calls.awaitedKinds).toEqual([['a'], ['b'], ['b']]);

    // Another worker moved the reactor past events this process never saw (a pause among them).
    model.awaited.add('a|recipient|updated');
    m.forget();
    await m.handle([identified('a', 'u4')]);
    expect(model.calls.awaitedKinds).toEqual([['a'], ['b'], ['b'], ['a']]);
    expect(model.calls.waitingFor).toEqual(['a:u4:recipient']);
  });
});
