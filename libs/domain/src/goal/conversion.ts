import type { GoalConditionT, RecipientRefT } from '@notify/contracts';
import { Condition, evaluateCondition } from '../preferences/conditions';
import { conditionGroupHolds } from '../run/steps/condition-groups';
import { RunConvertedEvent } from './goal.events';

/** A run that could convert: a run of a workflow that attaches the goal, for the recipient the event names. */
export interface ConvertibleRun {
  run_id: string;
  workflow_run_id: string;
  workflow_key: string;
  started_at: string;
  attribution_window_days: number;
}

/** An event a source received (ADR 0196). */
export interface SourceGoalEvent {
  type: 'source_event';
  source_key: string;
  event: string;
  log_id: string;
  /** When the event happened (received). */
  at: string;
}

/** A recipient updated (identified again) (ADR 0247): what match conditions see. */
export interface RecipientGoalEvent {
  type: 'recipient_event';
  event: 'updated';
  /** `recipient` (every property after the update), and `event.properties` (what the update set). */
  variables: { recipient: Record<string, unknown>; event: { type: 'recipient.updated'; properties: Record<string, unknown> } };
  at: string;
}

/** A user entering (added to) or exiting (removed from) a static audience (ADR 0247). */
export interface AudienceGoalEvent {
  type: 'audience_event';
  audience_key: string;
  event: 'enter' | 'exit';
  at: string;
}

export type GoalEventSeen = SourceGoalEvent | RecipientGoalEvent | AudienceGoalEvent;

const DAY_MS = 86_400_000;

/**
 * Whether an event meets a goal's condition: a source event of the goal's source and event key,
 * a user entering or exiting the goal's static audience, or a recipient update for a `recipient`
 * goal whose match conditions (when it has any) hold for at least one group, with the
 * recipient's properties after the update (ADR 0247).
 */
export function meetsGoal(condition: GoalConditionT, event: GoalEventSeen): boolean {
  const wanted = condition.event;
  if (event.type === 'source_event')
    return (
      wanted.event_type === 'integration_source' && wanted.integration_source_key === event.source_key && wanted.event_key === event.event
    );
  if (event.type === 'audience_event')
    return wanted.event_type === 'audience' && wanted.audience_key === event.audience_key && wanted.event_key === event.event;
  if (wanted.event_type !== 'recipient' || (wanted.event_key ?? 'updated') !== event.event) return false;
  const groups = condition.match_conditions ?? [];
  if (groups.length === 0) return true;
  return groups.some((group) =>
    conditionGroupHolds(group, (c) => evaluateCondition(c as Condition, { variables: event.variables, now: event.at })),
  );
}

const causeOf = (event: GoalEventSeen) =>
  event.type === 'source_event'
    ? { type: 'source_event' as const, source_key: event.source_key, log_id: event.log_id }
    : event.type === 'audience_event'
      ? { type: 'audience_event' as const, source_key: null, log_id: null, audience_key: event.audience_key }
      : { type: 'recipient_event' as const, source_key: null, log_id: null };

/**
 * The conversions a goal event causes (pure): each of the recipient's runs of an attached
 * workflow that started before the event and within its attribution window, and has not
 * converted to this goal already.
 */
export function decideConversions(input: {
  goal: { key: string; condition: GoalConditionT; archived: boolean };
  event: GoalEventSeen;
  recipient: RecipientRefT;
  runs: readonly ConvertibleRun[];
  converted: ReadonlySet<string>;
}): RunConvertedEvent[] {
  if (input.goal.archived || !meetsGoal(input.goal.condition, input.event)) return [];
  const at = Date.parse(input.event.at);
  return input.runs
    .filter((run) => {
      const started = Date.parse(run.started_at);
      return !input.converted.has(run.run_id) && started <= at && at - started <= run.attribution_window_days * DAY_MS;
    })
    .map((run) => ({
      type: 'RunConverted' as const,
      data: {
        goal_key: input.goal.key,
        run_id: run.run_id,
        workflow_run_id: run.workflow_run_id,
        workflow_key: run.workflow_key,
        recipient: input.recipient,
        cause: causeOf(input.event),
        run_started_at: run.started_at,
        converted_at: input.event.at,
      },
    }));
}
