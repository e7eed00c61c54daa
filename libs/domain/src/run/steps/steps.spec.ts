import { cohortBranch } from './cohort';
import { conditionGroupHolds } from './condition-groups';
import { delayUntil } from './delay';
import { addDuration, readPath, toInstant } from './durations';
import { nextSendTime, SendWindow } from './send-windows';

const now = new Date('2026-03-02T10:00:00.000Z'); // a Monday

describe('durations', () => {
  it('adds fixed units and calendar months', () => {
    expect(addDuration(now, { unit: 'minutes', value: 90 }).toISOString()).toBe('2026-03-02T11:30:00.000Z');
    expect(addDuration(now, { unit: 'weeks', value: 1 }).toISOString()).toBe('2026-03-09T10:00:00.000Z');
    expect(addDuration(new Date('2026-01-31T00:00:00Z'), { unit: 'months', value: 1 }).toISOString()).toBe('2026-03-03T00:00:00.000Z');
  });

  it('reads dotted paths and timestamps in several forms', () => {
    expect(readPath({ data: { a: { b: 2 } } }, 'data.a.b')).toBe(2);
    expect(readPath({ data: null }, 'data.a')).toBeUndefined();
    expect(toInstant('2026-03-02T12:00:00Z')?.toISOString()).toBe('2026-03-02T12:00:00.000Z');
    expect(toInstant(1772452800)?.toISOString()).toBe('2026-03-02T12:00:00.000Z');
    expect(toInstant(1772452800000)?.toISOString()).toBe('2026-03-02T12:00:00.000Z');
    expect(toInstant('soon')).toBeUndefined();
  });
});

describe('delayUntil', () => {
  const vars = { data: { at: '2026-03-02T12:00:00Z', past: '2026-03-01T00:00:00Z' } };
  it.each([
    [{ delay_for: { unit: 'minutes', value: 5 } }, false, '2026-03-02T10:05:00.000Z'],
    [{ delay_until_field_path: 'data.at' }, false, '2026-03-02T12:00:00.000Z'],
    [{ delay_until_field_path: 'data.at', delay_for: { unit: 'hours', value: 1 } }, false, '2026-03-02T13:00:00.000Z'],
    [{ delay_until_field_path: 'data.past' }, false, null],
    [{ delay_until_field_path: 'data.missing' }, false, null],
    [{ delay_until_field_path: 'data.missing', delay_for: { unit: 'seconds', value: 30 } }, false, '2026-03-02T10:00:30.000Z'],
    [{ delay_for: { unit: 'days', value: 1 } }, true, null],
  ] as const)('%j (skip_delay %s) waits until %s', (settings, skip, expected) => {
    expect(delayUntil(settings as never, vars, now, skip)?.toISOString() ?? null).toBe(expected);
  });
});

describe('nextSendTime', () => {
  const weekdays9to17: SendWindow[] = [
    ...(['monday', 'tuesday', 'wednesday', 'thursday', 'friday'] as const).map((day): SendWindow => ({
      day,
      type: 'send',
      from: '09:00',
      until: '17:00',
    })),
    ...(['saturday', 'sunday'] as const).map((day): SendWindow => ({ day, type: 'do_not_send', from: null, until: null })),
  ];

  it('sends now without windows or inside one', () => {
    expect(nextSendTime(null, 'UTC', now)).toEqual(now);
    expect(nextSendTime(weekdays9to17, 'UTC', now)).toEqual(now);
  });

  it('waits for the window to open in the recipient time zone', () => {
    // 10:00 UTC is 05:00 in New York (EST, UTC-5): wait until 09:00 local = 14:00 UTC.
    expect(nextSendTime(weekdays9to17, 'America/New_York', now)?.toISOString()).toBe('2026-03-02T14:00:00.000Z');
    // 18:00 UTC on Friday: next opening is Monday 09:00.
    expect(nextSendTime(weekdays9to17, 'UTC', new Date('2026-03-06T18:00:00Z'))?.toISOString()).toBe('2026-03-09T09:00:00.000Z');
  });

  it('falls back to UTC for an unknown time zone and returns null when nothing ever opens', () => {
    expect(nextSendTime(weekdays9to17, 'Mars/Olympus', now)).toEqual(now);
    const never = (['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const).map((day) => ({
      day,
      type: 'do_not_send' as const,
    }));
    expect(nextSendTime(never, 'UTC', now)).toBeNull();
  });
});

describe('cohortBranch', () => {
  it('is deterministic per key and spreads keys by percentage', () => {
    expect(cohortBranch(['50', '50'], 'user-1', 'step')).toBe(cohortBranch(['50', '50'], 'user-1', 'step'));
    const counts = [0, 0, 0];
    for (let i = 0; i < 10_000; i++) counts[cohortBranch([20, 30.5, 49.5], `user-${i}`, 'exp')]++;
    expect(counts[0] / 10_000).toBeCloseTo(0.2, 1);
    expect(counts[1] / 10_000).toBeCloseTo(0.305, 1);
    expect(counts[2] / 10_000).toBeCloseTo(0.495, 1);
  });
});

describe('conditionGroupHolds', () => {
  const truthy = (c: { variable: string }) => c.variable.startsWith('yes');
  it('handles all, any with nested all, plain lists and absence', () => {
    expect(conditionGroupHolds(null, truthy)).toBe(true);
    expect(
      conditionGroupHolds(
        {
          all: [
            { variable: 'yes1', operator: 'x' },
            { variable: 'no', operator: 'x' },
          ],
        },
        truthy,
      ),
    ).toBe(false);
    expect(conditionGroupHolds({ any: [{ variable: 'no', operator: 'x' }, { all: [{ variable: 'yes', operator: 'x' }] }] }, truthy)).toBe(
      true,
    );
    expect(conditionGroupHolds([{ variable: 'yes', operator: 'x' }], truthy)).toBe(true);
  });
});
