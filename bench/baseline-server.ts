/**
 * The benchmarks' baseline: a bare Fastify endpoint doing one INSERT per request, on the same
 * PostgreSQL, with the same pool size. Whatever the service adds is measured against this.
 */
import Fastify from 'fastify';
import { Pool } from 'pg';

async function main() {
  const pool = new Pool({ connectionString: process.env.DATABASE_URL, max: Number(process.env.DATABASE_POOL_SIZE ?? 20) });
  await pool.query('CREATE TABLE IF NOT EXISTS baseline_events (id bigserial PRIMARY KEY, payload jsonb NOT NULL, inserted_at timestamptz NOT NULL DEFAULT now())');
  const app = Fastify({ logger: false });
  app.post('/insert', async (request) => {
    const { rows } = await pool.query<{ id: string }>('INSERT INTO baseline_events (payload) VALUES ($1) RETURNING id', [JSON.stringify(request.body ?? {})]);
    return { id: rows[0].id };
  });
  const url = await app.listen({ port: Number(process.env.PORT ?? 0), host: '127.0.0.1' });
  process.stdout.write(`${JSON.stringify({ msg: 'listening', url })}\n`);
  process.once('SIGTERM', () => void app.close().then(() => pool.end()).then(() => process.exit(0)));
}

void main();
