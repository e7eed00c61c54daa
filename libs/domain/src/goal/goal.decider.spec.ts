import { deciderSpec } from '@notify/testing/decider-spec';
import { decideConversions, GoalEventSeen, SourceGoalEvent } from './conversion';
import { goalDecider } from './goal.decider';
import { GoalEvent } from './goal.events';

const condition = { event: { event_type: 'integration_source' as const, integration_source_key: 'billing', event_key: 'invoice.paid' } };
const upsert = (sha = 'a') => ({ type: 'UpsertGoal' as const, key: 'paid', name: 'Paid', condition, sha, now: 't1' });
const upserted = (sha = 'a'): GoalEvent => ({
  type: 'GoalUpserted',
  data: { key: 'paid', name: 'Paid', condition, sha, upserted_at: 't1' },
});
const archived: GoalEvent = { type: 'GoalArchived', data: { key: 'paid', archived_at: 't2' } };

describe('goal decider', () => {
  const spec = deciderSpec(goalDecider);

  it('records a goal, nothing for the same content, a change for new content', () => {
    spec.given().when(upsert()).then([upserted()]);
    spec.given([upserted()]).when(upsert()).thenNothing();
    spec
      .given([upserted()])
      .when(upsert('b'))
      .then([upserted('b')]);
  });

  it('archives once, and an archived goal upserted again comes back', () => {
    spec.given([upserted()]).when({ type: 'ArchiveGoal', key: 'paid', now: 't2' }).then([archived]);
    spec.given([upserted(), archived]).when({ type: 'ArchiveGoal', key: 'paid', now: 't3' }).thenNothing();
    spec.given().when({ type: 'ArchiveGoal', key: 'paid', now: 't3' }).thenNothing();
    spec.given([upserted(), archived]).when(upsert()).then([upserted()]);
  });

  it('refuses match conditions, which it cannot evaluate yet', () => {
    spec
      .given()
      .when({
        ...upsert(),
        condition: { ...condition, match_conditions: [{ all: [{ variable: 'x', operator: 'equal_to', argument: '1' }] }] },
      })
      .thenThrows('invalid_params');
  });
});

