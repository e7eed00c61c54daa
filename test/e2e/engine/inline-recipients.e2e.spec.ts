import { STEP_COMPLETIONS } from '../../support/engine';
import { eventually } from '../../support/recipients';
import { startTestApp, TestApp } from '../../support/test-app';

/**
 * Recipients identified inline with a trigger are found by the run, however quickly triggers
 * follow one another (the executor waits for the recipient read models before it prefetches
 * recipients for a batch of runs; ADR 0084).
 */
describe('recipients identified inline with back-to-back triggers', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => t?.close());

  it('every run finds its new recipient and delivers', async () => {
    const knock = t.knock();
    const ids = Array.from({ length: 30 }, (_, i) => `inline-${i}`);
    for (const id of ids) await knock.workflows.trigger('welcome', { recipients: [{ id, name: id }], data: { message: 'hi' } });
    const rows = await eventually(
      () => t.sql(`SELECT data->>'reason' AS reason FROM ${STEP_COMPLETIONS} e WHERE stream_id LIKE 'run-development-%'`),
      (r) => r.length === ids.length,
      30_000,
    );
    expect(rows.filter((r: { reason: string | null }) => r.reason === 'recipient_not_found')).toEqual([]);
    const delivered = await eventually(
      () => t.sql('SELECT recipient_id FROM rm_messages WHERE recipient_id = ANY($1)', [ids]),
      (r) => r.length === ids.length,
      60_000,
    );
    expect(delivered).toHaveLength(ids.length);
  });
});
