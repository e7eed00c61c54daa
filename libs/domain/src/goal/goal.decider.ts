import type { GoalConditionT } from '@notify/contracts';
import { assertNever, Decider } from '../shared/decider';
import { invalidParams } from '../shared/errors';
import { GoalEvent } from './goal.events';

export type GoalCommand =
  | { type: 'UpsertGoal'; key: string; name: string; condition: GoalConditionT; sha: string; now: string }
  | { type: 'ArchiveGoal'; key: string; now: string };

export interface GoalState {
  exists: boolean;
  archived: boolean;
  sha: string | null;
}

/** A goal's definition in one environment (ADR 0196); archived, it leaves the lists until upserted again. */
export const goalDecider: Decider<GoalState, GoalCommand, GoalEvent> = {
  initialState: () => ({ exists: false, archived: false, sha: null }),

  evolve(state, event) {
    switch (event.type) {
      case 'GoalUpserted':
        return { exists: true, archived: false, sha: event.data.sha };
      case 'GoalArchived':
        return { ...state, archived: true };
      default:
        return assertNever(event);
    }
  },

  decide(command, state) {
    switch (command.type) {
      case 'UpsertGoal':
        // Match conditions are evaluated on recipient updates (ADR 0247); on other events they are not yet.
        if (command.condition.match_conditions?.length && command.condition.event.event_type !== 'recipient')
          throw invalidParams([
            {
              field: 'goal.condition.match_conditions',
              message: 'are supported on recipient events only: a source or audience goal converts on its event alone',
              type: 'unsupported',
            },
          ]);
        if (state.exists && !state.archived && state.sha === command.sha) return [];
        return [
          {
            type: 'GoalUpserted',
            data: { key: command.key, name: command.name, condition: command.condition, sha: command.sha, upserted_at: command.now },
          },
        ];
      case 'ArchiveGoal':
        if (!state.exists || state.archived) return [];
        return [{ type: 'GoalArchived', data: { key: command.key, archived_at: command.now } }];
      default:
        return assertNever(command);
    }
  },
};
