import type { EventOf, LogReplayedToKafka } from '@notify/contracts';
import { AppendResult, EventStore } from '@notify/eventstore';
import { eventEnvelope } from '../envelope';
import { CommandMetadata } from '../handle-command';

export type LogReplayRecord = EventOf<typeof LogReplayedToKafka>['data'];

/** The stream of one replay call: its audit record (account-wide, not one environment's). */
export const logReplayStream = (replayId: string) => `log-replay-${replayId}`;

/**
 * Records a replay to Kafka (ADR 0154) as an event of its own, with who asked in its metadata:
 * a replay changes no state, but it is a management action and auditors see it in the log.
 */
export function recordLogReplay(store: EventStore, replay: LogReplayRecord, metadata: CommandMetadata): Promise<AppendResult> {
  return store.append(
    logReplayStream(replay.replay_id),
    [eventEnvelope('LogReplayedToKafka', replay, replay.replay_id, { ...metadata, environment: null })],
    { expectedRevision: 'no_stream' },
  );
}
