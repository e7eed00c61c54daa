import type { RecordedEvent } from '@notify/eventstore';
import { OutboundRecord } from '../relay/outbound-record';
import { RecordPublisher } from '../relay/kafka-publisher';
import { RunWorkDispatcher, runWorkDispatcherName } from './run-work.dispatcher';
import { RunWorkV1 } from './run-work.v1';

const RUN_A = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';
const RUN_B = 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb';
let position = 0;

function recorded(
  streamId: string,
  revision: number,
  type: string,
  data: Record<string, unknown>,
  environment: string | null = 'dev',
): RecordedEvent {
  position++;
  return {
    id: `00000000-0000-4000-8000-${String(position).padStart(12, '0')}`,
    type,
    streamId,
    revision,
    globalPosition: BigInt(position),
    position: String(position).padStart(32, '0'),
    data,
    metadata: { environment, schema_version: 1 },
    createdAt: new Date('2026-01-01T00:00:00.000Z'),
  };
}

const enqueued = (runId: string, recipient: Record<string, string>) =>
  recorded(`run-dev-${runId}`, 0, 'RunEnqueued', { run_id: runId, workflow_run_id: RUN_B, recipient });

class Recording implements RecordPublisher {
  published: OutboundRecord[][] = [];
  async publish(records: readonly OutboundRecord[]) {
    this.published.push([...records]);
  }
  async close() {}
}

describe('RunWorkDispatcher', () => {
  const earlier = enqueued(RUN_A, { type: 'object', collection: 'sites', id: 'nublar' });
  const reader = {
    reads: [] as string[][],
    async readStreams(ids: readonly string[]) {
      this.reads.push([...ids]);
      return new Map(ids.map((id) => [id, id === earlier.streamId ? [earlier] : []]));
    },
  };

  it('publishes one work record per run event, keyed by the recipient, reading the recipient of runs enqueued earlier', async () => {
    const publisher = new Recording();
    const dispatcher = new RunWorkDispatcher(publisher, reader, 'p.run-work.v1');
    const fresh = enqueued(RUN_B, { type: 'user', id: 'grant' });
    const fired = recorded(earlier.streamId, 3, 'TimerFired', { timer_id: 't' });
    const resumed = recorded(fresh.streamId, 2, 'RunResumed', { run_id: RUN_B });
    await dispatcher.handle([fresh, fired, resumed]);

    expect(dispatcher.name).toBe(runWorkDispatcherName('p.run-work.v1'));
    expect(reader.reads).toEqual([[earlier.streamId]]); // fresh's recipient came with the batch
    const [records] = publisher.published;
    expect(records.map((r) => [r.topic, r.key, r.headers['event-type'], r.headers['event-id']])).toEqual([
      ['p.run-work.v1', 'dev:user:grant', 'RunEnqueued', fresh.id],
      ['p.run-work.v1', 'dev:object:sites:nublar', 'TimerFired', fired.id],
      ['p.run-work.v1', 'dev:user:grant', 'RunResumed', resumed.id],
    ]);
    expect(RunWorkV1.parse(records[1].value)).toEqual({
      environment: 'dev',
      run_id: RUN_A,
      recipient: { collection: 'sites', id: 'nublar' },
      cause: {
        event_id: fired.id,
        event_type: 'TimerFired',
        stream_id: earlier.streamId,
        revision: 3,
        global_position: fired.globalPosition.toString(),
      },
    });
    expect(records[0].headers).toMatchObject({ envelope: 'notify.run-work.v1', environment: 'dev' });
  });

  it('skips events of streams that do not start with RunEnqueued, and events without environment', async () => {
    const publisher = new Recording();
    const dispatcher = new RunWorkDispatcher(publisher, reader, 'p.run-work.v1');
    const orphan = recorded(`run-dev-${'c'.repeat(8)}-cccc-4ccc-8ccc-cccccccccccc`, 1, 'TimerFired', { timer_id: 'x' });
    const noEnvironment = recorded(`run-dev-${RUN_B}`, 0, 'RunEnqueued', { run_id: RUN_B, recipient: { type: 'user', id: 'x' } }, null);
    await dispatcher.handle([orphan, noEnvironment]);
    expect(publisher.published).toEqual([[]]);
  });

  it('fails the batch when the broker does not acknowledge, so the checkpoint stays', async () => {
    const failing: RecordPublisher = { publish: () => Promise.reject(new Error('broker down')), close: async () => undefined };
    await expect(new RunWorkDispatcher(failing, reader, 't').handle([enqueued(RUN_B, { type: 'user', id: 'g' })])).rejects.toThrow(
      'broker down',
    );
  });
});
