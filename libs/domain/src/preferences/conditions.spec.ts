import { CONDITION_OPERATORS } from '@notify/contracts';
import { Condition, evaluateCondition, explainCondition, MAX_RECORDED_JSON, toTime } from './conditions';

const now = '2026-03-10T12:00:00.000Z';
const variables = {
  recipient: {
    plan: 'pro',
    seats: 12,
    tags: ['vip', 'beta'],
    email: 'ada@example.com',
    muted: ['rex'],
    empty_list: [],
    nothing: null,
    signed_up_at: '2026-03-01T09:00:00Z',
    unix: 1773000000,
  },
  data: { dino: 'rex', other: 'blue', score: '7.5', meta: {}, future: '2999-01-01T00:00:00Z' },
};
const ctx = { variables, now, audiences: ['beta-testers'] };
const check = (variable: string, operator: Condition['operator'], argument: string | null) =>
  evaluateCondition({ variable, operator, argument }, ctx);

describe('condition operators', () => {
  // Each row: operator, variable, argument, expected. Every operator appears with a true and a false case.
  const table: [Condition['operator'], string, string | null, boolean][] = [
    ['equal_to', 'recipient.plan', 'pro', true],
    ['equal_to', 'recipient.seats', '12', true],
    ['equal_to', 'recipient.plan', 'free', false],
    ['not_equal_to', 'recipient.plan', 'free', true],
    ['not_equal_to', 'recipient.plan', 'pro', false],
    ['greater_than', 'recipient.seats', '10', true],
    ['greater_than', 'recipient.seats', '12', false],
    ['greater_than', 'recipient.plan', '3', false],
    ['less_than', 'data.score', '8', true],
    ['less_than', 'data.score', '7.5', false],
    ['greater_than_or_equal_to', 'recipient.seats', '12', true],
    ['greater_than_or_equal_to', 'recipient.seats', '13', false],
    ['less_than_or_equal_to', 'recipient.seats', '12', true],
    ['less_than_or_equal_to', 'recipient.seats', '11', false],
    ['contains', 'recipient.tags', 'vip', true],
    ['contains', 'recipient.email', '@example.com', true],
    ['contains', 'recipient.tags', 'gold', false],
    ['contains', 'recipient.missing', 'x', false],
    ['not_contains', 'recipient.tags', 'gold', true],
    ['not_contains', 'recipient.tags', 'beta', false],
    ['empty', 'recipient.empty_list', null, true],
    ['empty', 'recipient.missing', null, true],
    ['empty', 'data.meta', null, true],
    ['empty', 'recipient.tags', null, false],
    ['not_empty', 'recipient.tags', null, true],
    ['not_empty', 'recipient.nothing', null, false],
    ['exists', 'recipient.plan', null, true],
    ['exists', 'recipient.nothing', null, false],
    ['not_exists', 'recipient.missing', null, true],
    ['not_exists', 'recipient.plan', null, false],
    ['contains_all', 'recipient.tags', 'vip,beta', true],
    ['contains_all', 'recipient.tags', '["vip","beta"]', true],
    ['contains_all', 'recipient.tags', 'vip,gold', false],
    ['not_contains_all', 'recipient.tags', 'vip,gold', true],
    ['not_contains_all', 'recipient.tags', 'beta,vip', false],
    ['is_timestamp', 'recipient.signed_up_at', null, true],
    ['is_timestamp', 'recipient.unix', null, true],
    ['is_timestamp', 'recipient.plan', null, false],
    ['is_not_timestamp', 'recipient.plan', null, true],
    ['is_not_timestamp', 'recipient.signed_up_at', null, false],
    ['is_timestamp_on_or_after', 'recipient.signed_up_at', '2026-03-01T09:00:00Z', true],
    ['is_timestamp_on_or_after', 'recipient.signed_up_at', '-7 days', false],
    ['is_timestamp_on_or_after', 'recipient.signed_up_at', '10 days ago', true],
    ['is_timestamp_before', 'recipient.signed_up_at', 'now', true],
    ['is_timestamp_before', 'recipient.signed_up_at', '2026-03-01T09:00:00Z', false],
    ['is_timestamp_on_or_after_date', 'recipient.signed_up_at', '2026-03-01T23:59:00Z', true],
    ['is_timestamp_on_or_after_date', 'recipient.signed_up_at', '2026-03-02', false],
    ['is_timestamp_before_date', 'recipient.signed_up_at', '2026-03-02', true],
    ['is_timestamp_before_date', 'recipient.signed_up_at', '2026-03-01T00:00:00Z', false],
    ['is_timestamp_before_now', 'recipient.signed_up_at', null, true],
    ['is_timestamp_before_now', 'data.dino', null, false],
    ['is_timestamp_on_or_after_now', 'recipient.signed_up_at', null, false],
    ['is_timestamp_on_or_after_now', 'data.future', null, true],
    ['is_timestamp_between', 'recipient.signed_up_at', '2026-02-01T00:00:00Z,2026-03-05T00:00:00Z', true],
    ['is_timestamp_between', 'recipient.signed_up_at', '["2026-03-02T00:00:00Z","2026-03-05T00:00:00Z"]', false],
    ['is_between', 'recipient.seats', '10,20', true],
    ['is_between', 'recipient.seats', '12,12', true],
    ['is_between', 'recipient.seats', '13,20', false],
    ['is_between', 'recipient.plan', '1,2', false],
    ['is_audience_member', 'recipient', 'beta-testers', true],
    ['is_audience_member', 'recipient', 'churned', false],
    ['is_not_audience_member', 'recipient', 'churned', true],
    ['is_not_audience_member', 'recipient', 'beta-testers', false],
  ];

  it.each(table)('%s %s %s -> %s', (operator, variable, argument, expected) => {
    expect(check(variable, operator, argument)).toBe(expected);
  });

  it('covers every operator of the contract', () => {
    expect(new Set(table.map((row) => row[0]))).toEqual(new Set(CONDITION_OPERATORS));
  });

  it('reads an argument naming a variable from the run, the classic per-recipient mute', () => {
    expect(check('recipient.muted', 'not_contains', 'data.dino')).toBe(false);
    expect(check('recipient.muted', 'not_contains', 'data.other')).toBe(true);
    // A path that resolves to nothing stays literal.
    expect(check('recipient.plan', 'equal_to', 'data.absent')).toBe(false);
  });

  it('reads timestamps as ISO, unix seconds, unix milliseconds, now and relative offsets', () => {
    expect(toTime('2026-03-10T12:00:00Z', now)).toBe(Date.parse(now));
    expect(toTime(1773144000, now)).toBe(1773144000000);
    expect(toTime(1773144000000, now)).toBe(1773144000000);
    expect(toTime('now', now)).toBe(Date.parse(now));
    expect(toTime('+2 hours', now)).toBe(Date.parse(now) + 7_200_000);
    expect(toTime('nonsense', now)).toBeUndefined();
  });
});

