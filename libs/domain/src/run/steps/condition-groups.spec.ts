import { audienceKeysIn, conditionGroupHolds, explainConditionGroup, traceConditionGroup } from './condition-groups';

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

describe('traceConditionGroup (ADR 0219)', () => {
  const evaluate = (keys: string[]) => (c: { argument?: string | null }) => ({
    argument: c.argument ?? null,
    result: keys.includes(c.argument ?? ''),
  });
  const groups = [
    null,
    [member('a'), member('b')],
    { all: [member('a'), member('b')] },
    { any: [member('a'), { all: [member('b'), member('c')] }] },
    { any: [member('x'), { all: [member('b'), member('y')] }] },
  ];

  it('holds exactly when conditionGroupHolds does, for every shape', () => {
    for (const group of groups)
      for (const keys of [[], ['a'], ['b', 'c'], ['a', 'b', 'c']])
        expect(traceConditionGroup(group, evaluate(keys)).holds).toBe(conditionGroupHolds(group, (c) => keys.includes(c.argument ?? '')));
  });

  it('records every condition, nested all groups as such, not only those before the first that decided', () => {
    expect(traceConditionGroup({ all: [member('a'), member('b')] }, evaluate([]))).toEqual({
      holds: false,
      mode: 'all',
      conditions: [
        { argument: 'a', result: false },
        { argument: 'b', result: false },
      ],
    });
    expect(traceConditionGroup({ any: [member('a'), { all: [member('b'), member('c')] }] }, evaluate(['b']))).toEqual({
      holds: false,
      mode: 'any',
      conditions: [
        { argument: 'a', result: false },
        {
          all: [
            { argument: 'b', result: true },
            { argument: 'c', result: false },
          ],
          holds: false,
        },
      ],
    });
  });

  it('evaluates a run context into values compared', () => {
    const trace = explainConditionGroup(
      { all: [{ variable: 'data.plan', operator: 'equal_to', argument: 'pro' }] },
      {
        variables: { data: { plan: 'free' } },
        now: '2026-03-10T12:00:00.000Z',
      },
    );
    expect(trace).toEqual({
      holds: false,
      mode: 'all',
      conditions: [{ variable: 'data.plan', operator: 'equal_to', argument: 'pro', value: 'free', compared_to: 'pro', result: false }],
    });
  });
});
