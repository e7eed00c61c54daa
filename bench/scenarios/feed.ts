import { ChildProcess } from 'node:child_process';
import { KeepAliveClient } from '../support/http';
import { percentile, round, atRate } from '../support/load';
import { Seeder } from '../support/seed';
import { BenchService, spawnListening, startService, stopChild } from '../support/service';
import type { Figure } from './engine';

/**
 * Waits until the worker has worked through what seeding appended (reactors read every message
 * event too): no projection or reactor checkpoint moved for two seconds.
 */
async function backgroundSettled(service: BenchService): Promise<void> {
  let last = '';
  let quietSince = Date.now();
  const deadline = Date.now() + 300_000;
  while (Date.now() < deadline) {
    const { rows } = await service.sql.query<{ p: string; r: string }>(
      'SELECT (SELECT coalesce(sum(events_applied), 0) FROM projection_checkpoints)::text AS p, (SELECT coalesce(sum(events_handled), 0) FROM reactor_checkpoints)::text AS r',
    );
    const now = `${rows[0].p}/${rows[0].r}`;
    if (now !== last) {
      last = now;
      quietSince = Date.now();
    } else if (Date.now() - quietSince >= 2000) return;
    await new Promise((r) => setTimeout(r, 250));
  }
}

/**
 * GET returning the status once the body has arrived. Node's http client on keep-alive
 * connections by default; BENCH_HTTP_CLIENT=fetch measures with fetch (undici) instead, whose
 * own garbage collection in the bench process adds to the tail of both series.
 */
type Get = (url: string, headers: Record<string, string>) => Promise<number>;
function httpClient(): { get: Get; close: () => void } {
  if (process.env.BENCH_HTTP_CLIENT === 'fetch') {
    return {
      get: async (url, headers) => {
        const res = await fetch(url, { headers });
        await res.arrayBuffer();
        return res.status;
      },
      close: () => undefined,
    };
  }
  return new KeepAliveClient();
}

/** Reads at a fixed rate (open loop) and the latency of each, as the client saw it. */
async function readAt(get: Get, rate: number, seconds: number, urlOf: (i: number) => string, headers: Record<string, string>) {
  const latencies: number[] = [];
  let failures = 0;
  const run = await atRate(rate, seconds, async (i) => {
    const t0 = performance.now();
    const status = await get(urlOf(i), headers);
    if (status !== 200) failures++;
    else latencies.push(performance.now() - t0);
  });
  return { latencies, failures: failures + run.errors, achieved: run.sent / (run.elapsedMs / 1000) };
}

const describe = (r: { latencies: number[]; failures: number; achieved: number }) =>
  `p50 ${round(percentile(r.latencies, 50), 2)} ms, max ${round(Math.max(...r.latencies), 1)} ms, ${r.latencies.length} reads at ${round(r.achieved)} reads/s, ${r.failures} failed`;

/**
 * A user with `perUser` in-app messages (others' messages beside them) reads their feed at `rate`
 * reads/s: every 5th read asks for unread entries only, every 5th for the second page. The
 * baseline, in the same run and on the same database: a bare Fastify endpoint running the one
 * keyset query of a first page (no counts, actors, activities or vars). The two are measured in
 * alternating 5-second slices.
 */
