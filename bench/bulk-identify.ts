/**
 * Bulk identify throughput: 10,000 users in 10 requests of 1,000 through the public API, with
 * api and worker in one process on a real PostgreSQL (a fresh database, dropped afterwards).
 *
 *   npm run build && DATABASE_URL=postgres://postgres@127.0.0.1:5432/test node --enable-source-maps dist/bench/bulk-identify.js
 *
 * Options (environment): BENCH_USERS (default 10000), BENCH_LOG_LEVEL (default silent).
 * Prints progress while it runs, then one JSON line with the figures; writes the same JSON to
 * bench/results/bulk-identify.json.
 */
import 'reflect-metadata';
import { parseConfig } from '@notify/config';
import { createLogger } from '@notify/logging';
import { startHttp } from '@notify/platform';
import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Client } from 'pg';
import { ApiModule } from '../apps/api/src/api.module';
import { WorkerModule } from '../apps/worker/src/worker.module';

const PER_REQUEST = 1000;

async function main() {
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) throw new Error('Set DATABASE_URL to a PostgreSQL server (the bench creates and drops its own database)');
  const total = Number(process.env.BENCH_USERS ?? 10_000);
  const name = `bench_${randomBytes(4).toString('hex')}`;
  const admin = new Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;

  const secretKey = `sk_bench_${randomBytes(16).toString('hex')}`;
  const config = parseConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    DATABASE_URL: url.toString(),
    DATABASE_POOL_SIZE: '10',
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'silent',
    // The bench measures the worker, not the tier-1 limit of one bulk request per second.
    RATE_LIMIT_ENABLED: 'false',
    BOOTSTRAP_SECRET_KEY: secretKey,
  });
  const app = await startHttp(config, createLogger(config.LOG_LEVEL, { role: 'bench' }), [ApiModule.register(), WorkerModule.register()]);
  const base = (await app.getUrl()).replace('[::1]', '127.0.0.1');
  const call = async (method: string, p: string, body?: unknown) => {
    const res = await fetch(`${base}${p}`, {
      method,
      headers: { authorization: `Bearer ${secretKey}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (res.status >= 400 && res.status !== 401) throw new Error(`${method} ${p}: ${res.status} ${await res.text()}`);
    return { status: res.status, body: (await res.json().catch(() => undefined)) as any };
  };
  while ((await call('GET', '/v1/users?page_size=1')).status === 401) await new Promise((r) => setTimeout(r, 20));

  try {
    const started = Date.now();
    const ids: string[] = [];
    for (let offset = 0; offset < total; offset += PER_REQUEST) {
      const users = Array.from({ length: Math.min(PER_REQUEST, total - offset) }, (_, i) => ({
        id: `bench-user-${offset + i}`,
        name: `Bench User ${offset + i}`,
        email: `bench-${offset + i}@example.com`,
        plan: (offset + i) % 3 === 0 ? 'pro' : 'free',
      }));
      ids.push((await call('POST', '/v1/users/bulk/identify', { users })).body.id);
    }
    const accepted = Date.now() - started;
    let last = '';
    for (;;) {
      const ops = await Promise.all(ids.map(async (id) => (await call('GET', `/v1/bulk_operations/${id}`)).body));
      const processed = ops.reduce((n, o) => n + o.processed_rows, 0);
      const line = `processed ${processed}/${total} (${ops.filter((o) => o.status === 'completed').length}/${ops.length} operations completed)`;
      if (line !== last) console.error(`${((Date.now() - started) / 1000).toFixed(1)}s ${line}`);
      last = line;
      if (ops.every((o) => o.status === 'completed' || o.status === 'failed')) {
        const failed = ops.reduce((n, o) => n + o.error_count, 0);
        if (failed) throw new Error(`${failed} items failed`);
        break;
      }
      await new Promise((r) => setTimeout(r, 250));
    }
    const processedMs = Date.now() - started;
    // Until the users read model shows every one of them.
    for (;;) {
      const page = (await call('GET', '/v1/users?page_size=1')).body;
      if (page.page_info.total_count >= total) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const visibleMs = Date.now() - started;
    const result = {
      bench: 'bulk-identify',
      users: total,
      requests: ids.length,
      accepted_ms: accepted,
      processed_ms: processedMs,
      visible_ms: visibleMs,
      items_per_second: Math.round(total / (processedMs / 1000)),
      visible_items_per_second: Math.round(total / (visibleMs / 1000)),
      database: 'postgresql',
      node: process.version,
      at: new Date().toISOString(),
    };
    console.log(JSON.stringify(result));
    const out = path.join(process.cwd(), 'bench', 'results');
    await mkdir(out, { recursive: true });
    await writeFile(path.join(out, 'bulk-identify.json'), `${JSON.stringify(result, null, 2)}\n`);
  } finally {
    await app.close();
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
