import { Client } from 'pg';
import { waitFor } from './wait';

/**
 * Forces an append transaction to stay open after its row (and so its global position) exists,
 * without hoping for a race: a trigger on `es_events` makes each append of `eventType` wait for an
 * advisory lock that `hold()` takes; `waiting()` returns once such an append is seen blocked on it
 * in pg_locks; `release()` lets it commit. Only a server has concurrent transactions, so this is
 * for Postgres. Each test file passes its own `lockId`, so files running at once on one server do
 * not hold each other's appends.
 */
export interface SlowAppends {
  /** The connection that holds the lock, for the test's own queries on the database's clock. */
  readonly client: Client;
  hold(): Promise<void>;
  waiting(): Promise<void>;
  release(): Promise<void>;
  close(): Promise<void>;
}

export async function installSlowAppends(url: string, lockId: number, eventType = 'Slow'): Promise<SlowAppends> {
  if (!/^[A-Za-z]+$/.test(eventType)) throw new Error(`an event type of letters only, not ${eventType}`);
  const client = new Client({ connectionString: url });
  await client.connect();
  await client.query(`
    CREATE FUNCTION slow_commit() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN IF NEW.event_type = '${eventType}' THEN PERFORM pg_advisory_xact_lock(${Number(lockId)}); END IF; RETURN NEW; END $$;
    CREATE TRIGGER slow_commit AFTER INSERT ON es_events FOR EACH ROW EXECUTE FUNCTION slow_commit();`);
  let holding = false;
  const release = async () => {
    if (!holding) return;
    holding = false;
    await client.query('SELECT pg_advisory_unlock($1)', [lockId]);
  };
  return {
    client,
    async hold() {
      await client.query('SELECT pg_advisory_lock($1)', [lockId]);
      holding = true;
    },
    waiting: () =>
      waitFor(
        async () =>
          (
            await client.query(
              `SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND NOT granted AND objid = $1
                 AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
              [lockId],
            )
          ).rowCount === 1,
        `an append of ${eventType} to wait with its row inserted`,
      ).then(() => undefined),
    release,
    async close() {
      await release().catch(() => undefined);
      await client.end();
    },
  };
}
