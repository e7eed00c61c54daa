import { EventOccurrence, occurrenceMatches, waitingForOf } from './wait-for-event';

const now = new Date('2026-03-02T10:00:00.000Z');

describe('waitingForOf', () => {
  it('records a workflow event wait with its expiry', () => {
    const settings = {
      event: { event_type: 'workflow', event_key: 'completed', source_key: 'onboarding' },
      match_conditions: [{ conditions: [{ variable: 'event.data.order', operator: 'equal_to' as const, argument: 'data.order' }] }],
      expires_after: { unit: 'hours' as const, value: 2 },
    };
    expect(waitingForOf(settings, now)).toEqual({
      waitingFor: {
        event_type: 'workflow',
        event_key: 'completed',
        source_key: 'onboarding',
        match_conditions: settings.match_conditions,
        expires_at: '2026-03-02T12:00:00.000Z',
      },
    });
  });

  it('waits without expiry when none is set', () => {
    const result = waitingForOf(
      { event: { event_type: 'message', event_key: 'seen', source_type: 'workflow', source_key: 'digest' } },
      now,
    );
    expect(result).toMatchObject({ waitingFor: { expires_at: null, match_conditions: [] } });
  });

  it('waits for an update of the recipient itself (no source key)', () => {
    expect(waitingForOf({ event: { event_type: 'recipient' } }, now)).toEqual({
      waitingFor: { event_type: 'recipient', event_key: 'updated', source_key: '', match_conditions: [], expires_at: null },
    });
  });

  it.each([
    [{ event_type: 'audience', event_key: 'enter', audience_key: 'vip' }, 'wait_for_event: audience events are not supported'],
    [
      { event_type: 'integration_source', integration_source_key: 's', event_key: 'e' },
      'wait_for_event: integration_source events are not supported',
    ],
    [
      { event_type: 'message', event_key: 'seen', source_type: 'broadcast', source_key: 'b' },
      'wait_for_event: message events from broadcast sources are not supported',
    ],
  ])('names what it cannot wait for: %j', (event, reason) => {
    expect(waitingForOf({ event }, now)).toEqual({ unsupported: reason });
  });
});

describe('occurrenceMatches', () => {
  const waiting = {
    event_type: 'workflow' as const,
    event_key: 'completed',
    source_key: 'onboarding',
    match_conditions: [
      { conditions: [{ variable: 'event.data.order', operator: 'equal_to' as const, argument: 'data.order' }] },
      {
        conditions: [
          { variable: 'event.data.vip', operator: 'equal_to' as const, argument: 'true' },
          { variable: 'event.tenant', operator: 'equal_to' as const, argument: 'acme' },
        ],
      },
    ],
    expires_at: '2026-03-02T12:00:00.000Z',
  };
  const occurrence = (over: Partial<EventOccurrence> = {}, event: Record<string, unknown> = {}): EventOccurrence => ({
    event_type: 'workflow',
    event_key: 'completed',
    source_key: 'onboarding',
    event: { data: { order: 'o-1' }, tenant: null, ...event },
    at: '2026-03-02T11:00:00.000Z',
    ...over,
  });
  const vars = { data: { order: 'o-1' } };

  it('matches when a condition group holds against the run and the event', () => {
    expect(occurrenceMatches(waiting, occurrence(), vars)).toBe(true);
    expect(occurrenceMatches(waiting, occurrence({}, { data: { order: 'o-2', vip: true }, tenant: 'acme' }), vars)).toBe(true);
  });

  it('does not match another order, key, source, kind, or after expiry', () => {
    expect(occurrenceMatches(waiting, occurrence({}, { data: { order: 'o-2' } }), vars)).toBe(false);
    expect(occurrenceMatches(waiting, occurrence({}, { data: { order: 'o-2', vip: true }, tenant: 'other' }), vars)).toBe(false);
    expect(occurrenceMatches(waiting, occurrence({ event_key: 'started' }), vars)).toBe(false);
    expect(occurrenceMatches(waiting, occurrence({ source_key: 'billing' }), vars)).toBe(false);
    expect(occurrenceMatches(waiting, occurrence({ event_type: 'message' }), vars)).toBe(false);
    expect(occurrenceMatches(waiting, occurrence({ at: '2026-03-02T12:00:01.000Z' }), vars)).toBe(false);
  });

  it('matches any occurrence of the event when there are no conditions', () => {
    expect(occurrenceMatches({ ...waiting, match_conditions: [], expires_at: null }, occurrence({}, { data: {} }), {})).toBe(true);
  });
});
