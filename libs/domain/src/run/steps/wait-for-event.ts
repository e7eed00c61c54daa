import type { Condition } from '../../preferences/conditions';
import { evaluateCondition } from '../../preferences/conditions';
import { addDuration, Duration } from './durations';

export interface WaitForEventSettings {
  event: { event_type: string; event_key?: string; source_key?: string; source_type?: string; [key: string]: unknown };
  match_conditions?: { operator?: 'and'; conditions: Condition[] }[] | null;
  expires_after?: Duration | null;
  on_match?: 'continue' | 'halt' | null;
  on_timeout?: 'continue' | 'halt' | null;
}

/** What a waiting run waits for, as recorded on its RunPaused event (`waiting_for`). */
export interface WaitingFor {
  event_type: 'workflow' | 'message' | 'recipient';
  event_key: string;
  source_key: string;
  match_conditions: { operator?: 'and'; conditions: Condition[] }[];
  expires_at: string | null;
}

/**
 * The events a run can wait for here. Workflow events (a run of another workflow for the same
 * recipient starting or completing), message events of workflow messages and updates of the
 * recipient come from this service's own log; audiences, integration sources and broadcast or
 * guide messages have no source in it yet.
 */
export function waitingForOf(settings: WaitForEventSettings, now: Date): { waitingFor: WaitingFor } | { unsupported: string } {
  const { event } = settings;
  if (event.event_type === 'message' && event.source_type !== 'workflow') {
    return { unsupported: `wait_for_event: message events from ${event.source_type ?? 'unknown'} sources are not supported` };
  }
  if (event.event_type === 'recipient') {
    const waitingFor: WaitingFor = {
      event_type: 'recipient',
      event_key: event.event_key ?? 'updated',
      source_key: '',
      match_conditions: settings.match_conditions ?? [],
      expires_at: settings.expires_after ? addDuration(now, settings.expires_after).toISOString() : null,
    };
    return { waitingFor };
  }
  if (event.event_type !== 'workflow' && event.event_type !== 'message') {
    return { unsupported: `wait_for_event: ${event.event_type} events are not supported` };
  }
  if (!event.event_key || !event.source_key) return { unsupported: 'wait_for_event: event_key and source_key are required' };
  return {
    waitingFor: {
      event_type: event.event_type,
      event_key: event.event_key,
      source_key: event.source_key,
      match_conditions: settings.match_conditions ?? [],
      expires_at: settings.expires_after ? addDuration(now, settings.expires_after).toISOString() : null,
    },
  };
}

/** Something that happened that a waiting run may be waiting for. */
export interface EventOccurrence {
  event_type: 'workflow' | 'message' | 'recipient';
  event_key: string;
  source_key: string;
  /** What match conditions see under `event`. */
  event: Record<string, unknown>;
  at: string;
}

/**
 * Whether an occurrence resolves a wait: same kind, key and source, and (when there are match
 * conditions) at least one condition group whose conditions all hold. Conditions see the
 * waiting run's variables (`data`, `recipient`, ...) and the occurrence under `event`.
 */
export function occurrenceMatches(waiting: WaitingFor, occurrence: EventOccurrence, runVariables: Record<string, unknown>): boolean {
  if (
    waiting.event_type !== occurrence.event_type ||
    waiting.event_key !== occurrence.event_key ||
    waiting.source_key !== occurrence.source_key
  )
    return false;
  if (waiting.expires_at && occurrence.at > waiting.expires_at) return false;
  if (waiting.match_conditions.length === 0) return true;
  const variables = { ...runVariables, event: occurrence.event };
  return waiting.match_conditions.some((group) => group.conditions.every((c) => evaluateCondition(c, { variables, now: occurrence.at })));
}
