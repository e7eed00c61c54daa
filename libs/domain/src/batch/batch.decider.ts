import type {
  BatchTraceT,
  ThrottleTraceT,
  BatchClosed,
  BatchItemAdded,
  BatchOpened,
  BatchWindowExtended,
  EventOf,
  FrequencyClaimed,
  ThrottleLimited,
  ThrottlePassed,
  TimerFired,
  TimerScheduled,
} from '@notify/contracts';
import { assertNever, Decider } from '../shared/decider';

export type BatchEvent =
  | EventOf<typeof BatchOpened>
  | EventOf<typeof BatchItemAdded>
  | EventOf<typeof BatchWindowExtended>
  | EventOf<typeof BatchClosed>
  | EventOf<typeof TimerScheduled>
  | EventOf<typeof TimerFired>;
type Activity = EventOf<typeof BatchItemAdded>['data']['activity'];
type ActorRef = Activity['actor'];
export type BatchRole = 'owner' | 'leading' | 'joined';

export interface BatchPolicy {
  mode: 'accumulate' | 'flush_leading';
  windowType: 'fixed' | 'sliding';
  /** Window length; null when the window closes at `untilAt`. */
  windowMs: number | null;
  /** A fixed closing time taken from the trigger data (batch_until_field_path). */
  untilAt: string | null;
  /** Sliding windows never extend beyond opened_at + this. */
  extensionLimitMs: number | null;
  /** Reaching this many items closes the batch at once. */
  maxItems: number | null;
}

interface OpenBatch {
  batchId: string;
  ownerRunId: string | null;
  leadingRunId: string | null;
  openedAt: string;
  closesAt: string;
  extendUntil: string | null;
  timerId: string;
  items: { runId: string; activity: Activity; role: BatchRole }[];
}

export interface BatchState {
  open?: OpenBatch;
  /** Every run ever added, with its role: adding it again is a no-op. */
  roles: Record<string, BatchRole>;
  /** The batches' recipient when a user, as its items recorded it: their activities are sealed for them (ADR 0221). */
  userId?: string | null;
}

export type BatchCommand =
  | {
      type: 'AddItem';
      runId: string;
      activity: Activity;
      /** The recipient when a user (the activity's data is theirs); null for an object. */
      userId: string | null;
      policy: BatchPolicy;
      now: string;
      /**
       * When the run became due at this step: its trigger's accept time when nothing paused it
       * before. Windows are placed by it, not by when the run got here (behind a backlog).
       */
      dueAt: string;
      newBatchId: string;
      newTimerId: (closesAt: string) => string;
    }
  | { type: 'Close'; timerId: string; now: string };

/** `user_id` on the events whose activities are sealed for the recipient; absent for an object (they stay in clear). */
const sealedFor = (userId: string | null | undefined) => (userId ? { user_id: userId } : {});

const plus = (iso: string, ms: number) => new Date(Date.parse(iso) + ms).toISOString();
const min = (a: string, b: string | null) => (b !== null && b < a ? b : a);

/** Activities of the items that still need sending, and their distinct actors. */
function flushPayload(open: OpenBatch) {
  const items = open.items.filter((i) => i.role !== 'leading');
  const actors: NonNullable<ActorRef>[] = [];
  const seen = new Set<string>();
  for (const item of items) {
    const actor = item.activity.actor;
    // An erased activity (its user's key destroyed) opens as `{ $erased: true }`: no actor.
    if (actor === null || actor === undefined) continue;
    const key = JSON.stringify(actor);
    if (!seen.has(key)) {
      seen.add(key);
      actors.push(actor);
    }
  }
  return { activities: items.map((i) => i.activity), actors, total_activities: items.length, total_actors: actors.length };
}

