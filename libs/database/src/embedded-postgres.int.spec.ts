import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { EmbeddedPostgres } from './embedded-postgres';

/** The embedded database on a data directory, as `npm start` runs it. */
describe('EmbeddedPostgres', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'notify-embedded-'));
  });
  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it(
    'stops when PGlite says it has closed, not at its timeout, and keeps what was written',
    async () => {
      const first = await EmbeddedPostgres.start({ dataDir, maxConnections: 4 });
      const client = new Client({ connectionString: first.url });
      await client.connect();
      await client.query('CREATE TABLE kept (v text)');
      await client.query(`INSERT INTO kept VALUES ('here')`);
      await client.end();
      // The thread's answer arrives: stop() no longer waits out its timeout (it did, for 10 s).
      expect(await first.stop()).toBe('closed');
      expect(existsSync(path.join(dataDir, 'pglite.lock'))).toBe(false);

      const second = await EmbeddedPostgres.start({ dataDir, maxConnections: 4 });
      const again = new Client({ connectionString: second.url });
      try {
        await again.connect();
        expect((await again.query('SELECT v FROM kept')).rows).toEqual([{ v: 'here' }]);
      } finally {
        await again.end();
        expect(await second.stop()).toBe('closed');
      }
    },
    // Two starts of the WebAssembly Postgres (the first creates the directory): slow on a loaded machine.
    180_000,
  );
});