describe('conversion decider', () => {
  const event: GoalEventSeen = {
    type: 'source_event',
    source_key: 'billing',
    event: 'invoice.paid',
    log_id: 'log-1',
    at: '2026-03-10T12:00:00Z',
  };
  const run = (id: string, started_at: string, window = 7) => ({
    run_id: id,
    workflow_run_id: `wr-${id}`,
    workflow_key: 'dunning',
    started_at,
    attribution_window_days: window,
  });
  const goal = { key: 'paid', condition, archived: false };
  const recipient = { type: 'user' as const, id: 'u-1' };

  it('converts runs that started before the event and within their window, once', () => {
    const conversions = decideConversions({
      goal,
      event,
      recipient,
      runs: [
        run('in-window', '2026-03-05T12:00:00Z'),
        run('too-old', '2026-03-01T12:00:00Z'),
        run('long-window', '2026-03-01T12:00:00Z', 30),
        run('after-event', '2026-03-10T12:00:01Z'),
        run('done-before', '2026-03-09T00:00:00Z'),
      ],
      converted: new Set(['done-before']),
    });
    expect(conversions.map((c) => c.data.run_id)).toEqual(['in-window', 'long-window']);
    expect(conversions[0]).toEqual({
      type: 'RunConverted',
      data: {
        goal_key: 'paid',
        run_id: 'in-window',
        workflow_run_id: 'wr-in-window',
        workflow_key: 'dunning',
        recipient,
        cause: { type: 'source_event', source_key: 'billing', log_id: 'log-1' },
        run_started_at: '2026-03-05T12:00:00Z',
        converted_at: event.at,
      },
    });
  });

  it('converts nothing for another source, another event type, or an archived goal', () => {
    const runs = [run('r', '2026-03-09T00:00:00Z')];
    const none = (over: Partial<SourceGoalEvent>, g = goal) =>
      decideConversions({ goal: g, event: { ...event, ...over }, recipient, runs, converted: new Set() });
    expect(none({ source_key: 'crm' })).toEqual([]);
    expect(none({ event: 'invoice.failed' })).toEqual([]);
    expect(none({}, { ...goal, archived: true })).toEqual([]);
    expect(none({})).toHaveLength(1);
  });

  it('meets a recipient goal on an update whose properties satisfy a match-condition group, or on any update without conditions (ADR 0247)', () => {
    const recipientGoal = (match_conditions?: unknown) => ({
      key: 'upgraded',
      condition: {
        event: { event_type: 'recipient' as const, event_key: 'updated' as const },
        ...(match_conditions ? { match_conditions } : {}),
      } as never,
      archived: false,
    });
    const update = (recipient: Record<string, unknown>, properties: Record<string, unknown> = {}): GoalEventSeen => ({
      type: 'recipient_event',
      event: 'updated',
      variables: { recipient, event: { type: 'recipient.updated', properties } },
      at: event.at,
    });
    const runs = [run('r', '2026-03-09T00:00:00Z')];
    const paid = [{ all: [{ variable: 'recipient.plan', operator: 'equal_to', argument: 'paid' }] }];
    const convert = (g: ReturnType<typeof recipientGoal>, e: GoalEventSeen) =>
      decideConversions({ goal: g, event: e, recipient, runs, converted: new Set() });
    expect(convert(recipientGoal(paid), update({ plan: 'paid' }))).toHaveLength(1);
    expect(convert(recipientGoal(paid), update({ plan: 'trial' }))[0]).toBeUndefined();
    expect(convert(recipientGoal(paid), update({ plan: 'paid' }))[0].data.cause).toEqual({
      type: 'recipient_event',
      source_key: null,
      log_id: null,
    });
    // Groups are alternatives: one holding is enough; conditions may read what the update set.
    const either = [...paid, { all: [{ variable: 'event.properties.seats', operator: 'greater_than', argument: '5' }] }];
    expect(convert(recipientGoal(either), update({ plan: 'trial' }, { seats: 10 }))).toHaveLength(1);
    expect(convert(recipientGoal(), update({}))).toHaveLength(1);
    // A source event does not meet a recipient goal, nor a recipient update a source goal.
    expect(convert(recipientGoal(), event)).toEqual([]);
    expect(convert(goal as never, update({ plan: 'paid' }))).toEqual([]);
  });

  it('accepts match conditions on recipient goals', () => {
    const recipientCondition = {
      event: { event_type: 'recipient' as const },
      match_conditions: [{ all: [{ variable: 'recipient.plan', operator: 'equal_to' as const, argument: 'paid' }] }],
    };
    expect(goalDecider.decide({ ...upsert(), condition: recipientCondition }, goalDecider.initialState())).toHaveLength(1);
  });

  it('meets an audience goal on entering or exiting that audience only (ADR 0247)', () => {
    const audienceGoal = {
      key: 'vip',
      condition: { event: { event_type: 'audience' as const, audience_key: 'vip', event_key: 'enter' as const } },
      archived: false,
    };
    const runs = [run('r', '2026-03-09T00:00:00Z')];
    const seen = (audience_key: string, e: 'enter' | 'exit'): GoalEventSeen => ({
      type: 'audience_event',
      audience_key,
      event: e,
      at: event.at,
    });
    const convert = (e: GoalEventSeen) => decideConversions({ goal: audienceGoal, event: e, recipient, runs, converted: new Set() });
    expect(convert(seen('vip', 'enter')).map((c) => c.data.cause)).toEqual([
      { type: 'audience_event', source_key: null, log_id: null, audience_key: 'vip' },
    ]);
    expect(convert(seen('vip', 'exit'))).toEqual([]);
    expect(convert(seen('beta', 'enter'))).toEqual([]);
  });
});
