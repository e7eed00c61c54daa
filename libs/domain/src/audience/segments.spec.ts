import fc from 'fast-check';
import type { AudienceSegmentT } from '@notify/contracts';
import { evaluateCondition } from '../preferences/conditions';
import { membershipSpan, membershipWindows, pairHolds, tenantNeverSet, tenantSegments, windowHolds } from './segments';

const DAY = 86_400_000;
const at = (iso: string) => Date.parse(iso);
const user = (properties: Record<string, unknown>) => ({ recipient: { id: 'u1', ...properties } });
const segment = (...conditions: AudienceSegmentT['conditions']): AudienceSegmentT => ({ conditions });

describe('dynamic audience segments', () => {
  describe('conditions on the tenant (ADR 0202)', () => {
    const pro = segment({ property: 'tenant.plan', operator: 'equal_to', argument: 'pro' });
    const adminsOfPro = segment(
      { property: 'recipient.role', operator: 'equal_to', argument: 'admin' },
      { property: 'tenant.plan', operator: 'equal_to', argument: 'pro' },
    );
    const vips = segment({ property: 'recipient.vip', operator: 'equal_to', argument: 'true' });
    const tenant = (properties: Record<string, unknown> | null) => ({ tenant: properties && { id: 't1', ...properties } });
    const holds = (segments: AudienceSegmentT[], u: Record<string, unknown>, t: Record<string, unknown> | null, when = 0) =>
      pairHolds(membershipWindows(segments, user(u)), membershipWindows(segments, tenant(t), 'tenant'), when);

    it('evaluates each side apart: a side without conditions in a segment holds on it', () => {
      expect(membershipWindows([pro], user({ plan: 'free' }))).toEqual([{ segment: 0, from: undefined, until: undefined }]);
      expect(membershipWindows([pro], tenant({ plan: 'pro' }), 'tenant').map((w) => w.segment)).toEqual([0]);
      expect(membershipWindows([pro], tenant({ plan: 'free' }), 'tenant')).toEqual([]);
      expect(membershipWindows([pro], tenant(null), 'tenant')).toEqual([]);
      expect(membershipWindows([vips], tenant(null), 'tenant').map((w) => w.segment)).toEqual([0]);
      expect(tenantSegments([vips, adminsOfPro, pro])).toEqual([1, 2]);
    });

    it('a tenant never set is its id alone: tenant.id equals it, its other properties are missing (ADR 0232)', () => {
      const ghost = { tenant: tenantNeverSet('ghost') };
      const condition = (variable: string, operator: string, argument: unknown = null) =>
        evaluateCondition({ variable, operator, argument } as never, { variables: ghost, now: '2026-01-01T00:00:00.000Z' });
      expect(condition('tenant.id', 'equal_to', 'ghost')).toBe(true);
      expect(condition('tenant.id', 'exists')).toBe(true);
      expect(condition('tenant.plan', 'equal_to', 'pro')).toBe(false);
      expect(condition('tenant.plan', 'not_exists')).toBe(true);
      expect(condition('tenant.plan', 'exists')).toBe(false);
      expect(condition('tenant.plan', 'empty')).toBe(true);
      expect(condition('tenant.name', 'not_equal_to', 'Acme')).toBe(true);
      // In segments: a tenant condition holds as for any tenant with only an id.
      const unset = segment({ property: 'tenant.plan', operator: 'not_exists' });
      const byId = segment({ property: 'tenant.id', operator: 'equal_to', argument: 'ghost' });
      expect(membershipWindows([pro, unset, byId], ghost, 'tenant').map((w) => w.segment)).toEqual([1, 2]);
      expect(holds([unset], {}, null)).toBe(true);
    });

    it('tenant.plan equal_to pro: every user, in a pro tenant only', () => {
      expect(holds([pro], {}, { plan: 'pro' })).toBe(true);
      expect(holds([pro], {}, { plan: 'free' })).toBe(false);
      expect(holds([pro], {}, null)).toBe(false);
    });

    it('a segment over both needs both in the same segment; segments still join by OR', () => {
      const segments = [adminsOfPro, vips];
      expect(holds(segments, { role: 'admin' }, { plan: 'pro' })).toBe(true);
      expect(holds(segments, { role: 'admin' }, { plan: 'free' })).toBe(false);
      expect(holds(segments, { role: 'member' }, { plan: 'pro' })).toBe(false);
      // The VIP segment says nothing of the tenant: it holds in every tenant and in none.
      expect(holds(segments, { vip: true }, { plan: 'free' })).toBe(true);
      expect(holds(segments, { vip: true }, null)).toBe(true);
    });

    it('agrees with evaluating every condition with the user and the tenant together', () => {
      const segments = [adminsOfPro, vips, segment({ property: 'tenant.seats', operator: 'greater_than', argument: '10' })];
      for (const u of [{ role: 'admin' }, { role: 'member', vip: true }, {}])
        for (const t of [{ plan: 'pro', seats: 5 }, { plan: 'free', seats: 50 }, null]) {
          const variables = { ...user(u), ...tenant(t) };
          const expected = segments.some((s) =>
            s.conditions.every((c) =>
              evaluateCondition(
                { variable: c.property, operator: c.operator, argument: c.argument ?? null },
                { variables, now: '2030-01-01T00:00:00Z' },
              ),
            ),
          );
          expect([u, t, holds(segments, u, t)]).toEqual([u, t, expected]);
        }
    });
  });

  it('holds always or never for conditions that do not depend on the time', () => {
    const pro = [segment({ property: 'recipient.plan', operator: 'equal_to', argument: 'pro' })];
    expect(membershipWindows(pro, user({ plan: 'pro' }))).toEqual([{ segment: 0, from: undefined, until: undefined }]);
    expect(membershipWindows(pro, user({ plan: 'free' }))).toEqual([]);
    expect(membershipWindows(pro, user({}))).toEqual([]);
  });

  it('joins conditions of a segment by AND and segments by OR', () => {
    const segments = [
      segment(
        { property: 'recipient.plan', operator: 'equal_to', argument: 'pro' },
        { property: 'recipient.country', operator: 'equal_to', argument: 'FR' },
      ),
      segment({ property: 'recipient.beta', operator: 'equal_to', argument: 'true' }),
    ];
    expect(membershipWindows(segments, user({ plan: 'pro', country: 'FR' })).map((w) => w.segment)).toEqual([0]);
    expect(membershipWindows(segments, user({ plan: 'pro', country: 'DE' }))).toEqual([]);
    expect(membershipWindows(segments, user({ plan: 'pro', country: 'FR', beta: true })).map((w) => w.segment)).toEqual([0, 1]);
  });

  it('a user created within the last 30 days is a member until 30 days after it was created', () => {
    const recent = [segment({ property: 'recipient.created_at', operator: 'greater_than', argument: '30_days_ago' })];
    const created = '2030-03-01T12:00:00.000Z';
    const [w] = membershipWindows(recent, user({ created_at: created }));
    expect(w).toEqual({ segment: 0, from: undefined, until: at(created) + 30 * DAY });
    expect(windowHolds(w, at('2030-03-20T00:00:00.000Z'))).toBe(true);
    expect(windowHolds(w, at('2030-04-01T00:00:00.000Z'))).toBe(false);
  });

  it('combines time windows of one segment into their intersection, and drops an empty one', () => {
    const window = [
      segment(
        { property: 'recipient.trial_ends_at', operator: 'is_timestamp_on_or_after_now' },
        { property: 'recipient.trial_ends_at', operator: 'less_than', argument: '+7 days' },
      ),
    ];
    const ends = at('2030-05-10T00:00:00.000Z');
    // In the week before the trial ends: from 7 days before (exclusive) to the end (inclusive).
    expect(membershipWindows(window, user({ trial_ends_at: '2030-05-10T00:00:00.000Z' }))).toEqual([
      { segment: 0, from: ends - 7 * DAY + 1, until: ends + 1 },
    ]);
    const never = [
      segment(
        { property: 'recipient.t', operator: 'is_timestamp_before_now' },
        { property: 'recipient.t', operator: 'is_timestamp_on_or_after_now' },
      ),
    ];
    expect(membershipWindows(never, user({ t: '2030-01-01T00:00:00.000Z' }))).toEqual([]);
  });

  it('a property that is not a time never satisfies a time condition', () => {
    expect(
      membershipWindows([segment({ property: 'recipient.created_at', operator: 'greater_than', argument: '30_days_ago' })], user({})),
    ).toEqual([]);
    expect(
      membershipWindows([segment({ property: 'recipient.created_at', operator: 'is_timestamp_before_now' })], user({ created_at: 'soon' })),
    ).toEqual([]);
  });

  /**
   * The windows are exact: for any user and any evaluation time, a user is in a window exactly
   * when evaluating the conditions at that time says it is a member.
   */
  it('agrees with evaluating the conditions at every instant (property)', () => {
    const base = at('2030-06-01T00:00:00.000Z');
    const instant = fc.integer({ min: base - 90 * DAY, max: base + 90 * DAY });
    const iso = instant.map((t) => new Date(t).toISOString());
    const relative = fc.oneof(
      fc.constantFrom('now', '30_days_ago', '2_weeks_from_now', '-3 days', '+12 hours', '1 day ago'),
      fc.integer({ min: 1, max: 60 }).map((n) => `${n}_days_ago`),
    );
    const argument = fc.oneof(relative, iso, fc.constantFrom('pro', '5'));
    const operator = fc.constantFrom(
      'greater_than',
      'greater_than_or_equal_to',
      'less_than',
      'less_than_or_equal_to',
      'is_timestamp_before',
      'is_timestamp_on_or_after',
      'is_timestamp_before_date',
      'is_timestamp_on_or_after_date',
      'is_timestamp_before_now',
      'is_timestamp_on_or_after_now',
      'is_timestamp_between',
      'equal_to',
    );
    const condition = fc.record({
      property: fc.constantFrom('recipient.a', 'recipient.b', 'recipient.plan'),
      operator,
      argument: fc.oneof(
        argument,
        fc.tuple(argument, argument).map(([x, y]) => JSON.stringify([x, y])),
      ),
    });
    const segments = fc.array(fc.record({ conditions: fc.array(condition, { minLength: 1, maxLength: 3 }) }), {
      minLength: 1,
      maxLength: 3,
    });
    const properties = fc.record({ a: iso, b: fc.oneof(iso, fc.constant('not a time')), plan: fc.constantFrom('pro', 'free') });
    fc.assert(
      fc.property(segments, properties, fc.array(instant, { minLength: 1, maxLength: 5 }), (segs, props, nows) => {
        const variables = user(props);
        const windows = membershipWindows(segs as AudienceSegmentT[], variables);
        // Random instants, and the edges of every window (where an off-by-one would show).
        const edges = windows.flatMap((w) => [w.from, w.until].filter((e): e is number => e !== undefined).flatMap((e) => [e - 1, e]));
        for (const now of [...nows, ...edges]) {
          const evaluated = segs.some((s) =>
            s.conditions.every((c) =>
              evaluateCondition(
                { variable: c.property, operator: c.operator as never, argument: c.argument },
                { variables, now: new Date(now).toISOString() },
              ),
            ),
          );
          expect(windows.some((w) => windowHolds(w, now))).toBe(evaluated);
        }
      }),
      { numRuns: 3000, seed: 17 },
    );
  });

  describe('the stretch a membership holds in (membershipSpan)', () => {
    const t = at('2030-06-01T00:00:00.000Z');

    it('is the window that holds, bounded where it is, open where it is', () => {
      expect(membershipSpan([{ from: t - DAY, until: t + DAY }], t)).toEqual({ from: t - DAY, until: t + DAY });
      expect(membershipSpan([{ until: t + DAY }], t)).toEqual({ from: undefined, until: t + DAY });
      expect(membershipSpan([{ from: t - DAY }], t)).toEqual({ from: t - DAY, until: undefined });
      expect(membershipSpan([{}], t)).toEqual({ from: undefined, until: undefined });
    });

    it('is undefined when no window holds: before it, at its end (exclusive), or empty', () => {
      expect(membershipSpan([], t)).toBeUndefined();
      expect(membershipSpan([{ from: t + 1 }], t)).toBeUndefined();
      expect(membershipSpan([{ until: t }], t)).toBeUndefined();
      expect(membershipSpan([{ from: t - DAY, until: t - DAY }], t)).toBeUndefined();
    });

    it('chains windows that touch or overlap, and stops at a gap', () => {
      const windows = [
        { from: t - 3 * DAY, until: t - DAY },
        { from: t - DAY, until: t + DAY },
        { from: t, until: t + 2 * DAY },
        { from: t + 3 * DAY, until: t + 4 * DAY },
      ];
      expect(membershipSpan(windows, t)).toEqual({ from: t - 3 * DAY, until: t + 2 * DAY });
      // An open window that reaches the stretch opens it.
      expect(membershipSpan([...windows, { from: t + 2 * DAY }], t)).toEqual({ from: t - 3 * DAY, until: undefined });
      expect(membershipSpan([...windows, { until: t - 3 * DAY }], t)).toEqual({ from: undefined, until: t + 2 * DAY });
      expect(membershipSpan(windows, t + 3 * DAY)).toEqual({ from: t + 3 * DAY, until: t + 4 * DAY });
      expect(membershipSpan(windows, t + 2 * DAY)).toBeUndefined();
    });

    it('holds without a break over the stretch, and not just outside it (property)', () => {
      const instant = fc.integer({ min: t - 20, max: t + 20 });
      const window = fc.record({ from: fc.option(instant, { nil: undefined }), until: fc.option(instant, { nil: undefined }) });
      fc.assert(
        fc.property(fc.array(window, { maxLength: 6 }), instant, (windows, now) => {
          const held = (x: number) => windows.some((w) => windowHolds({ segment: 0, ...w }, x));
          const span = membershipSpan(windows, now);
          if (!held(now)) return expect(span).toBeUndefined();
          expect(span).toBeDefined();
          const { from, until } = span!;
          for (let x = from ?? t - 21; x < (until ?? t + 21); x++) expect(held(x)).toBe(true);
          if (from !== undefined) expect(held(from - 1)).toBe(false);
          if (until !== undefined) expect(held(until)).toBe(false);
        }),
        { numRuns: 2000, seed: 138 },
      );
    });
  });
});
