import { createTestDatabase, TestDatabase, describeWith } from '@notify/testing';
import { BroadcastQueries } from './broadcasts.queries';

const describeOnPostgres = describeWith('postgres');

/**
 * A send's counts come from the runs read model alone: a completed run whose message the messages
 * read model has not caught up with yet is a message, not a skip.
 */
describeOnPostgres('broadcast send counts', () => {
  let db: TestDatabase;
  const ENV = 'dev';
  const at = '2030-01-01T10:00:00.000Z';

  beforeAll(async () => {
    db = await createTestDatabase('postgres');
  });
  afterAll(async () => {
    await db.close();
  });

  const run = async (n: number, sendId: string, status: string) => {
    const id = `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
    await db.database.dataSource.query(
      `INSERT INTO rm_workflow_recipient_runs (environment, id, workflow_run_id, workflow, recipient_type, recipient_id, status, trigger_source,
         trigger_position, inserted_at, updated_at)
       VALUES ($1, $2, $2, 'launch', 'user', $3, $4, $5, '1', $6, $6)`,
      [ENV, id, `u${n}`, status, JSON.stringify({ type: 'broadcast', broadcast_send_id: sendId }), at],
    );
    return id;
  };
  const event = async (n: number, runId: string, name: string) =>
    db.database.dataSource.query(
      `INSERT INTO rm_workflow_recipient_run_events (environment, id, run_id, seq, event, status, inserted_at)
       VALUES ($1, $2, $3, $4, $5, 'ok', $6)`,
      [ENV, `00000000-0000-4000-9000-${String(n).padStart(12, '0')}`, runId, n, name, at],
    );

  it('counts messages and skips of one send from its runs, without the messages read model', async () => {
    const send = 'send-1';
    const delivered = await run(1, send, 'completed');
    await event(1, delivered, 'message_enqueued');
    const twoChannels = await run(2, send, 'completed');
    await event(2, twoChannels, 'message_enqueued');
    await event(3, twoChannels, 'message_enqueued');
    const skipped = await run(3, send, 'completed');
    await event(4, skipped, 'step_skipped');
    const running = await run(4, send, 'queued');
    await event(5, running, 'run_enqueued');
    const otherSend = await run(5, 'send-2', 'completed');
    await event(6, otherSend, 'step_skipped');

    // rm_messages is empty: no message read model has caught up with any of them.
    expect(await new BroadcastQueries(db.database.dataSource).counts(ENV, 'launch', send)).toEqual({ messages: 3, skips: 1 });
    expect(await new BroadcastQueries(db.database.dataSource).counts(ENV, 'launch', 'send-3')).toEqual({ messages: 0, skips: 0 });
  });
});
