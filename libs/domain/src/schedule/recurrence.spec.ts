import { nextOccurrence, occurrences, Recurrence, RepeatRule, resolveLocal, wallTime } from './recurrence';
import { Temporal } from 'temporal-polyfill';

const rule = (r: Partial<RepeatRule> & Pick<RepeatRule, 'frequency'>): RepeatRule => ({
  interval: 1,
  days: null,
  day_of_month: null,
  hours: null,
  minutes: null,
  ...r,
});
const rec = (repeats: RepeatRule[], anchor: string, extra: Partial<Recurrence> = {}): Recurrence => ({
  repeats,
  scheduledAt: null,
  endingAt: null,
  anchor,
  ...extra,
});

interface Row {
  name: string;
  recurrence: Recurrence;
  zone: string;
  notBefore: string;
  afterLocal?: string | null;
  limit?: number;
  /** `local -> UTC instant` (and ` gap` when moved out of a DST gap). */
  expected: string[];
}

const show = (o: { local: string; at: string; adjusted: string | null }) => `${o.local} -> ${o.at}${o.adjusted ? ` ${o.adjusted}` : ''}`;

const table: Row[] = [
  // Every frequency and field, in UTC.
  {
    name: 'daily at 09:15',
    recurrence: rec([rule({ frequency: 'daily', hours: 9, minutes: 15 })], '2026-01-01T00:00:00Z'),
    zone: 'UTC',
    notBefore: '2026-01-05T09:15:00Z',
    limit: 3,
    expected: [
      '2026-01-05T09:15 -> 2026-01-05T09:15:00Z',
      '2026-01-06T09:15 -> 2026-01-06T09:15:00Z',
      '2026-01-07T09:15 -> 2026-01-07T09:15:00Z',
    ],
  },
  {
    name: 'daily with no time: midnight',
    recurrence: rec([rule({ frequency: 'daily' })], '2026-01-01T00:00:00Z'),
    zone: 'UTC',
    notBefore: '2026-01-05T00:00:01Z',
    limit: 2,
    expected: ['2026-01-06T00:00 -> 2026-01-06T00:00:00Z', '2026-01-07T00:00 -> 2026-01-07T00:00:00Z'],
  },
  {
    name: 'daily every 3rd day, counted from the anchor date',
    recurrence: rec([rule({ frequency: 'daily', interval: 3, hours: 8 })], '2026-01-02T20:00:00Z'),
    zone: 'UTC',
    notBefore: '2026-01-03T00:00:00Z',
    limit: 3,
    expected: [
      '2026-01-05T08:00 -> 2026-01-05T08:00:00Z',
      '2026-01-08T08:00 -> 2026-01-08T08:00:00Z',
      '2026-01-11T08:00 -> 2026-01-11T08:00:00Z',
    ],
  },
  {
    name: 'daily on weekdays only (2026-01-09 is a Friday)',
    recurrence: rec(
      [rule({ frequency: 'daily', days: ['mon', 'tue', 'wed', 'thu', 'fri'], hours: 7, minutes: 30 })],
      '2026-01-01T00:00:00Z',
    ),
    zone: 'UTC',
    notBefore: '2026-01-09T08:00:00Z',
    limit: 2,
    expected: ['2026-01-12T07:30 -> 2026-01-12T07:30:00Z', '2026-01-13T07:30 -> 2026-01-13T07:30:00Z'],
  },
  {
    name: 'weekly on tue and thu, every 2nd week from the anchor week',
    recurrence: rec([rule({ frequency: 'weekly', interval: 2, days: ['tue', 'thu'], hours: 17 })], '2026-01-05T12:00:00Z'),
    zone: 'UTC',
    notBefore: '2026-01-05T12:00:00Z',
    limit: 4,
    expected: [
      '2026-01-06T17:00 -> 2026-01-06T17:00:00Z',
      '2026-01-08T17:00 -> 2026-01-08T17:00:00Z',
      '2026-01-20T17:00 -> 2026-01-20T17:00:00Z',
      '2026-01-22T17:00 -> 2026-01-22T17:00:00Z',
    ],
  },
  {
    name: "weekly with no days: the anchor's weekday (2026-01-07 is a Wednesday)",
    recurrence: rec([rule({ frequency: 'weekly', hours: 10 })], '2026-01-07T06:00:00Z'),
    zone: 'UTC',
    notBefore: '2026-01-07T06:00:00Z',
    limit: 2,
    expected: ['2026-01-07T10:00 -> 2026-01-07T10:00:00Z', '2026-01-14T10:00 -> 2026-01-14T10:00:00Z'],
  },
  {
    name: 'monthly on the 31st: the last day of shorter months',
    recurrence: rec([rule({ frequency: 'monthly', day_of_month: 31, hours: 12 })], '2026-01-01T00:00:00Z'),
    zone: 'UTC',
    notBefore: '2026-01-01T00:00:00Z',
    limit: 4,
    expected: [
      '2026-01-31T12:00 -> 2026-01-31T12:00:00Z',
      '2026-02-28T12:00 -> 2026-02-28T12:00:00Z',
      '2026-03-31T12:00 -> 2026-03-31T12:00:00Z',
      '2026-04-30T12:00 -> 2026-04-30T12:00:00Z',
    ],
  },
  {
    name: 'monthly on the 29th: February 29 in a leap year, the 28th otherwise',
    recurrence: rec([rule({ frequency: 'monthly', day_of_month: 29, interval: 12 })], '2027-02-01T00:00:00Z'),
    zone: 'UTC',
    notBefore: '2027-02-01T00:00:00Z',
    limit: 2,
    expected: ['2027-02-28T00:00 -> 2027-02-28T00:00:00Z', '2028-02-29T00:00 -> 2028-02-29T00:00:00Z'],
  },
  {
    name: "monthly with no day: the anchor's day, every 2nd month",
    recurrence: rec([rule({ frequency: 'monthly', interval: 2, hours: 6 })], '2026-01-15T00:00:00Z'),
    zone: 'UTC',
    notBefore: '2026-01-15T00:00:00Z',
    limit: 3,
    expected: [
      '2026-01-15T06:00 -> 2026-01-15T06:00:00Z',
      '2026-03-15T06:00 -> 2026-03-15T06:00:00Z',
      '2026-05-15T06:00 -> 2026-05-15T06:00:00Z',
    ],
  },
  {
    name: 'monthly on the 1st, only when it is a Monday',
    recurrence: rec([rule({ frequency: 'monthly', day_of_month: 1, days: ['mon'], hours: 9 })], '2026-01-01T00:00:00Z'),
    zone: 'UTC',
    notBefore: '2026-01-01T00:00:00Z',
    limit: 2,
    expected: ['2026-06-01T09:00 -> 2026-06-01T09:00:00Z', '2027-02-01T09:00 -> 2027-02-01T09:00:00Z'],
  },
  {
    name: 'hourly at :20',
    recurrence: rec([rule({ frequency: 'hourly', minutes: 20 })], '2026-01-01T00:00:00Z'),
    zone: 'UTC',
    notBefore: '2026-01-01T22:30:00Z',
    limit: 3,
    expected: [
      '2026-01-01T23:20 -> 2026-01-01T23:20:00Z',
      '2026-01-02T00:20 -> 2026-01-02T00:20:00Z',
      '2026-01-02T01:20 -> 2026-01-02T01:20:00Z',
    ],
  },
  {
    name: "hourly every 5th hour from the anchor's hour, across midnight",
    recurrence: rec([rule({ frequency: 'hourly', interval: 5 })], '2026-01-01T07:40:00Z'),
    zone: 'UTC',
    notBefore: '2026-01-01T08:00:00Z',
    limit: 4,
    expected: [
      '2026-01-01T12:00 -> 2026-01-01T12:00:00Z',
      '2026-01-01T17:00 -> 2026-01-01T17:00:00Z',
      '2026-01-01T22:00 -> 2026-01-01T22:00:00Z',
      '2026-01-02T03:00 -> 2026-01-02T03:00:00Z',
    ],
  },
  {
    name: 'hourly on Saturdays only (2026-01-03 is a Saturday)',
    recurrence: rec([rule({ frequency: 'hourly', interval: 12, days: ['sat'], minutes: 5 })], '2026-01-01T00:00:00Z'),
    zone: 'UTC',
    notBefore: '2026-01-01T00:00:00Z',
    limit: 3,
    expected: [
      '2026-01-03T00:05 -> 2026-01-03T00:05:00Z',
      '2026-01-03T12:05 -> 2026-01-03T12:05:00Z',
      '2026-01-10T00:05 -> 2026-01-10T00:05:00Z',
    ],
  },
  {
    name: 'several rules: a union, one occurrence for a time two rules name',
    recurrence: rec(
      [
        rule({ frequency: 'daily', hours: 9 }),
        rule({ frequency: 'weekly', days: ['mon'], hours: 18 }),
        rule({ frequency: 'weekly', days: ['tue'], hours: 9 }),
      ],
      '2026-01-01T00:00:00Z',
    ),
    zone: 'UTC',
    notBefore: '2026-01-05T00:00:00Z',
    limit: 4,
    expected: [
      '2026-01-05T09:00 -> 2026-01-05T09:00:00Z',
      '2026-01-05T18:00 -> 2026-01-05T18:00:00Z',
      '2026-01-06T09:00 -> 2026-01-06T09:00:00Z',
      '2026-01-07T09:00 -> 2026-01-07T09:00:00Z',
    ],
  },
  {
    name: 'scheduled_at alone: one occurrence at that instant',
    recurrence: rec([], '2026-01-01T00:00:00Z', { scheduledAt: '2026-02-03T04:05:00Z' }),
    zone: 'Europe/Berlin',
    notBefore: '2026-01-01T00:00:00Z',
    limit: 3,
    expected: ['2026-02-03T05:05 -> 2026-02-03T04:05:00Z'],
  },
  {
    name: 'scheduled_at alone, in the past of the window: nothing',
    recurrence: rec([], '2026-01-01T00:00:00Z', { scheduledAt: '2026-02-03T04:05:00Z' }),
    zone: 'UTC',
    notBefore: '2026-02-03T04:05:01Z',
    expected: [],
  },
  {
    name: 'scheduled_at with repeats: nothing before it',
    recurrence: rec([rule({ frequency: 'daily', hours: 9 })], '2026-03-10T12:00:00Z', { scheduledAt: '2026-03-10T12:00:00Z' }),
    zone: 'UTC',
    notBefore: '2026-01-01T00:00:00Z',
    limit: 2,
    expected: ['2026-03-11T09:00 -> 2026-03-11T09:00:00Z', '2026-03-12T09:00 -> 2026-03-12T09:00:00Z'],
  },
  {
    name: 'ending_at: nothing after it',
    recurrence: rec([rule({ frequency: 'daily', hours: 9 })], '2026-01-01T00:00:00Z', { endingAt: '2026-01-03T09:00:00Z' }),
    zone: 'UTC',
    notBefore: '2026-01-01T00:00:00Z',
    limit: 10,
    expected: [
      '2026-01-01T09:00 -> 2026-01-01T09:00:00Z',
      '2026-01-02T09:00 -> 2026-01-02T09:00:00Z',
      '2026-01-03T09:00 -> 2026-01-03T09:00:00Z',
    ],
  },
  {
    name: 'after a fired local date-time: the ones after it',
    recurrence: rec([rule({ frequency: 'daily', hours: 9 })], '2026-01-01T00:00:00Z'),
    zone: 'UTC',
    notBefore: '2026-01-01T00:00:00Z',
    afterLocal: '2026-01-04T09:00',
    limit: 1,
    expected: ['2026-01-05T09:00 -> 2026-01-05T09:00:00Z'],
  },

  // America/New_York: clocks go forward 2026-03-08 02:00 EST -> 03:00 EDT, back 2026-11-01 02:00 EDT -> 01:00 EST.
  {
    name: 'New York, spring: daily 02:30 fires once, at 03:00 EDT, the first instant after the gap',
    recurrence: rec([rule({ frequency: 'daily', hours: 2, minutes: 30 })], '2026-03-01T00:00:00Z'),
    zone: 'America/New_York',
    notBefore: '2026-03-07T00:00:00Z',
    limit: 3,
    expected: [
      '2026-03-07T02:30 -> 2026-03-07T07:30:00Z',
      '2026-03-08T02:30 -> 2026-03-08T07:00:00Z gap',
      '2026-03-09T02:30 -> 2026-03-09T06:30:00Z',
    ],
  },
  {
    name: 'New York, autumn: daily 01:30 fires once in the repeated hour (the first, EDT)',
    recurrence: rec([rule({ frequency: 'daily', hours: 1, minutes: 30 })], '2026-10-01T00:00:00Z'),
    zone: 'America/New_York',
    notBefore: '2026-10-31T00:00:00Z',
    limit: 3,
    expected: [
      '2026-10-31T01:30 -> 2026-10-31T05:30:00Z',
      '2026-11-01T01:30 -> 2026-11-01T05:30:00Z',
      '2026-11-02T01:30 -> 2026-11-02T06:30:00Z',
    ],
  },
  {
    name: 'New York, autumn: after the first 01:30 fired, the next is the following day (not the second 01:30)',
    recurrence: rec([rule({ frequency: 'daily', hours: 1, minutes: 30 })], '2026-10-01T00:00:00Z'),
    zone: 'America/New_York',
    notBefore: '2026-11-01T05:30:00Z',
    afterLocal: '2026-11-01T01:30',
    limit: 1,
    expected: ['2026-11-02T01:30 -> 2026-11-02T06:30:00Z'],
  },
  {
    name: 'New York, spring, hourly on the hour: 02:00 moves to 03:00 EDT and the real 03:00 is the same occurrence',
    recurrence: rec([rule({ frequency: 'hourly' })], '2026-03-01T00:00:00Z'),
    zone: 'America/New_York',
    notBefore: '2026-03-08T06:00:00Z',
    limit: 3,
    expected: [
      '2026-03-08T01:00 -> 2026-03-08T06:00:00Z',
      '2026-03-08T02:00 -> 2026-03-08T07:00:00Z gap',
      '2026-03-08T04:00 -> 2026-03-08T08:00:00Z',
    ],
  },
  {
    name: 'New York, spring, hourly: resuming after the gap-shifted 02:00 does not fire 03:00 at the same instant',
    recurrence: rec([rule({ frequency: 'hourly' })], '2026-03-01T00:00:00Z'),
    zone: 'America/New_York',
    notBefore: '2026-03-08T07:00:00Z',
    afterLocal: '2026-03-08T02:00',
    limit: 1,
    expected: ['2026-03-08T04:00 -> 2026-03-08T08:00:00Z'],
  },
  {
    name: 'New York, autumn, hourly at :30: 01:30 once, then 02:30 EST two hours later',
    recurrence: rec([rule({ frequency: 'hourly', minutes: 30 })], '2026-10-01T00:00:00Z'),
    zone: 'America/New_York',
    notBefore: '2026-11-01T04:00:00Z',
    limit: 3,
    expected: [
      '2026-11-01T00:30 -> 2026-11-01T04:30:00Z',
      '2026-11-01T01:30 -> 2026-11-01T05:30:00Z',
      '2026-11-01T02:30 -> 2026-11-01T07:30:00Z',
    ],
  },

  // Europe/Berlin: forward 2026-03-29 02:00 CET -> 03:00 CEST, back 2026-10-25 03:00 CEST -> 02:00 CET.
  {
    name: 'Berlin, spring: daily 02:30 fires at 03:00 CEST',
    recurrence: rec([rule({ frequency: 'daily', hours: 2, minutes: 30 })], '2026-03-01T00:00:00Z'),
    zone: 'Europe/Berlin',
    notBefore: '2026-03-28T00:00:00Z',
    limit: 3,
    expected: [
      '2026-03-28T02:30 -> 2026-03-28T01:30:00Z',
      '2026-03-29T02:30 -> 2026-03-29T01:00:00Z gap',
      '2026-03-30T02:30 -> 2026-03-30T00:30:00Z',
    ],
  },
  {
    name: 'Berlin, autumn: daily 02:30 fires once in the repeated hour (CEST)',
    recurrence: rec([rule({ frequency: 'daily', hours: 2, minutes: 30 })], '2026-10-01T00:00:00Z'),
    zone: 'Europe/Berlin',
    notBefore: '2026-10-24T00:00:00Z',
    limit: 3,
    expected: [
      '2026-10-24T02:30 -> 2026-10-24T00:30:00Z',
      '2026-10-25T02:30 -> 2026-10-25T00:30:00Z',
      '2026-10-26T02:30 -> 2026-10-26T01:30:00Z',
    ],
  },
  {
    name: 'Berlin, autumn: weekly on Sunday 02:00 and 02:30, every 1 week, each once',
    recurrence: rec(
      [rule({ frequency: 'weekly', days: ['sun'], hours: 2 }), rule({ frequency: 'weekly', days: ['sun'], hours: 2, minutes: 30 })],
      '2026-10-01T00:00:00Z',
    ),
    zone: 'Europe/Berlin',
    notBefore: '2026-10-24T00:00:00Z',
    limit: 2,
    expected: ['2026-10-25T02:00 -> 2026-10-25T00:00:00Z', '2026-10-25T02:30 -> 2026-10-25T00:30:00Z'],
  },

  // Australia/Lord_Howe: a 30-minute shift. Forward 2026-10-04 02:00 -> 02:30 (+10:30 -> +11), back 2026-04-05 02:00 -> 01:30.
  {
    name: 'Lord Howe, spring: daily 02:15 fires at 02:30 (+11), the end of the 30-minute gap',
    recurrence: rec([rule({ frequency: 'daily', hours: 2, minutes: 15 })], '2026-09-01T00:00:00Z'),
    zone: 'Australia/Lord_Howe',
    notBefore: '2026-10-02T00:00:00Z',
    limit: 3,
    expected: [
      '2026-10-03T02:15 -> 2026-10-02T15:45:00Z',
      '2026-10-04T02:15 -> 2026-10-03T15:30:00Z gap',
      '2026-10-05T02:15 -> 2026-10-04T15:15:00Z',
    ],
  },
  {
    name: 'Lord Howe, autumn: daily 01:45 fires once in the repeated half hour (+11)',
    recurrence: rec([rule({ frequency: 'daily', hours: 1, minutes: 45 })], '2026-03-01T00:00:00Z'),
    zone: 'Australia/Lord_Howe',
    notBefore: '2026-04-03T00:00:00Z',
    limit: 3,
    expected: [
      '2026-04-04T01:45 -> 2026-04-03T14:45:00Z',
      '2026-04-05T01:45 -> 2026-04-04T14:45:00Z',
      '2026-04-06T01:45 -> 2026-04-05T15:15:00Z',
    ],
  },
  {
    name: 'Lord Howe, spring, hourly at :00 and :15 (two rules): 02:00 and 02:15 both fall in the gap and are one occurrence at 02:30',
    recurrence: rec([rule({ frequency: 'hourly' }), rule({ frequency: 'hourly', minutes: 15 })], '2026-09-01T00:00:00Z'),
    zone: 'Australia/Lord_Howe',
    notBefore: '2026-10-03T14:30:00Z',
    limit: 4,
    expected: [
      '2026-10-04T01:00 -> 2026-10-03T14:30:00Z',
      '2026-10-04T01:15 -> 2026-10-03T14:45:00Z',
      '2026-10-04T02:00 -> 2026-10-03T15:30:00Z gap',
      '2026-10-04T03:00 -> 2026-10-03T16:00:00Z',
    ],
  },
];

