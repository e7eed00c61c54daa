import type { PlannedSourceActionT, SourceMappingT, SourceSettingsT } from '@notify/contracts';
import { assertNever, Decider } from '../shared/decider';
import { invalidParams } from '../shared/errors';
import { SourceEvent, SourceLogEvent } from './source.events';
import { mappingProblems } from './mapping';

export type SourceMappingInput = Omit<SourceMappingT, 'created_at' | 'updated_at'>;

export type SourceCommand = {
  type: 'UpsertSource';
  key: string;
  name: string;
  custom_image_url: string | null;
  settings: SourceSettingsT;
  mappings: SourceMappingInput[];
  now: string;
};

export interface SourceState {
  exists: boolean;
  name: string | null;
  custom_image_url: string | null;
  settings: SourceSettingsT | null;
  mappings: SourceMappingT[];
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
const sameMapping = (a: SourceMappingInput, b: SourceMappingInput) =>
  a.event_type === b.event_type && a.action_type === b.action_type && same(a.action_parameters, b.action_parameters);

/**
 * A source's configuration in one environment (ADR 0195). Mappings keep their created_at across
 * upserts while they stay the same mapping; an upsert that changes nothing records nothing.
 */
export const sourceDecider: Decider<SourceState, SourceCommand, SourceEvent> = {
  initialState: () => ({ exists: false, name: null, custom_image_url: null, settings: null, mappings: [] }),

  evolve(state, event) {
    switch (event.type) {
      case 'SourceUpserted':
        return {
          exists: true,
          name: event.data.name,
          custom_image_url: event.data.custom_image_url,
          settings: event.data.settings,
          mappings: event.data.mappings,
        };
      default:
        return assertNever(event.type);
    }
  },

  decide(command, state) {
    switch (command.type) {
      case 'UpsertSource': {
        const problems = mappingProblems(command.mappings);
        if (problems.length) throw invalidParams(problems, 'One or more mappings of the source are invalid');
        const unused = [...state.mappings];
        const mappings: SourceMappingT[] = command.mappings.map((m) => {
          const i = unused.findIndex((old) => sameMapping(old, m));
          const previous = i >= 0 ? unused.splice(i, 1)[0] : undefined;
          const changed = !previous || previous.active !== m.active || previous.is_deleted !== m.is_deleted;
          return {
            ...m,
            created_at: previous?.created_at ?? command.now,
            updated_at: changed ? command.now : previous.updated_at,
          };
        });
        if (
          state.exists &&
          state.name === command.name &&
          state.custom_image_url === command.custom_image_url &&
          same(state.settings, command.settings) &&
          same(state.mappings, mappings)
        )
          return [];
        return [
          {
            type: 'SourceUpserted',
            data: {
              key: command.key,
              name: command.name,
              custom_image_url: command.custom_image_url,
              settings: command.settings,
              mappings,
              upserted_at: command.now,
            },
          },
        ];
      }
      default:
        return assertNever(command.type);
    }
  },
};

export type SourceLogCommand =
  | {
      type: 'RecordSourceEvent';
      logId: string;
      sourceKey: string;
      event: string;
      idempotencyKey: string | null;
      payload: { body: unknown; headers: Record<string, string> };
      actions: PlannedSourceActionT[];
      subject: string | null;
      now: string;
      /** The log this event replays (ADR 0246). */
      replayOf?: string;
    }
  | {
      type: 'RecordActionResults';
      logId: string;
      sourceKey: string;
      results: { id: string; status: 'ok' | 'error'; result: Record<string, unknown> | null }[];
      now: string;
    };

export interface SourceLogState {
  received: boolean;
  ran: boolean;
}

/** One received event: recorded once (a repeat of its idempotency key changes nothing), its actions' results once. */
export const sourceLogDecider: Decider<SourceLogState, SourceLogCommand, SourceLogEvent> = {
  initialState: () => ({ received: false, ran: false }),

  evolve(state, event) {
    switch (event.type) {
      case 'SourceEventReceived':
        return { ...state, received: true };
      case 'SourceActionsRan':
        return { ...state, ran: true };
      default:
        return assertNever(event);
    }
  },

  decide(command, state) {
    switch (command.type) {
      case 'RecordSourceEvent':
        if (state.received) return [];
        return [
          {
            type: 'SourceEventReceived',
            data: {
              log_id: command.logId,
              source_key: command.sourceKey,
              event: command.event,
              idempotency_key: command.idempotencyKey,
              payload: command.payload,
              actions: command.actions,
              subject: command.subject,
              received_at: command.now,
              ...(command.replayOf ? { replay_of: command.replayOf } : {}),
            },
          },
        ];
      case 'RecordActionResults':
        if (!state.received || state.ran) return [];
        return [
          {
            type: 'SourceActionsRan',
            data: { log_id: command.logId, source_key: command.sourceKey, results: command.results, ran_at: command.now },
          },
        ];
      default:
        return assertNever(command);
    }
  },
};
