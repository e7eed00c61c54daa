import type { EventOf, MemberAdded, MemberRekeyed, MemberRemoved, MemberRoleChanged, MemberRoleT } from '@notify/contracts';
import { assertNever, Decider } from '../shared/decider';

export type MemberEvent =
  EventOf<typeof MemberAdded> | EventOf<typeof MemberRoleChanged> | EventOf<typeof MemberRemoved> | EventOf<typeof MemberRekeyed>;
export type MemberCommand =
  /** `memberId`, `userId`: new ids, used when the address is not a member yet. */
  | { type: 'AddMember'; email: string; name: string | null; role: MemberRoleT; memberId: string; userId: string; now: string }
  | { type: 'RemoveMember'; now: string };
export interface MemberState {
  current?: { memberId: string; userId: string; email: string; name: string | null; role: MemberRoleT; addedAt: string };
}

/**
 * One member per email address (the stream is keyed by it): adding an address again changes its
 * role, or records nothing; removing one that is not a member records nothing.
 */
export const memberDecider: Decider<MemberState, MemberCommand, MemberEvent> = {
  initialState: () => ({}),
  evolve(state, event) {
    switch (event.type) {
      case 'MemberAdded':
        return {
          current: {
            memberId: event.data.member_id,
            userId: event.data.user_id,
            email: event.data.email,
            name: event.data.name,
            role: event.data.role,
            addedAt: event.data.added_at,
          },
        };
      case 'MemberRoleChanged':
        return state.current ? { current: { ...state.current, role: event.data.role } } : state;
      case 'MemberRemoved':
      case 'MemberRekeyed':
        return {};
      default:
        return assertNever(event);
    }
  },
  decide(command, state) {
    switch (command.type) {
      case 'AddMember': {
        const c = state.current;
        if (!c) {
          const { memberId, userId, email, name, role, now } = command;
          return [{ type: 'MemberAdded', data: { member_id: memberId, user_id: userId, email, name, role, added_at: now } }];
        }
        if (c.role === command.role) return [];
        return [
          { type: 'MemberRoleChanged', data: { member_id: c.memberId, email: c.email, role: command.role, changed_at: command.now } },
        ];
      }
      case 'RemoveMember':
        if (!state.current) return [];
        return [
          { type: 'MemberRemoved', data: { member_id: state.current.memberId, email: state.current.email, removed_at: command.now } },
        ];
      default:
        return assertNever(command);
    }
  },
};
