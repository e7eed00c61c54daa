import { audienceKeysIn, conditionGroupHolds } from './condition-groups';

const member = (key: string) => ({ variable: 'recipient', operator: 'is_audience_member', argument: key });
const notMember = (key: string) => ({ variable: 'recipient', operator: 'is_not_audience_member', argument: key });
const plan = { variable: 'recipient.plan', operator: 'equal_to', argument: 'pro' };

describe('audienceKeysIn', () => {
  it('finds the audiences asked about in every shape of group, each once', () => {
    expect(audienceKeysIn([member('beta'), plan])).toEqual(['beta']);
    expect(audienceKeysIn({ all: [member('beta'), notMember('churned'), member('beta')] })).toEqual(['beta', 'churned']);
    expect(audienceKeysIn({ any: [plan, { all: [notMember('vip'), member('beta')] }, member('staff')] })).toEqual(['vip', 'beta', 'staff']);
  });

  it('finds none where no condition asks about audiences, or the argument is missing', () => {
    expect(audienceKeysIn(null)).toEqual([]);
    expect(audienceKeysIn({ all: [plan] })).toEqual([]);
    expect(
      audienceKeysIn([
        { variable: 'recipient', operator: 'is_audience_member', argument: null },
        { variable: 'recipient', operator: 'is_audience_member' },
      ]),
    ).toEqual([]);
  });
});

describe('conditionGroupHolds', () => {
  const holdsIf = (keys: string[]) => (c: { operator: string; argument?: string | null }) => keys.includes(c.argument ?? '');

  it('needs every member of all, one member of any', () => {
    expect(conditionGroupHolds({ all: [member('a'), member('b')] }, holdsIf(['a']))).toBe(false);
    expect(conditionGroupHolds({ any: [member('a'), { all: [member('b'), member('c')] }] }, holdsIf(['b', 'c']))).toBe(true);
    expect(conditionGroupHolds(null, holdsIf([]))).toBe(true);
  });
});