describe('explainCondition: what a condition compared (ADR 0219)', () => {
  it('records the variable, its value, the operator, the argument as written and as compared, and the result', () => {
    expect(explainCondition({ variable: 'recipient.plan', operator: 'equal_to', argument: 'free' }, ctx)).toEqual({
      variable: 'recipient.plan',
      operator: 'equal_to',
      argument: 'free',
      value: 'pro',
      compared_to: 'free',
      result: false,
    });
    // An argument naming a variable is recorded by the value it was compared as.
    expect(explainCondition({ variable: 'recipient.muted', operator: 'contains', argument: 'data.dino' }, ctx)).toMatchObject({
      argument: 'data.dino',
      value: ['rex'],
      compared_to: 'rex',
      result: true,
    });
    expect(explainCondition({ variable: 'recipient.absent', operator: 'exists', argument: null }, ctx)).toMatchObject({
      value: null,
      compared_to: null,
      result: false,
    });
    // Audience operators record the audiences asked about that the recipient is in.
    expect(explainCondition({ variable: 'recipient', operator: 'is_audience_member', argument: 'churned' }, ctx)).toMatchObject({
      value: ['beta-testers'],
      result: false,
    });
  });

  it('gives the same result as evaluateCondition for every operator', () => {
    for (const operator of CONDITION_OPERATORS)
      for (const [variable, argument] of [
        ['recipient.plan', 'pro'],
        ['recipient.tags', 'vip'],
        ['recipient.signed_up_at', '2026-01-01T00:00:00Z,2026-12-31T00:00:00Z'],
        ['data.score', '1,10'],
      ] as const) {
        const c = { variable, operator, argument };
        expect(explainCondition(c, ctx).result).toBe(evaluateCondition(c, ctx));
      }
  });

  it('cuts a long value to a preview rather than copy it whole into the log', () => {
    const long = 'x'.repeat(MAX_RECORDED_JSON * 2);
    const e = explainCondition({ variable: 'data.long', operator: 'equal_to', argument: 'y' }, { variables: { data: { long } }, now });
    expect(e.value).toEqual({ $truncated: true, length: long.length + 2, preview: JSON.stringify(long).slice(0, 200) });
  });
});
