import { allProjections } from '@notify/projections';
import { createTestDatabase, TestDatabase, describeWith } from '@notify/testing';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { activeWorkflow, feed, settled } from '../support/engine';
import { startTestApp, TestApp } from '../support/test-app';

/** A read model's rows as JSON, without the log positions that are each installation's own. */
const ROWS = (table: string) => `SELECT (to_jsonb(x) - 'trigger_position')::text AS r FROM ${table} x ORDER BY 1`;

const run = promisify(execFile);
const cli = path.resolve(__dirname, '../../dist/apps/cli/src/main.js');

/**
 * `notify events export` then `notify events import` into a fresh database (ADR 0153): every read
 * model rebuilt there equals the source's row for row, an erased user stays erased, the chain
 * holds, and an export resumes from the position it names.
 */
const describeServer = describeWith('postgres');

describeServer('events export and import', () => {
  let t: TestApp;
  let target: TestDatabase;
  let dir: string;
  beforeAll(async () => {
    t = await startTestApp({ backend: 'postgres' });
    target = await createTestDatabase('postgres', { migrate: false });
    dir = await mkdtemp(path.join(tmpdir(), 'notify-export-'));
  });
  afterAll(async () => {
    await t?.close();
    await target?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const mgmtEnv = () => ({ PATH: process.env.PATH, NOTIFY_URL: t.url, NOTIFY_SERVICE_TOKEN: t.serviceToken, LOG_LEVEL: 'error' });

  it('reproduces every read model in an empty installation, keeps the erased erased, and resumes', async () => {
    await activeWorkflow(t, 'export-welcome', { steps: [feed('in-app-1', 'Hi {{ recipient.name }}')] });
    await t.http('PUT', '/v1/users/keep', { body: { name: 'Kept Person', email: 'kept@example.com', phone_number: '+15550001111' } });
    await t.http('PUT', '/v1/users/gone', { body: { name: 'Gone Person', email: 'gone-export@example.com', secret_word: 'zanzibar' } });
    await t.http('PUT', '/v1/objects/projects/p1', { body: { name: 'Project' } });
    await t.http('PUT', '/v1/tenants/acme', { body: { name: 'Acme' } });
    await t.http('PUT', '/v1/users/keep/preferences/default', { body: { channel_types: { email: false } } });
    expect((await t.http('POST', '/v1/workflows/export-welcome/trigger', { body: { recipients: ['keep', 'gone'] } })).status).toBe(200);
    await settled(t);
    expect((await t.http('DELETE', '/v1/users/gone')).status).toBe(204);
    await settled(t);

    const file = path.join(dir, 'log.jsonl');
    const exported = await run(process.execPath, [cli, 'events', 'export', '--output', file], { env: mgmtEnv() });
    const lines = (await readFile(file, 'utf8')).trim().split('\n');
    const [{ n }] = await t.sql<{ n: string }>('SELECT count(*) AS n FROM es_events');
    expect(lines).toHaveLength(Number(n));
    const last = JSON.parse(lines[lines.length - 1]);
    expect(exported.stderr).toContain(`exported ${lines.length} events; resume with --after ${last.position}`);
    expect(lines.join('\n')).not.toContain('gone-export@example.com');

    // Resuming from the position of line 10 writes the rest, and nothing before it.
    const resumed = await run(process.execPath, [cli, 'events', 'export', '--after', JSON.parse(lines[9]).position], { env: mgmtEnv() });
    expect(resumed.stdout.trim().split('\n')).toEqual(lines.slice(10));

    const erasureKey = randomBytes(32).toString('hex');
    const imported = await run(process.execPath, [cli, 'events', 'import', file], {
      env: { PATH: process.env.PATH, DATABASE_URL: target.url, ERASURE_MASTER_KEY: erasureKey, LOG_LEVEL: 'error' },
    });
    expect(imported.stdout).toContain(
      `imported ${lines.length} events (last global position ${last.global_position}; 1 erased subjects kept erased)`,
    );

    // Every read model, row for row (the credentials and configuration versions are positions of
    // the log, which are the target's own: they only say "changed since"; so is a run's
    // trigger_position when the run was appended with its trigger, ADR 0255).
    const db = target.database.dataSource;
    for (const projection of allProjections())
      for (const table of projection.tables) {
        if (table === 'rm_credentials_version' || table === 'rm_config_version') continue;
        const rows = (q: (sql: string) => Promise<{ r: string }[]>) => q(ROWS(table));
        const source = (await rows((sql) => t.sql(sql))).map((r) => r.r);
        expect([table, (await rows((sql) => db.query(sql))).map((r) => r.r)]).toEqual([table, source]);
      }

    expect((await db.query(`SELECT id FROM rm_users ORDER BY id`)).map((r: { id: string }) => r.id)).toEqual(['keep']);
    expect(await db.query(`SELECT recipient_id FROM rm_messages`)).toEqual([{ recipient_id: 'keep' }]);

    // The same events, at the same global positions; the erased user has no key and its values appear nowhere.
    const events = (q: (sql: string) => Promise<unknown[]>) =>
      q(
        'SELECT global_position::text, event_id, stream_id, stream_revision, event_type, created_at FROM es_events ORDER BY global_position',
      );
    expect(await events((sql) => db.query(sql))).toEqual(await events((sql) => t.sql(sql)));
    expect(await db.query(`SELECT subject FROM erasure_keys WHERE subject LIKE '%/user/gone'`)).toEqual([]);
    expect(await db.query(`SELECT 1 FROM es_events WHERE data::text LIKE '%zanzibar%' OR data::text LIKE '%kept@example.com%'`)).toEqual(
      [],
    );

    // The chain is the target's own, over its sealed rows, and holds.
    const broken = await db.query(
      `SELECT e.global_position FROM es_events e LEFT JOIN es_events p ON p.stream_id = e.stream_id AND p.stream_revision = e.stream_revision - 1
       WHERE e.hash IS DISTINCT FROM es_event_hash(p.hash, e.event_id, e.stream_id, e.stream_revision, e.event_type, e.data, e.metadata, e.created_at)`,
    );
    expect(broken).toEqual([]);

    // Reactors start after the import: nothing is triggered or delivered again.
    expect(await db.query(`SELECT position FROM log_imports`)).toHaveLength(1);

    // A second import into the now non-empty log is refused.
    const again = await run(process.execPath, [cli, 'events', 'import', file], {
      env: { PATH: process.env.PATH, DATABASE_URL: target.url, ERASURE_MASTER_KEY: erasureKey, LOG_LEVEL: 'error' },
    }).catch((e) => e);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('not empty');
  });

  it('imports over HTTP into a running installation that holds only its first start: all or nothing', async () => {
    const file = path.join(dir, 'http.jsonl');
    await run(process.execPath, [cli, 'events', 'export', '--output', file], { env: mgmtEnv() });
    const lines = (await readFile(file, 'utf8')).trim().split('\n');
    const fresh = await startTestApp({ backend: 'postgres' });
    try {
      const count = async () => Number((await fresh.sql<{ n: string }>('SELECT count(*) AS n FROM es_events'))[0].n);
      const bootstrapped = await count();
      const post = (body: string) =>
        fetch(`${fresh.url}/v1/events/import?batch_size=7`, {
          method: 'POST',
          headers: { authorization: `Bearer ${fresh.serviceToken}`, 'content-type': 'application/x-ndjson' },
          body,
        });

      // A bad line after several batches were written: 422 naming it, and the log as it was.
      const broken = [...lines.slice(0, 20), '{"not": "an event"}', ...lines.slice(20)].join('\n');
      const refused = await post(broken);
      expect(refused.status).toBe(422);
      const error = await refused.json();
      expect(error).toMatchObject({ code: 'invalid_params', status: 422, errors: [{ field: 'line 21' }] });
      expect(await count()).toBe(bootstrapped);

      // Plain JSON is not an export.
      const json = await fetch(`${fresh.url}/v1/events/import`, {
        method: 'POST',
        headers: { authorization: `Bearer ${fresh.serviceToken}`, 'content-type': 'application/json' },
        body: '{}',
      });
      expect(json.status).toBe(415);

      const imported = await run(process.execPath, [cli, 'events', 'import', '--http', '--batch', '7', file], {
        env: { PATH: process.env.PATH, NOTIFY_URL: fresh.url, NOTIFY_SERVICE_TOKEN: fresh.serviceToken, LOG_LEVEL: 'error' },
      });
      const last = JSON.parse(lines[lines.length - 1]);
      expect(imported.stdout).toContain(`imported ${lines.length} events (last global position ${last.global_position}; ${bootstrapped}`);
      expect(await count()).toBe(lines.length);

      // The reactors of the running worker did not act on the imported history, and every read model equals the source's.
      for (const projection of allProjections())
        for (const table of projection.tables) {
          if (table === 'rm_credentials_version' || table === 'rm_config_version') continue;
          const rows = (q: (sql: string) => Promise<{ r: string }[]>) => q(ROWS(table));
          expect([table, await rows((sql) => fresh.sql(sql))]).toEqual([table, await rows((sql) => t.sql(sql))]);
        }
      expect(await count()).toBe(lines.length);

      // Now it holds more than a first start: refused, in the error shape.
      const again = await fetch(`${fresh.url}/v1/events/import`, {
        method: 'POST',
        headers: { authorization: `Bearer ${t.serviceToken}`, 'content-type': 'application/x-ndjson' },
        body: lines[0],
      });
      expect(again.status).toBe(409);
      expect(await again.json()).toMatchObject({ code: 'log_not_empty', status: 409 });
    } finally {
      await fresh.close();
    }
  });

  it(
    'imports over HTTP into the embedded installation, whose one connection the import holds (ADR 0249)',
    async () => {
      const file = path.join(dir, 'embedded.jsonl');
      await run(process.execPath, [cli, 'events', 'export', '--output', file], { env: mgmtEnv() });
      const lines = (await readFile(file, 'utf8')).trim().split('\n');
      // The export holds an erasure (the first test's user "gone"): its key is destroyed inside the import.
      expect(lines.some((l) => JSON.parse(l).type === 'UserErased')).toBe(true);
      const embedded = await startTestApp({ backend: 'embedded' });
      try {
        // Was 503 after the pool's 30 s acquire timeout: the erasure keys asked the one-connection pool for another.
        const imported = await run(process.execPath, [cli, 'events', 'import', '--http', '--batch', '50', file], {
          env: { PATH: process.env.PATH, NOTIFY_URL: embedded.url, NOTIFY_SERVICE_TOKEN: embedded.serviceToken, LOG_LEVEL: 'error' },
        });
        expect(imported.stdout).toContain(`imported ${lines.length} events`);
        const [{ n }] = await embedded.sql<{ n: string }>('SELECT count(*)::text AS n FROM es_events');
        expect(Number(n)).toBe(lines.length);
        // Sealed under the embedded installation's keys, created in the import's transaction: readable; the erased user's key is gone.
        // The credentials are the export's now; the embedded first start's key went with its log
        // (it stayed readable from the process's window of the old log, ADR 0250).
        const kept = await embedded.http('GET', '/v1/users/keep', { key: t.env.secretKey });
        expect(kept.status).toBe(200);
        expect(kept.body).toMatchObject({ id: 'keep', email: 'kept@example.com' });
        expect((await embedded.http('GET', '/v1/users/keep', { key: embedded.env.secretKey })).status).toBe(401);
        expect(await embedded.sql(`SELECT subject FROM erasure_keys WHERE subject LIKE '%/user/gone'`)).toEqual([]);
        expect(await embedded.sql(`SELECT subject FROM erasure_keys WHERE subject LIKE '%/user/keep'`)).toHaveLength(1);
        expect((await embedded.http('GET', '/v1/users/gone', { key: t.env.secretKey })).status).toBe(404);
      } finally {
        await embedded.close();
      }
    },
    // The embedded (WebAssembly) Postgres starts and migrates first: slow on a loaded machine.
    240_000,
  );
});