export const batchDecider: Decider<BatchState, BatchCommand, BatchEvent> = {
  initialState: () => ({ roles: {} }),

  evolve(state, event) {
    switch (event.type) {
      case 'BatchOpened': {
        const d = event.data;
        return {
          ...state,
          open: {
            batchId: d.batch_id,
            ownerRunId: d.owner_run_id,
            leadingRunId: d.leading_run_id,
            openedAt: d.opened_at,
            closesAt: d.closes_at,
            extendUntil: d.extend_until,
            timerId: d.timer_id,
            items: [],
          },
        };
      }
      case 'BatchItemAdded': {
        const open = state.open!;
        const ownerRunId = event.data.role === 'owner' ? event.data.run_id : open.ownerRunId;
        return {
          open: {
            ...open,
            ownerRunId,
            items: [...open.items, { runId: event.data.run_id, activity: event.data.activity, role: event.data.role }],
          },
          roles: { ...state.roles, [event.data.run_id]: event.data.role },
          userId: event.data.user_id ?? state.userId,
        };
      }
      case 'BatchWindowExtended':
        return { ...state, open: { ...state.open!, closesAt: event.data.closes_at, timerId: event.data.timer_id } };
      case 'BatchClosed':
        return { ...state, open: undefined };
      case 'TimerScheduled':
      case 'TimerFired':
        return state;
      default:
        return assertNever(event);
    }
  },

  decide(command, state) {
    switch (command.type) {
      case 'AddItem': {
        if (state.roles[command.runId]) return [];
        const { policy, now } = command;
        const out: BatchEvent[] = [];
        let open = state.open;
        if (open && command.dueAt >= open.closesAt) {
          // Due after the open window's end (whose timer has not been handled yet): that window
          // closes now, without this item, and the item opens the next one.
          out.push({
            type: 'BatchClosed',
            data: {
              batch_id: open.batchId,
              owner_run_id: open.ownerRunId,
              reason: 'window',
              ...flushPayload(open),
              closed_at: now,
              ...sealedFor(command.userId),
            },
          });
          open = undefined;
        }
        if (!open) {
          // A new batch: the first item opens it, its window counted from when the item was due.
          const from = command.dueAt;
          const closesAt = policy.untilAt ?? plus(from, policy.windowMs ?? 0);
          const leading = policy.mode === 'flush_leading';
          const opened: BatchEvent = {
            type: 'BatchOpened',
            data: {
              batch_id: command.newBatchId,
              owner_run_id: leading ? null : command.runId,
              leading_run_id: leading ? command.runId : null,
              opened_at: from,
              closes_at: closesAt,
              extend_until:
                policy.windowType === 'sliding' && policy.extensionLimitMs !== null ? plus(from, policy.extensionLimitMs) : null,
              timer_id: command.newTimerId(closesAt),
            },
          };
          out.push(
            opened,
            {
              type: 'BatchItemAdded',
              data: {
                batch_id: command.newBatchId,
                run_id: command.runId,
                activity: command.activity,
                role: leading ? 'leading' : 'owner',
                added_at: now,
                ...sealedFor(command.userId),
              },
            },
            {
              type: 'TimerScheduled',
              data: { timer_id: (opened.data as { timer_id: string }).timer_id, fire_at: closesAt, purpose: 'batch_window' },
            },
          );
          return out;
        }
        // flush_leading: the first item after the leading one owns the accumulated flush.
        const role: BatchRole = open.ownerRunId === null ? 'owner' : 'joined';
        out.push({
          type: 'BatchItemAdded',
          data: {
            batch_id: open.batchId,
            run_id: command.runId,
            activity: command.activity,
            role,
            added_at: now,
            ...sealedFor(command.userId),
          },
        });
        open = {
          ...open,
          items: [...open.items, { runId: command.runId, activity: command.activity, role }],
          ownerRunId: open.ownerRunId ?? command.runId,
        };
        if (policy.maxItems !== null && open.items.filter((i) => i.role !== 'leading').length >= policy.maxItems) {
          out.push({
            type: 'BatchClosed',
            data: {
              batch_id: open.batchId,
              owner_run_id: open.ownerRunId,
              reason: 'max_items',
              ...flushPayload(open),
              closed_at: now,
              ...sealedFor(command.userId),
            },
          });
        } else if (policy.windowType === 'sliding' && policy.windowMs !== null && !policy.untilAt) {
          const closesAt = min(plus(command.dueAt, policy.windowMs), open.extendUntil);
          if (closesAt > open.closesAt) {
            const timerId = command.newTimerId(closesAt);
            out.push(
              { type: 'BatchWindowExtended', data: { batch_id: open.batchId, closes_at: closesAt, timer_id: timerId } },
              { type: 'TimerScheduled', data: { timer_id: timerId, fire_at: closesAt, purpose: 'batch_window' } },
            );
          }
        }
        return out;
      }
      case 'Close': {
        const open = state.open;
        // Only the current window's timer closes it; timers of windows since extended are stale.
        if (!open || open.timerId !== command.timerId) return [];
        return [
          {
            type: 'BatchClosed',
            data: {
              batch_id: open.batchId,
              owner_run_id: open.ownerRunId,
              reason: 'window',
              ...flushPayload(open),
              closed_at: command.now,
              ...sealedFor(state.userId),
            },
          },
        ];
      }
      default:
        return assertNever(command);
    }
  },
};

