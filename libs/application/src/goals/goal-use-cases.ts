import { GoalConditionT, RecipientRefT } from '@notify/contracts';
import {
  ConvertibleRun,
  decideConversions,
  GoalEvent,
  goalConversionStream,
  goalDecider,
  GoalEventSeen,
  GoalState,
  goalStream,
  meetsGoal,
  RunConvertedEvent,
} from '@notify/domain';
import { AppendResult, EventStore, WrongExpectedRevisionError } from '@notify/eventstore';
import { contentSha } from '../config/content-hash';
import { eventEnvelope } from '../envelope';
import { engineId } from '../engine/ids';
import { CommandMetadata, CommandOutcome, handleCommand } from '../handle-command';

/* Goals (ADR 0196): their definitions per environment, and the conversions a goal event causes. */

const now = () => new Date().toISOString();

export function upsertGoal(
  store: EventStore,
  environment: string,
  key: string,
  goal: { name: string; condition: GoalConditionT },
  metadata: CommandMetadata,
): Promise<CommandOutcome<GoalState, GoalEvent>> {
  const content = { name: goal.name, condition: goal.condition };
  return handleCommand(
    store,
    goalStream(environment, key),
    goalDecider,
    { type: 'UpsertGoal', key, ...content, sha: contentSha(content), now: now() },
    metadata,
  );
}

/** The decision an upsert would take, without appending: validation only. */
export function validateGoal(key: string, goal: { name: string; condition: GoalConditionT }): { sha: string } {
  const content = { name: goal.name, condition: goal.condition };
  const sha = contentSha(content);
  goalDecider.decide({ type: 'UpsertGoal', key, ...content, sha, now: now() }, goalDecider.initialState());
  return { sha };
}

export function archiveGoal(store: EventStore, environment: string, key: string, metadata: CommandMetadata) {
  return handleCommand(store, goalStream(environment, key), goalDecider, { type: 'ArchiveGoal', key, now: now() }, metadata);
}

/** What conversion needs to read: the goals an event meets and a recipient's runs that could convert. */
export interface GoalLookups {
  forSourceEvent(environment: string, sourceKey: string, event: string): Promise<{ key: string; condition: GoalConditionT }[]>;
  /** The environment's live goals on recipient events (ADR 0247). */
  forRecipientEvent(environment: string): Promise<{ key: string; condition: GoalConditionT }[]>;
  /** The environment's live goals on entering or exiting an audience (ADR 0247). */
  forAudienceEvent(environment: string, audienceKey: string, event: string): Promise<{ key: string; condition: GoalConditionT }[]>;
  convertibleRuns(
    environment: string,
    goalKey: string,
    userId: string,
    since: Date,
  ): Promise<{ runs: ConvertibleRun[]; converted: Set<string> }>;
}

/** The longest attribution window: runs older than this never convert. */
const MAX_WINDOW_MS = 30 * 86_400_000;

/**
 * Marks the user's runs of workflows attached to the goals this event meets as converted: one
 * RunConverted per run and goal, each on its own stream appended only if absent, so a repeat
 * (a retried ingest, a second event) converts nothing twice.
 */
export async function convertForGoalEvent(
  store: EventStore,
  goals: GoalLookups,
  environment: string,
  event: GoalEventSeen,
  userId: string,
  metadata: CommandMetadata,
): Promise<{ append: AppendResult; events: RunConvertedEvent[] }[]> {
  const recipient: RecipientRefT = { type: 'user', id: userId };
  const written: { append: AppendResult; events: RunConvertedEvent[] }[] = [];
  const candidates =
    event.type === 'source_event'
      ? await goals.forSourceEvent(environment, event.source_key, event.event)
      : event.type === 'audience_event'
        ? await goals.forAudienceEvent(environment, event.audience_key, event.event)
        : await goals.forRecipientEvent(environment);
  // Match conditions first: runs are read only for goals the event meets.
  for (const goal of candidates.filter((g) => meetsGoal(g.condition, event))) {
    const { runs, converted } = await goals.convertibleRuns(environment, goal.key, userId, new Date(Date.parse(event.at) - MAX_WINDOW_MS));
    const conversions = decideConversions({ goal: { ...goal, archived: false }, event, recipient, runs, converted });
    for (const conversion of conversions) {
      const stream = goalConversionStream(environment, goal.key, conversion.data.run_id);
      try {
        const append = await store.append(
          stream,
          [eventEnvelope(conversion.type, conversion.data, engineId('goal-conversion', stream), { ...metadata, environment })],
          { expectedRevision: 'no_stream' },
        );
        written.push({ append, events: [conversion] });
      } catch (error) {
        if (!(error instanceof WrongExpectedRevisionError)) throw error;
      }
    }
  }
  return written;
}
