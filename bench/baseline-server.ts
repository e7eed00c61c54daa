/**
 * The benchmarks' baseline: a bare Fastify endpoint doing one INSERT per request, on the same
 * PostgreSQL, with the same pool size. Whatever the service adds is measured against this.
 */
import Fastify from 'fastify';
import { Pool } from 'pg';

async function main() {
  const max = Number(process.env.DATABASE_POOL_SIZE ?? 20);
  // Like the service's pool: connections once opened stay open (no reconnects inside a measurement).
  const pool = new Pool({ connectionString: process.env.DATABASE_URL, max, min: max });
  if (!process.env.FEED_CHANNEL_ID)
    await pool.query(
      'CREATE TABLE IF NOT EXISTS baseline_events (id bigserial PRIMARY KEY, payload jsonb NOT NULL, inserted_at timestamptz NOT NULL DEFAULT now())',
    );
  const app = Fastify({ logger: false });
  app.post('/insert', async (request) => {
    const { rows } = await pool.query<{ id: string }>('INSERT INTO baseline_events (payload) VALUES ($1) RETURNING id', [
      JSON.stringify(request.body ?? {}),
    ]);
    return { id: rows[0].id };
  });
  // The feed scenario's baseline: one keyset query of a user's first page, nothing else.
  app.get<{ Params: { user: string } }>('/feed/:user', async (request) => {
    const { rows } = await pool.query(
      `SELECT id, content, data, actors, seen_at, read_at, archived_at, inserted_at, updated_at FROM rm_messages
       WHERE environment = 'development' AND recipient_type = 'user' AND recipient_id = $1 AND channel_id = $2 AND archived_at IS NULL
       ORDER BY inserted_at DESC, id DESC LIMIT 51`,
      [request.params.user, process.env.FEED_CHANNEL_ID],
    );
    return { entries: rows.slice(0, 50) };
  });
  const url = await app.listen({ port: Number(process.env.PORT ?? 0), host: '127.0.0.1' });
  process.stdout.write(`${JSON.stringify({ msg: 'listening', url })}\n`);
  process.once(
    'SIGTERM',
    () =>
      void app
        .close()
        .then(() => pool.end())
        .then(() => process.exit(0)),
  );
}

void main();
