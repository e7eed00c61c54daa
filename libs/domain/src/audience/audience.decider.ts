import { assertNever, Decider } from '../shared/decider';
import { resourceMissing } from '../shared/errors';
import { AudienceCommand, MemberCandidate } from './audience.commands';
import { AudienceEvent } from './audience.events';

/**
 * The audience's own facts. Membership is not folded here: a large audience holds many
 * thousands of members, so whether one is present comes in with the command (ADR 0170).
 */
export interface AudienceState {
  exists: boolean;
}

const memberKey = (m: { userId: string; tenant: string | null }) => `${m.userId}\u0000${m.tenant ?? ''}`;

/** Each member once, in the order first given. */
function distinct(members: MemberCandidate[]): MemberCandidate[] {
  return [...new Map(members.map((m) => [memberKey(m), m])).values()];
}

const refs = (members: MemberCandidate[]) => members.map((m) => ({ user_id: m.userId, tenant: m.tenant }));

export const audienceDecider: Decider<AudienceState, AudienceCommand, AudienceEvent> = {
  initialState: () => ({ exists: false }),

  evolve(state, event) {
    switch (event.type) {
      case 'AudienceCreated':
        return { exists: true };
      case 'AudienceArchived':
        return { exists: false };
      case 'AudienceMembersAdded':
      case 'AudienceMembersRemoved':
        return state;
      default:
        return assertNever(event);
    }
  },

  decide(command, state) {
    switch (command.type) {
      case 'AddAudienceMembers': {
        const exists = state.exists || command.defined === true;
        if (!exists && !command.createIfMissing) throw resourceMissing('audience');
        const created: AudienceEvent[] = exists
          ? []
          : [{ type: 'AudienceCreated', data: { audience_key: command.audienceKey, type: 'static', created_at: command.now } }];
        const added = distinct(command.members).filter((m) => !m.present);
        if (added.length === 0) return created;
        return [
          ...created,
          { type: 'AudienceMembersAdded', data: { audience_key: command.audienceKey, members: refs(added), added_at: command.now } },
        ];
      }
      case 'RemoveAudienceMembers': {
        if (!state.exists && command.defined !== true) throw resourceMissing('audience');
        const removed = distinct(command.members).filter((m) => m.present);
        if (removed.length === 0) return [];
        return [
          { type: 'AudienceMembersRemoved', data: { audience_key: command.audienceKey, members: refs(removed), removed_at: command.now } },
        ];
      }
      case 'ArchiveAudience':
        // An audience that exists neither here nor through its definition has nothing to archive.
        if (!state.exists && !command.defined) return [];
        return [{ type: 'AudienceArchived', data: { audience_key: command.audienceKey, archived_at: command.now } }];
      default:
        return assertNever(command);
    }
  },
};
