import { createTestDatabase, databaseBackends, requireBackend, testEnv, TestDatabase } from '@notify/testing';
import { randomUUID } from 'node:crypto';
import { EventToAppend, isTamperEvident } from '../event-store';
import { PostgresEventStore } from './postgres-event-store';

/**
 * The hash chain (ADR 0176): appends chain each event to its stream's previous one, and the
 * verifier names a row edited or deleted by SQL behind the store's back.
 */
requireBackend('postgres', !!testEnv.postgresUrl);

const meta = { environment: 'test', schema_version: 1, correlation_id: 'c1' };
const event = (n: number): EventToAppend => ({ id: randomUUID(), type: 'Happened', data: { n, text: `ä "quoted" ${n}` }, metadata: meta });

for (const backend of databaseBackends()) {
  describe(`PostgreSQL event store (${backend}): hash chain`, () => {
    let db: TestDatabase;
    let store: PostgresEventStore;
    const sql = (text: string, params: unknown[] = []) => db.database.pool.query(text, params);

    beforeAll(async () => {
      db = await createTestDatabase(backend, { migrate: false });
      store = await PostgresEventStore.create({ pool: db.database.pool });
    });
    afterAll(async () => {
      await store?.close();
      await db?.close();
    });
    // Each test starts from an empty log: what one test tampered with is not another's finding.
    beforeEach(() => sql('TRUNCATE es_events, es_streams, es_chain_checkpoints'));

    async function seed() {
      await store.append('a-1', [event(0), event(1)]);
      await store.append('a-1', [event(2)]);
      await store.appendMany([
        { streamId: 'b-1', events: [event(0)] },
        { streamId: 'a-1', events: [event(3), event(4)] },
      ]);
      await Promise.all(Array.from({ length: 5 }, (_, i) => store.append(`c-${i}`, [event(i)])));
    }

    it('chains every appended event, concurrent writers included, and a clean log verifies', async () => {
      expect(isTamperEvident(store)).toBe(true);
      await seed();
      const { rows } = await sql('SELECT count(*) AS c FROM es_events WHERE hash IS NULL');
      expect(Number(rows[0].c)).toBe(0);
      const report = await store.verifyChain();
      expect(report).toEqual({
        checkedEvents: 11,
        streams: 7,
        unchainedEvents: 0,
        root: expect.stringMatching(/^[0-9a-f]{64}$/),
        findings: [],
        checkpointed: true,
      });
      // The same log gives the same root; one more event changes it.
      expect((await store.verifyChain()).root).toBe(report.root);
      await store.append('b-1', [event(1)]);
      expect((await store.verifyChain()).root).not.toBe(report.root);
    });

    it('names a row whose data was edited by SQL', async () => {
      await seed();
      const { rows } = await sql(
        "UPDATE es_events SET data = jsonb_set(data, '{n}', '99') WHERE stream_id = 'a-1' AND stream_revision = 2 RETURNING global_position",
      );
      const report = await store.verifyChain();
      expect(report.findings).toEqual([
        expect.objectContaining({ kind: 'edited', streamId: 'a-1', revision: 2, globalPosition: BigInt(rows[0].global_position) }),
      ]);
      expect(report.checkpointed).toBe(false);
    });

    it('names edits of metadata, type and time too', async () => {
      await seed();
      await sql(`UPDATE es_events SET metadata = metadata || '{"actor":"someone"}' WHERE stream_id = 'c-0'`);
      await sql(`UPDATE es_events SET event_type = 'Other' WHERE stream_id = 'c-1'`);
      await sql(`UPDATE es_events SET created_at = created_at - interval '1 day' WHERE stream_id = 'c-2'`);
      const found = (await store.verifyChain()).findings.map((f) => [f.kind, f.streamId]);
      expect(found).toEqual([
        ['edited', 'c-0'],
        ['edited', 'c-1'],
        ['edited', 'c-2'],
      ]);
    });

    it('names a deleted row inside a stream and at its end', async () => {
      await seed();
      await sql("DELETE FROM es_events WHERE stream_id = 'a-1' AND stream_revision = 1");
      await sql("DELETE FROM es_events WHERE stream_id = 'a-1' AND stream_revision = 4");
      const report = await store.verifyChain();
      expect(report.findings).toEqual([
        expect.objectContaining({ kind: 'missing', streamId: 'a-1', revision: 1, detail: 'revision 1 is missing (deleted)' }),
        expect.objectContaining({ kind: 'missing_tail', streamId: 'a-1', revision: 4 }),
      ]);
    });

    it('names a whole stream deleted after a verification recorded it, and a stream rewritten with a new chain', async () => {
      await seed();
      expect((await store.verifyChain()).checkpointed).toBe(true);
      await sql("DELETE FROM es_events WHERE stream_id = 'b-1'");
      await sql("DELETE FROM es_streams WHERE stream_id = 'b-1'");
      // A careful forger recomputes the whole chain of c-3 after changing its data.
      await sql(
        `UPDATE es_events SET data = '{"n":42}', hash = es_event_hash(NULL, event_id, stream_id, stream_revision, event_type, '{"n":42}', metadata, created_at) WHERE stream_id = 'c-3'`,
      );
      const report = await store.verifyChain();
      expect(report.findings).toEqual([
        expect.objectContaining({ kind: 'stream_gone', streamId: 'b-1', revision: 0 }),
        expect.objectContaining({ kind: 'edited', streamId: 'c-3', revision: 0 }),
      ]);
    });

    it('reports events written before the chain as not covered, and a hash removed after chained events', async () => {
      await seed();
      await sql("UPDATE es_events SET hash = NULL WHERE stream_id = 'c-4'");
      expect((await store.verifyChain()).unchainedEvents).toBe(1);
      await sql("UPDATE es_events SET hash = NULL WHERE stream_id = 'a-1' AND stream_revision = 3");
      const report = await store.verifyChain();
      // The next event was chained to the removed hash, so it does not verify either.
      expect(report.findings).toEqual([
        expect.objectContaining({ kind: 'unchained', streamId: 'a-1', revision: 3 }),
        expect.objectContaining({ kind: 'edited', streamId: 'a-1', revision: 4 }),
      ]);
    });
  });
}
