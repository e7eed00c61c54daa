import { activeWorkflow, eventually, feedStep, messagesOf } from '../../support/runs';
import { startTestApp, TestApp } from '../../support/test-app';

/**
 * A fan-out's runs reach the run executor as a backlog of many pages of the log. With pages of
 * seven events the executor goes through it page after page, its own appends landing between
 * the pages it reads: every subscriber still gets exactly one message, and the log holds exactly
 * one of each run's events.
 */
describe('a backlog of runs many pages long', () => {
  let t: TestApp;
  beforeAll(async () => {
    // The runs left bare for the executor: planned by the fan-out, they would not wait in its backlog (ADR 0287).
    t = await startTestApp({ env: { PROJECTION_BATCH_SIZE: '7', ENGINE_INLINE_RUNS: 'false' } });
  });
  afterAll(async () => t?.close());

  it('executes every run once, with one message per subscriber', async () => {
    await activeWorkflow(t, 'paged-fanout', { steps: [feedStep('feed')] });
    const knock = t.knock();
    const subscribers = Array.from({ length: 45 }, (_, i) => `paged-${String(i).padStart(2, '0')}`);
    await t.http('PUT', '/v1/objects/teams/paged', { key: t.env.secretKey, body: {} });
    const added = await t.http('POST', '/v1/objects/teams/paged/subscriptions', {
      key: t.env.secretKey,
      body: { recipients: subscribers },
    });
    expect(added.status).toBe(200);

    const { workflow_run_id } = await knock.workflows.trigger('paged-fanout', {
      recipients: [{ collection: 'teams', id: 'paged' }],
    });
    const messages = await eventually(
      async () => {
        const rows = await messagesOf(t, workflow_run_id);
        return rows.filter((m) => m.recipient_id.startsWith('paged-')).length === subscribers.length ? rows : undefined;
      },
      60_000,
      'a message for every subscriber',
    );
    const toSubscribers = messages.filter((m) => m.recipient_id.startsWith('paged-'));
    expect(toSubscribers.map((m) => m.recipient_id)).toEqual(subscribers);

    // Exactly once in the log too: one run, one message and one completion per subscriber.
    const counts = await t.sql<{ type: string; n: string; streams: string }>(
      `SELECT e.event_type AS type, count(*) AS n, count(DISTINCT e.stream_id) AS streams
         FROM es_events e
        WHERE e.metadata->>'correlation_id' = $1 AND e.event_type IN ('RunEnqueued', 'MessageCreated', 'RunCompleted')
        GROUP BY 1 ORDER BY 1`,
      [workflow_run_id],
    );
    // The object itself is a recipient too (its own run and message), beside its subscribers.
    expect(counts).toEqual(
      ['MessageCreated', 'RunCompleted', 'RunEnqueued'].map((type) => ({
        type,
        n: String(subscribers.length + 1),
        streams: String(subscribers.length + 1),
      })),
    );
  });
});
