import { parseConfig } from '@notify/config';
import { createLogger } from '@notify/logging';
import { startHttp } from '@notify/platform';
import { createTestDatabase, TestDatabase, waitFor, describeWith } from '@notify/testing';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ApiModule } from '../../apps/api/src/api.module';
import { WorkerModule } from '../../apps/worker/src/worker.module';

const describePg = describeWith('postgres');

/**
 * A start that fails after the core has opened its database (here: the S3 asset bucket cannot be
 * reached) closes what it opened: no connection is left on the database, so the process can exit.
 */
describePg('a failed start', () => {
  let db: TestDatabase;
  let dataDir: string;

  beforeAll(async () => {
    db = await createTestDatabase('postgres', { migrate: false });
    dataDir = await mkdtemp(path.join(tmpdir(), 'notify-boot-'));
  });
  afterAll(async () => {
    await db?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('fails with the reason and leaves no database connection open', async () => {
    const name = new URL(db.url).pathname.slice(1);
    const connections = async () =>
      Number((await db.database.dataSource.query(`SELECT count(*) AS n FROM pg_stat_activity WHERE datname = $1`, [name]))[0].n);
    const mine = await connections(); // the test's own pool
    const config = parseConfig({
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'silent',
      DATA_DIR: dataDir,
      DATABASE_URL: db.url,
      DATABASE_POOL_SIZE: '4',
      SECRETS_KEY: randomBytes(32).toString('hex'),
      ASSETS_STORAGE: 's3',
      ASSETS_S3_BUCKET: 'unreachable',
      // Nothing listens on port 1: the bucket check fails after the database is open and migrated.
      ASSETS_S3_ENDPOINT: 'http://127.0.0.1:1',
      ASSETS_S3_FORCE_PATH_STYLE: 'true',
      ASSETS_S3_ACCESS_KEY_ID: 'id',
      ASSETS_S3_SECRET_ACCESS_KEY: 'secret',
    });
    await expect(
      startHttp(config, createLogger('silent', { role: 'test' }), [ApiModule.register(), WorkerModule.register()]),
    ).rejects.toThrow('ASSETS_S3_BUCKET: the bucket unreachable cannot be used');
    // The service's pool had connections (it migrated the database); all of them are closed.
    expect(Number((await db.database.dataSource.query('SELECT count(*) AS n FROM typeorm_migrations'))[0].n)).toBeGreaterThan(0);
    await waitFor(async () => (await connections()) === mine, 'the failed start to close its database connections');
  });
});
