import type { RecordedEvent } from '@notify/eventstore';
import type { EntityManager } from 'typeorm';
import { waitingRunsProjection } from '../waiting-runs';
import { timersProjection } from './timers.projection';

/**
 * ADR 0257: a run's end marked `never_paused` cancels no timer and removes no waiting entry (it
 * can have neither); an end without the mark (a run that paused, or an entry written before the
 * mark existed) does both, as before.
 */
const paused = '3c1f0e9a-7b2d-4e5f-8a6b-1c2d3e4f5a6b';
const neverPaused = '9d8c7b6a-5f4e-4d3c-8b2a-1f0e9d8c7b6a';
const at = '2026-11-27T05:00:00.000Z';
const ended = (n: number, type: 'RunCompleted' | 'RunCancelled', mark: boolean): RecordedEvent => {
  const runId = mark ? neverPaused : paused;
  return {
    id: `e${n}`,
    type,
    streamId: `run-development-${runId}`,
    revision: n,
    globalPosition: BigInt(n),
    position: String(n).padStart(12, '0'),
    data:
      type === 'RunCompleted'
        ? { run_id: runId, outcome: 'ended', reason: null, at, ...(mark ? { never_paused: true } : {}) }
        : { run_id: runId, reason: 'cancellation_requested', at, ...(mark ? { never_paused: true } : {}) },
    metadata: { environment: 'development', schema_version: 1 },
    createdAt: new Date(at),
  } as RecordedEvent;
};

function recordingTx() {
  const statements: { sql: string; params: unknown[] }[] = [];
  const tx = { query: async (sql: string, params: unknown[] = []) => (statements.push({ sql, params }), []) } as unknown as EntityManager;
  return { tx, statements };
}

describe.each([
  ['timers', timersProjection, /UPDATE rm_timers/],
  ['waiting-runs', waitingRunsProjection, /DELETE FROM rm_waiting_runs/],
] as const)('the %s projection at the end of a run', (_name, projection, statement) => {
  it.each(['RunCompleted', 'RunCancelled'] as const)('a %s of a run that never paused writes nothing', async (type) => {
    const { tx, statements } = recordingTx();
    await projection.apply([ended(1, type, true)], tx);
    expect(statements).toEqual([]);
  });

  it.each(['RunCompleted', 'RunCancelled'] as const)('a %s without the mark clears what the run may have left', async (type) => {
    const { tx, statements } = recordingTx();
    await projection.apply([ended(1, type, false), ended(2, type, true)], tx);
    expect(statements).toHaveLength(1);
    expect(statements[0].sql).toMatch(statement);
    // Only the run that paused is in it.
    const params = JSON.stringify(statements[0].params);
    expect(params).toContain(paused);
    expect(params).not.toContain(neverPaused);
  });
});
