import { expandRecorded } from '@notify/contracts';
import type { RecordedEvent } from '@notify/eventstore';
import { workflowRunEventRecord } from '../relay/knock-event.records';
import { OutboundRecord } from '../relay/outbound-record';
import { RelayMapper } from '../relay/relay-mapper';
import { KafkaTopics } from '../topics';
import { runEventOf, runView } from './run-view';
import { StreamHistories, StreamReader } from './stream-histories';

/**
 * `workflow_recipient_run.started` (RunEnqueued), `.completed` (RunCompleted) and `.error` (a
 * step that failed) on `<prefix>workflow-run-events.v1`, with the run as its stream reads up to
 * the event, keyed by recipient like the recipient's message events.
 */
export class WorkflowRunEventMapper implements RelayMapper {
  readonly name = 'workflow-run-events';
  readonly eventTypes = ['RunEnqueued', 'RunCompleted', 'StepCompleted'] as const;
  private readonly histories: StreamHistories;

  constructor(reader: StreamReader) {
    this.histories = new StreamHistories(reader);
  }

  async prepare(events: readonly RecordedEvent[]): Promise<void> {
    // RunEnqueued starts its stream: nothing to read for it.
    await this.histories.load(
      events.filter((e) => e.streamId.startsWith('run-') && e.type !== 'RunEnqueued' && reportedParts(e).length).map((e) => e.streamId),
    );
  }

  async map(event: RecordedEvent, topics: KafkaTopics): Promise<OutboundRecord[]> {
    const environment = event.metadata.environment;
    if (!environment || !event.streamId.startsWith('run-')) return [];
    const parts = reportedParts(event);
    if (!parts.length) return [];
    // A compound entry (a run's last step in its RunCompleted, ADR 0233) is read as the events it
    // stands for: each reported one with the run as it stood after it.
    const history =
      event.type === 'RunEnqueued' && event.revision === 0
        ? [event]
        : (await this.histories.upTo(event.streamId, event.revision)).flatMap((e) => expandRecorded(e));
    const all = expandRecorded(event);
    const start = history.length - all.length;
    return parts.flatMap(({ index, reported, part }) => {
      const data = runView(history.slice(0, start + index + 1));
      if (!data) return [];
      return [
        workflowRunEventRecord(part, topics.workflowRunEvents, {
          __typename: 'Event',
          type: reported.type,
          created_at: event.createdAt.toISOString(),
          environment,
          data,
          event_data: reported.eventData,
        }),
      ];
    });
  }
}

/** The events a log entry stands for that are reported, with their place in the entry. */
function reportedParts(event: RecordedEvent) {
  return expandRecorded(event).flatMap((part, index) => {
    const reported = runEventOf(part);
    return reported ? [{ index, reported, part }] : [];
  });
}
