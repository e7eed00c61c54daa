import type { RunEnqueuedData } from '@notify/domain';
import type { RecordedEvent } from '@notify/eventstore';
import type { Reactor } from '@notify/projection-runtime';
import { recordHeaders } from '../envelopes/headers';
import { recipientKey } from '../envelopes/recipient';
import { recipientReference } from '../mappers/message-view';
import { StreamReader } from '../mappers/stream-histories';
import { RecordPublisher } from '../relay/kafka-publisher';
import { OutboundRecord } from '../relay/outbound-record';
import { RUN_WORK_ENVELOPE_V1, RunWorkV1 } from './run-work.v1';

/** The log events that give a recipient run something to do (what RunExecutorReactor follows in embedded mode). */
export const RUN_WORK_FILTER = { eventTypes: ['RunEnqueued', 'TimerFired', 'RunResumed'], streamPrefixes: ['run-'] };

/** The dispatcher's checkpoint name: one per work topic. */
export const runWorkDispatcherName = (topic: string) => `engine-run-work:${topic}`;

/**
 * Turns the log's run events into run-work records keyed by recipient, so the consumer group on
 * the work topic gives each recipient one owner. A reactor like the relay: the checkpoint moves
 * only after the broker acknowledged the batch, so no run is forgotten; a batch published twice
 * (a crash, two dispatchers for a moment) only makes the owner execute a run again, which appends
 * nothing new (deterministic ids, expected revisions).
 */
export class RunWorkDispatcher implements Reactor {
  readonly name: string;
  readonly filter = RUN_WORK_FILTER;
  readonly concurrency = 1;

  constructor(
    private readonly publisher: RecordPublisher,
    private readonly reader: StreamReader,
    private readonly topic: string,
  ) {
    this.name = runWorkDispatcherName(topic);
  }

  async handle(events: readonly RecordedEvent[]): Promise<void> {
    await this.publisher.publish(await this.records(events));
  }

  /** The records for these events, in log order; events of runs with no RunEnqueued (none should exist) are left out. */
  async records(events: readonly RecordedEvent[]): Promise<OutboundRecord[]> {
    const recipients = new Map<string, RunEnqueuedData>();
    for (const e of events) if (e.type === 'RunEnqueued') recipients.set(e.streamId, e.data as RunEnqueuedData);
    const unknown = [...new Set(events.filter((e) => !recipients.has(e.streamId)).map((e) => e.streamId))];
    if (unknown.length) {
      for (const [streamId, history] of await this.reader.readStreams(unknown)) {
        if (history[0]?.type === 'RunEnqueued') recipients.set(streamId, history[0].data as RunEnqueuedData);
      }
    }
    const records: OutboundRecord[] = [];
    for (const event of events) {
      const run = recipients.get(event.streamId);
      const environment = event.metadata.environment;
      if (!run || !environment) continue;
      const value: RunWorkV1 = {
        environment,
        run_id: run.run_id,
        recipient: recipientReference(run.recipient),
        cause: {
          event_id: event.id,
          event_type: event.type,
          stream_id: event.streamId,
          revision: event.revision,
          global_position: event.globalPosition.toString(),
        },
      };
      records.push({
        topic: this.topic,
        key: recipientKey(environment, value.recipient),
        value,
        headers: recordHeaders({ eventId: event.id, eventType: event.type, schemaVersion: 1, environment, envelope: RUN_WORK_ENVELOPE_V1 }),
      });
    }
    return records;
  }

  close(): Promise<void> {
    return this.publisher.close();
  }
}
