import { inAppStep, mgmt, startService } from '../support/service';
import { round, until } from '../support/load';
import { triggerRunsExecutedBy, type Figure } from './engine';

const count = async (
  service: { sql: { query: (q: string, p?: unknown[]) => Promise<{ rows: { c: string }[] }> } },
  q: string,
  p: unknown[],
) => Number((await service.sql.query(q, p)).rows[0].c);

/**
 * A broadcast to a static audience of `members` users with one in-app step (ADR 0172). First the
 * audience is filled through the public API in 1,000-member calls (users identified inline):
 * members per second until every member is in the read model. Then the broadcast is upserted and
 * sent now: the time from the send call until every message is in the feeds' read model, as
 * members per second.
 */
export async function broadcastToAudience(members: number): Promise<Figure[]> {
  const service = await startService('broadcasts');
  try {
    const audience = 'bench-audience';
    const adding = Date.now();
    for (let i = 0; i < members; i += 1000) {
      const batch = Array.from({ length: Math.min(1000, members - i) }, (_, j) => ({ user: { id: `b${i + j}`, name: `User ${i + j}` } }));
      const res = await service.call('POST', `/v1/audiences/${audience}/members?create_audience=true`, { members: batch });
      if (res.status !== 204) throw new Error(`adding members: ${res.status} ${JSON.stringify(res.body)}`);
    }
    const calledIn = Date.now() - adding;
    const added = await until(
      async () => (await count(service, 'SELECT count(*) AS c FROM rm_audience_members WHERE audience_key = $1', [audience])) >= members,
      Math.max(300_000, members * 10),
      200,
    );
    const addedIn = Date.now() - adding;
    if (!added) throw new Error('the members did not all reach the read model');

    await mgmt(service, 'PUT', '/v1/broadcasts/bench-broadcast', {
      broadcast: { name: 'Bench', target_audience_key: audience, settings: { is_commercial: false }, steps: [inAppStep()] },
    });
    const sending = Date.now();
    await mgmt(service, 'PUT', '/v1/broadcasts/bench-broadcast/send', {});
    const delivered = await until(
      async () => (await count(service, `SELECT count(*) AS c FROM rm_messages WHERE workflow_key = 'bench-broadcast'`, [])) >= members,
      Math.max(600_000, members * 20),
      500,
    );
    const sentIn = Date.now() - sending;
    const messages = await count(service, `SELECT count(*) AS c FROM rm_messages WHERE workflow_key = 'bench-broadcast'`, []);
    const runs = await count(
      service,
      `SELECT count(*) AS c FROM es_events WHERE event_type = 'RunEnqueued' AND data->'trigger_source'->>'type' = 'broadcast'`,
      [],
    );
    const executedBy = await triggerRunsExecutedBy(service.url);
    const scenario = `broadcast to a static audience of ${members} users, one in-app step`;
    return [
      {
        scenario: `add ${members} audience members in 1,000-member calls`,
        metric: 'members added, until all are in the read model',
        value: round(members / (addedIn / 1000)),
        unit: 'members/s',
        note: `calls answered in ${round(calledIn / 1000, 1)} s, all in the read model after ${round(addedIn / 1000, 1)} s`,
      },
      {
        scenario,
        metric: 'time from send until every message is in the feeds',
        value: round(sentIn / 1000, 1),
        unit: 's',
        note: `${messages} of ${members} messages${delivered ? '' : ' (not all within the wait)'}; ${runs} recipient runs; pages' runs executed by (ADR 0262): ${executedBy}`,
      },
      { scenario, metric: 'members per second, send to visible', value: round(messages / (sentIn / 1000)), unit: 'members/s' },
    ];
  } finally {
    await service.stop();
  }
}
