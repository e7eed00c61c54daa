import { deciderSpec } from '@notify/testing/decider-spec';
import { MemberEvent, memberDecider } from './member.decider';

const now = '2026-01-01T00:00:00.000Z';
const ids = { memberId: '00000000-0000-4000-8000-000000000001', userId: '00000000-0000-4000-8000-000000000002' };
const add = (role: 'admin' | 'member') => ({ type: 'AddMember' as const, email: 'jane@example.com', name: 'Jane', role, ...ids, now });
const added: MemberEvent = {
  type: 'MemberAdded',
  data: { member_id: ids.memberId, user_id: ids.userId, email: 'jane@example.com', name: 'Jane', role: 'admin', added_at: now },
};

describe('member decider', () => {
  const spec = deciderSpec(memberDecider);

  it('adds a member once; adding the address again changes its role or records nothing', () => {
    spec.given([]).when(add('admin')).then([added]);
    spec.given([added]).when(add('admin')).thenNothing();
    spec
      .given([added])
      .when(add('member'))
      .then([{ type: 'MemberRoleChanged', data: { member_id: ids.memberId, email: 'jane@example.com', role: 'member', changed_at: now } }]);
  });

  it('removes a member once', () => {
    const removed: MemberEvent = { type: 'MemberRemoved', data: { member_id: ids.memberId, email: 'jane@example.com', removed_at: now } };
    spec.given([added]).when({ type: 'RemoveMember', now }).then([removed]);
    spec.given([added, removed]).when({ type: 'RemoveMember', now }).thenNothing();
  });
});