export type ThrottleEvent = EventOf<typeof ThrottlePassed> | EventOf<typeof ThrottleLimited>;
export interface ThrottleState {
  passes: string[];
  decided: Record<string, 'passed' | 'limited'>;
}
export type ThrottleCommand = { type: 'Pass'; runId: string; windowMs: number; limit: number; now: string };

/** At most `limit` runs pass per window; the rest are limited. Deciding a run twice repeats nothing. */
export const throttleDecider: Decider<ThrottleState, ThrottleCommand, ThrottleEvent> = {
  initialState: () => ({ passes: [], decided: {} }),
  evolve(state, event) {
    switch (event.type) {
      case 'ThrottlePassed':
        return { passes: [...state.passes, event.data.at], decided: { ...state.decided, [event.data.run_id]: 'passed' } };
      case 'ThrottleLimited':
        return { ...state, decided: { ...state.decided, [event.data.run_id]: 'limited' } };
      default:
        return assertNever(event);
    }
  },
  decide(command, state) {
    if (state.decided[command.runId]) return [];
    const { passed } = throttleWindow(state, command);
    return [{ type: passed ? 'ThrottlePassed' : 'ThrottleLimited', data: { run_id: command.runId, at: command.now } }];
  },
};

/** The window a throttle decision counts: passes after `since`; the run passes while fewer than the limit did. */
function throttleWindow(state: ThrottleState, command: ThrottleCommand) {
  const since = new Date(Date.parse(command.now) - command.windowMs).toISOString();
  const recent = state.passes.filter((at) => at > since).length;
  return { since, recent, passed: recent < command.limit };
}

/**
 * What a throttle decision saw (ADR 0239), from the same count `decide` makes: the window's start,
 * the passes in it, the limit. A run decided before keeps its recorded result (`repeated`).
 */
export function explainThrottle(state: ThrottleState, command: ThrottleCommand, key: string): ThrottleTraceT {
  const { since, recent, passed } = throttleWindow(state, command);
  const prior = state.decided[command.runId];
  return {
    key,
    limit: command.limit,
    window_ms: command.windowMs,
    window_start: since,
    passes_in_window: recent,
    result: (prior ? prior === 'passed' : passed) ? 'passed' : 'limited',
    ...(prior ? { repeated: true } : {}),
  };
}

/**
 * What a batch decision saw and did (ADR 0239): the batch the run's item went into (from `state`
 * and the `events` decided for it), its window, its items once the run's was added, and whether it
 * closed there and then. A run added before (no events) is shown in the open batch holding it.
 */
export function explainBatchAdd(
  state: BatchState,
  command: Extract<BatchCommand, { type: 'AddItem' }>,
  events: readonly BatchEvent[],
  key: string | null,
): BatchTraceT {
  let current = state;
  let mine: OpenBatch | undefined = state.open?.items.some((i) => i.runId === command.runId) ? state.open : undefined;
  let closed: BatchTraceT['closed'] = null;
  for (const event of events) {
    if (event.type === 'BatchClosed' && mine && event.data.batch_id === mine.batchId) closed = event.data.reason as BatchTraceT['closed'];
    current = batchDecider.evolve(current, event);
    if (current.open?.items.some((i) => i.runId === command.runId)) mine = current.open;
  }
  const role = current.roles[command.runId] ?? null;
  return {
    key,
    batch_id: mine?.batchId ?? null,
    role,
    mode: command.policy.mode,
    window_type: command.policy.windowType,
    opened_at: mine?.openedAt ?? null,
    closes_at: mine?.closesAt ?? null,
    extend_until: mine?.extendUntil ?? null,
    items: mine ? mine.items.filter((i) => i.role !== 'leading').length : 0,
    max_items: command.policy.maxItems,
    closed,
  };
}

export type FrequencyEvent = EventOf<typeof FrequencyClaimed>;
export interface FrequencyState {
  claimedBy?: string;
}
export type FrequencyCommand = { type: 'Claim'; runId: string; workflowRunId: string; now: string };

/** once_per_recipient: the first run claims the recipient; later runs find it claimed. */
export const frequencyDecider: Decider<FrequencyState, FrequencyCommand, FrequencyEvent> = {
  initialState: () => ({}),
  evolve: (_state, event) => ({ claimedBy: event.data.run_id }),
  decide: (command, state) =>
    state.claimedBy
      ? []
      : [{ type: 'FrequencyClaimed', data: { run_id: command.runId, workflow_run_id: command.workflowRunId, at: command.now } }],
};