describe('occurrences', () => {
  it.each(table.map((row) => [row.name, row] as const))('%s', (_name, row) => {
    const found = occurrences(row.recurrence, row.zone, {
      notBefore: row.notBefore,
      afterLocal: row.afterLocal ?? null,
      limit: row.limit ?? 10,
    });
    expect(found.map(show)).toEqual(row.expected);
  });

  it('never yields two occurrences at one instant or one local date-time twice, over a year of hourly rules in each zone', () => {
    for (const zone of ['America/New_York', 'Europe/Berlin', 'Australia/Lord_Howe']) {
      const recurrence = rec([rule({ frequency: 'hourly' }), rule({ frequency: 'hourly', minutes: 30 })], '2026-01-01T00:00:00Z');
      const found = occurrences(recurrence, zone, { notBefore: '2026-01-01T00:00:00Z', afterLocal: null, limit: 365 * 48 });
      expect(new Set(found.map((o) => o.at)).size).toBe(found.length);
      expect(new Set(found.map((o) => o.local)).size).toBe(found.length);
      // In order, both ways: the local identities and the instants.
      expect(found.map((o) => o.at)).toEqual([...found.map((o) => o.at)].sort());
      expect(found.map((o) => o.local)).toEqual([...found.map((o) => o.local)].sort());
      // Only the gap slots are missing: a year has 2 * 24 * 365 half hours, less the gap's ones.
      expect(found.length).toBeGreaterThan(365 * 48 - 3);
    }
  });

  it('resumes where a page ended: paging by the last local date-time gives the same list', () => {
    const recurrence = rec([rule({ frequency: 'hourly', minutes: 30 })], '2026-10-01T00:00:00Z');
    const all = occurrences(recurrence, 'America/New_York', { notBefore: '2026-10-31T20:00:00Z', afterLocal: null, limit: 20 });
    const paged: string[] = [];
    let afterLocal: string | null = null;
    while (paged.length < 20) {
      const next = nextOccurrence(recurrence, 'America/New_York', { notBefore: '2026-10-31T20:00:00Z', afterLocal });
      paged.push(next!.local);
      afterLocal = next!.local;
    }
    expect(paged).toEqual(all.map((o) => o.local));
  });

  it('a recipient moving to another zone gets the next local date-time after the last one fired', () => {
    const recurrence = rec([rule({ frequency: 'daily', hours: 9 })], '2026-01-01T00:00:00Z');
    // 09:00 in Berlin fired (08:00Z); the recipient moves to New York at 10:00Z.
    const next = nextOccurrence(recurrence, 'America/New_York', { notBefore: '2026-01-01T00:00:00Z', afterLocal: '2026-01-05T09:00' });
    expect(next).toEqual({ local: '2026-01-06T09:00', at: '2026-01-06T14:00:00Z', adjusted: null });
  });

  it('gives up on rules that never match within the search horizon', () => {
    const never = rec([rule({ frequency: 'daily', hours: 9 })], '2026-01-01T00:00:00Z', { endingAt: '2025-01-01T00:00:00Z' });
    expect(occurrences(never, 'UTC', { notBefore: '2026-01-01T00:00:00Z', afterLocal: null, limit: 3 })).toEqual([]);
  });
});

describe('resolveLocal and wallTime', () => {
  it('shows the wall time with its offset', () => {
    expect(wallTime('2026-03-08T07:00:00Z', 'America/New_York')).toBe('2026-03-08T03:00:00-04:00');
    expect(wallTime('2026-10-03T15:30:00Z', 'Australia/Lord_Howe')).toBe('2026-10-04T02:30:00+11:00');
  });

  it('resolves an existing local time plainly and a gap time to the transition', () => {
    expect(resolveLocal(Temporal.PlainDateTime.from('2026-07-01T12:00'), 'Europe/Berlin')).toEqual({
      at: Temporal.Instant.from('2026-07-01T10:00:00Z'),
      adjusted: null,
    });
    expect(resolveLocal(Temporal.PlainDateTime.from('2026-03-29T02:59'), 'Europe/Berlin').at.toString()).toBe('2026-03-29T01:00:00Z');
  });
});
