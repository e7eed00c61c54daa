import type { AudienceSegmentT } from '@notify/contracts';
import { looksLikeRelativeTime, relativeOffset } from '../preferences/conditions';
import { segmentArgumentErrors } from './segment-arguments';

const condition = (operator: string, argument: string | null, property = 'recipient.created_at') =>
  ({ property, operator, argument }) as AudienceSegmentT['conditions'][number];
const errorsOf = (...conditions: AudienceSegmentT['conditions']) =>
  segmentArgumentErrors([{ conditions }], 'audience.segments').map((e) => e.field);

describe('relative-time arguments of segment conditions (ADR 0265)', () => {
  it('tells the shape of a relative time from other text', () => {
    const shaped = ['banana_days_ago', '30_months_ago', '3 months ago', '2 weeks from now', '2_wks_from_now', '30_days', '1.5 hours'];
    const valid = ['now', '30_days_ago', '2_weeks_from_now', '-3 days', '+2 hours', '3 days ago', '1 day ago'];
    for (const s of [...shaped, ...valid, 'NOW', 'today']) expect([s, looksLikeRelativeTime(s)]).toEqual([s, true]);
    for (const s of ['pro', '5', '-12.5', '2030-01-01T00:00:00Z', '1767225600', 'days', 'nowhere', 'chicago']) {
      expect([s, looksLikeRelativeTime(s)]).toEqual([s, false]);
    }
    // Those that have the shape but are read by no condition are the ones refused.
    expect(shaped.filter((s) => relativeOffset(s) !== undefined)).toEqual([]);
    expect(valid.filter((s) => relativeOffset(s) === undefined)).toEqual([]);
  });

  it('refuses one that is not readable where the operator reads a time, naming the argument', () => {
    const errors = segmentArgumentErrors(
      [
        { conditions: [condition('equal_to', 'pro', 'recipient.plan')] },
        { conditions: [condition('equal_to', 'pro', 'recipient.plan'), condition('greater_than', 'banana_days_ago')] },
      ],
      'audience.segments',
    );
    expect(errors).toEqual([
      { field: 'audience.segments.1.conditions.1.argument', message: expect.stringContaining('"banana_days_ago"'), type: 'invalid_value' },
    ]);
    for (const operator of ['less_than_or_equal_to', 'is_timestamp_before', 'is_timestamp_on_or_after_date']) {
      expect(errorsOf(condition(operator, '3 months ago'))).toEqual(['audience.segments.0.conditions.0.argument']);
    }
  });

  it('reads each bound of is_timestamp_between', () => {
    expect(errorsOf(condition('is_timestamp_between', '30_days_ago, now'))).toEqual([]);
    expect(errorsOf(condition('is_timestamp_between', '["2030-01-01", "2_weeks_from_now"]'))).toEqual([]);
    expect(errorsOf(condition('is_timestamp_between', '30_days_ago, 2 weeks from now'))).toEqual([
      'audience.segments.0.conditions.0.argument',
    ]);
  });

  it('accepts valid relative times, absolute times, numbers, variables, and any text where no time is read', () => {
    expect(
      errorsOf(
        condition('greater_than', '30_days_ago'),
        condition('greater_than', '-3 days'),
        condition('less_than', 'now'),
        condition('greater_than', '2030-01-01T00:00:00Z'),
        condition('greater_than', '5', 'recipient.age'),
        condition('greater_than', 'recipient.signup_days_ago'),
        condition('equal_to', 'banana_days_ago', 'recipient.plan'),
        condition('contains', '3 months ago', 'recipient.note'),
        condition('is_between', '1_days_ago, 2'),
        condition('is_timestamp_before_now', null),
      ),
    ).toEqual([]);
  });
});