export async function feedReads(perUser: number, rate: number, seconds: number): Promise<Figure[]> {
  const service = await startService('feed');
  const client = httpClient();
  let baseline: ChildProcess | undefined;
  try {
    const [channel] = (
      await service.sql.query<{ id: string; key: string }>(
        "SELECT id, key FROM rm_channels WHERE type = 'in_app_feed' ORDER BY created_at LIMIT 1",
      )
    ).rows;
    const others = Array.from({ length: 20 }, (_, i) => `other${i}`);
    const seeder = await Seeder.open(service);
    await seeder.users(['reader', ...others]);
    const seededAt = Date.now();
    await seeder.inAppMessages(channel, ['reader'], perUser, 0.3);
    await seeder.inAppMessages(channel, others, Math.round(perUser / others.length), 0.3);
    await seeder.close();
    // Bulk seeding leaves the planner without statistics for a minute (until autovacuum analyzes
    // the tables); a feed of 10,000 messages is read in that steady state, so take it now.
    await service.sql.query('ANALYZE');
    await backgroundSettled(service);
    const seedSeconds = round((Date.now() - seededAt) / 1000);

    const auth = { authorization: `Bearer ${service.secretKey}` };
    const feedUrl = `${service.url}/v1/users/reader/feeds/${channel.id}`;
    const first = (await (await fetch(feedUrl, { headers: auth })).json()) as {
      entries: unknown[];
      meta: Record<string, number>;
      page_info: { after: string };
    };
    if (first.entries.length !== 50 || first.meta.total_count !== perUser)
      throw new Error(`unexpected feed: ${JSON.stringify(first.meta)}`);
    const urlOf = (i: number) =>
      i % 5 === 3 ? `${feedUrl}?status=unread` : i % 5 === 4 ? `${feedUrl}?after=${first.page_info.after}` : feedUrl;

    const spawned = await spawnListening('dist/bench/baseline-server.js', {
      DATABASE_URL: service.databaseUrl,
      DATABASE_POOL_SIZE: '20',
      FEED_CHANNEL_ID: channel.id,
    });
    baseline = spawned.child;
    const bareUrl = () => `${spawned.url}/feed/reader`;
    await readAt(client.get, rate, 2, bareUrl, {});
    await readAt(client.get, rate, 2, urlOf, auth);
    // Service time: one reader, back to back (what one read costs when nothing waits in line).
    const sequential = async (url: (i: number) => string, headers: Record<string, string>, n = 500) => {
      const t0 = performance.now();
      for (let i = 0; i < n; i++) await client.get(url(i), headers);
      return (performance.now() - t0) / n;
    };
    const bareEach = await sequential(bareUrl, {});
    const feedEach = await sequential(urlOf, auth);
    // Alternating slices, so both see the same background load of the machine (it is shared).
    const bare = { latencies: [] as number[], failures: 0, achieved: 0 };
    const feed = { latencies: [] as number[], failures: 0, achieved: 0 };
    const rounds = Math.max(1, Math.round(seconds / 5));
    for (let round = 0; round < rounds; round++) {
      for (const [into, url, headers] of [
        [bare, bareUrl, {}],
        [feed, urlOf, auth],
      ] as const) {
        const r = await readAt(client.get, rate, seconds / rounds, url, headers);
        into.latencies.push(...r.latencies);
        into.failures += r.failures;
        into.achieved += r.achieved / rounds;
      }
    }
    await stopChild(baseline);
    baseline = undefined;
    const scenario = `feed of a user with ${perUser} in-app messages, ${rate} reads/s for ${seconds} s`;
    return [
      {
        scenario: 'baseline: bare endpoint, one keyset query of a first page (same database), one reader back to back',
        metric: 'mean',
        value: round(bareEach, 2),
        unit: 'ms/read',
      },
      {
        scenario: `feed of a user with ${perUser} in-app messages, one reader back to back`,
        metric: 'mean',
        value: round(feedEach, 2),
        unit: 'ms/read',
      },
      {
        scenario: `baseline: bare endpoint, one keyset query of a first page (same database), ${rate} reads/s`,
        metric: 'p99',
        value: round(percentile(bare.latencies, 99), 2),
        unit: 'ms',
        note: describe(bare),
      },
      { scenario, metric: 'p50', value: round(percentile(feed.latencies, 50), 2), unit: 'ms' },
      {
        scenario,
        metric: 'p99',
        value: round(percentile(feed.latencies, 99), 2),
        unit: 'ms',
        note: `${describe(feed)}; target p99 <= 20 ms; seeded in ${seedSeconds} s, then ANALYZE`,
      },
    ];
  } finally {
    client.close();
    if (baseline) await stopChild(baseline);
    await service.stop();
  }
}
