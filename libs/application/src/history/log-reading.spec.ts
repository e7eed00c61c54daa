import { RecordedEvent } from '@notify/eventstore';
import {
  decodeHistoryCursor,
  encodeHistoryCursor,
  inLogOrder,
  logPositionOf,
  logRequest,
  matchesRefinement,
  parseAsOf,
  recordedBy,
  presentLogEvent,
  STREAM_CATEGORIES,
} from './log-reading';

const position = (n: number) => n.toString(16).padStart(32, '0');

function event(n: number, over: Partial<RecordedEvent> = {}): RecordedEvent {
  return {
    id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    type: 'UserIdentified',
    streamId: 'user-development-u1',
    revision: n,
    globalPosition: BigInt(n),
    position: position(n),
    data: { n },
    metadata: { environment: 'development', schema_version: 1, correlation_id: 'req-1', causation_id: 'ev-0', actor: 'key-1' },
    createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, n)),
    ...over,
  };
}

describe('event history cursors', () => {
  it('round-trips log and stream cursors, including the start of the log', () => {
    for (const c of [
      { kind: 'log' as const, position: position(42) },
      { kind: 'log' as const, position: '' },
      { kind: 'stream' as const, direction: 'backwards' as const, revision: 7 },
      { kind: 'stream' as const, direction: 'forwards' as const, revision: 0 },
    ]) {
      const encoded = encodeHistoryCursor(c);
      expect(encoded).toMatch(/^[A-Za-z0-9_-]+$/);
      expect(decodeHistoryCursor(encoded)).toEqual(c);
    }
  });

  it('refuses what it did not hand out', () => {
    const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
    for (const bad of [
      '%%%',
      b64(['log', 'zz']),
      b64(['stream', 'sideways', '1']),
      b64(['stream', 'forwards', '-1']),
      b64({ a: 1 }),
      b64(['x']),
    ])
      expect(decodeHistoryCursor(bad)).toBeUndefined();
  });

  it('takes an event position or a log cursor as `after`, and answers a 422 on `after` otherwise', () => {
    expect(logPositionOf(undefined)).toBeUndefined();
    expect(logPositionOf(position(5))).toBe(position(5));
    expect(logPositionOf(encodeHistoryCursor({ kind: 'log', position: position(9) }))).toBe(position(9));
    expect(() => logPositionOf(encodeHistoryCursor({ kind: 'stream', direction: 'forwards', revision: 1 }))).toThrow(
      expect.objectContaining({ code: 'invalid_params', fields: [expect.objectContaining({ field: 'after' })] }),
    );
  });
});

describe('event history filters and presentation', () => {
  it('keeps events inside the time range and environment', () => {
    const e = event(10);
    expect(matchesRefinement(e, {})).toBe(true);
    expect(matchesRefinement(e, { since: e.createdAt, until: e.createdAt, environment: 'development' })).toBe(true);
    expect(matchesRefinement(e, { since: new Date(e.createdAt.getTime() + 1) })).toBe(false);
    expect(matchesRefinement(e, { until: new Date(e.createdAt.getTime() - 1) })).toBe(false);
    expect(matchesRefinement(e, { environment: 'production' })).toBe(false);
    expect(matchesRefinement(event(1, { metadata: { environment: null, schema_version: 1 } }), { environment: 'development' })).toBe(false);
  });

  it('maps a log query to what the store filters and what is refined while scanning', () => {
    expect(
      logRequest({ limit: 10, types: ['A', 'B'], stream_prefix: ['user-'], since: '2026-01-01T00:00:00Z', environment: 'development' }),
    ).toEqual({
      after: undefined,
      limit: 10,
      filter: { eventTypes: ['A', 'B'], streamPrefixes: ['user-'] },
      refine: { since: new Date('2026-01-01T00:00:00Z'), environment: 'development' },
    });
    expect(logRequest({ limit: 5, types: [] })).toEqual({ after: undefined, limit: 5, filter: {}, refine: {} });
  });

  it('shows every recorded field, with correlation and causation lifted from the metadata', () => {
    expect(presentLogEvent(event(3))).toEqual({
      id: event(3).id,
      type: 'UserIdentified',
      stream: 'user-development-u1',
      revision: 3,
      global_position: '3',
      position: position(3),
      recorded_at: '2026-01-01T00:00:03.000Z',
      environment: 'development',
      correlation_id: 'req-1',
      causation_id: 'ev-0',
      actor: 'key-1',
      schema_version: 1,
      metadata: event(3).metadata,
      data: { n: 3 },
    });
    const bare = presentLogEvent(event(4, { metadata: { environment: null, schema_version: 2 } }));
    expect(bare).toMatchObject({ environment: null, correlation_id: null, causation_id: null, actor: null });
  });

  it('merges streams into log (position) order', () => {
    expect(inLogOrder([event(3), event(1), event(2)]).map((e) => e.revision)).toEqual([1, 2, 3]);
  });

  it('names each category once', () => {
    const names = STREAM_CATEGORIES.map((c) => c.category);
    expect(new Set(names).size).toBe(names.length);
    for (const c of STREAM_CATEGORIES) expect(c.pattern.startsWith(c.category)).toBe(true);
  });
});

describe('as_of', () => {
  it('reads an instant, an event position or a global position, and refuses anything else with a 422 on as_of', () => {
    expect(parseAsOf('2026-01-01T00:00:05Z')).toEqual({ at: new Date('2026-01-01T00:00:05Z') });
    expect(parseAsOf(position(7))).toEqual({ position: position(7) });
    expect(parseAsOf('42')).toEqual({ globalPosition: 42n });
    for (const bad of ['yesterday', '2026-13-45T00:00:00Z', '-1'])
      expect(() => parseAsOf(bad)).toThrow(
        expect.objectContaining({ code: 'invalid_params', fields: [expect.objectContaining({ field: 'as_of' })] }),
      );
  });

  it('keeps the events recorded by that point, inclusive', () => {
    const e = event(5);
    expect(recordedBy(e, { at: e.createdAt })).toBe(true);
    expect(recordedBy(e, { at: new Date(e.createdAt.getTime() - 1) })).toBe(false);
    expect(recordedBy(e, { position: position(5) })).toBe(true);
    expect(recordedBy(e, { position: position(4) })).toBe(false);
    expect(recordedBy(e, { globalPosition: 5n })).toBe(true);
    expect(recordedBy(e, { globalPosition: 4n })).toBe(false);
  });
});
