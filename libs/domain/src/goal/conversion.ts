import type { GoalConditionT, RecipientRefT } from '@notify/contracts';
import { RunConvertedEvent } from './goal.events';

/** A run that could convert: a run of a workflow that attaches the goal, for the recipient the event names. */
export interface ConvertibleRun {
  run_id: string;
  workflow_run_id: string;
  workflow_key: string;
  started_at: string;
  attribution_window_days: number;
}

export interface GoalEventSeen {
  type: 'source_event';
  source_key: string;
  event: string;
  log_id: string;
  /** When the event happened (received). */
  at: string;
}

const DAY_MS = 86_400_000;

/** Whether an event meets a goal's condition. Only source events convert today (ADR 0196). */
export function meetsGoal(condition: GoalConditionT, event: GoalEventSeen): boolean {
  const wanted = condition.event;
  return (
    wanted.event_type === 'integration_source' && wanted.integration_source_key === event.source_key && wanted.event_key === event.event
  );
}

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
        cause: { type: 'source_event' as const, source_key: input.event.source_key, log_id: input.event.log_id },
        run_started_at: run.started_at,
        converted_at: input.event.at,
      },
    }));
}
