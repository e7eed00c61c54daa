import { PostgresEventStore, RecordedEvent } from '@notify/eventstore';
import { createTestDatabase, databaseBackends, TestDatabase, waitFor } from '@notify/testing';
import pg from 'pg';
import { randomUUID } from 'node:crypto';
import { EntityManager } from 'typeorm';
import { deferWrite } from './deferred-writes';
import { Projection } from './projection';
import { DEFER_UP_TO_EVENTS, ProjectionRuntime } from './projection-runtime';

const meta = { environment: 'test', schema_version: 1 };

/** Writes a row per event with values of every kind a statement's parameters take, deferred (ADR 0259). */
const writer = (name: string, type: string, options: { readBack?: boolean; readFirst?: boolean } = {}): Projection & { seen: number[] } => {
  const p: Projection & { seen: number[] } = {
    name,
    version: 1,
    filter: { eventTypes: [type] },
    tables: [],
    seen: [],
    async apply(events: readonly RecordedEvent[], tx: EntityManager) {
      const data = events.map((e) => e.data as { n: number });
      // A statement before the write whose failure the projection ignores (ADR 0268's guard).
      if (options.readFirst) await tx.query('SELECT 1').catch(() => undefined);
      await deferWrite(
        tx,
        `INSERT INTO test_deferred (id, projection, n, note, tags, doc, at, missing)
         SELECT * FROM unnest($1::uuid[], $2::text[], $3::int[], $4::text[], $5::text[], $6::jsonb[], $7::timestamptz[], $8::text[])`,
        [
          events.map((e) => e.id),
          events.map(() => name),
          data.map((d) => d.n),
          data.map((d) => `it's \\ ${d.n}`),
          data.map((d) => `{"a","b\\"${d.n}"}`),
          data.map((d) => ({ x: [d.n, { y: "z'" }] })),
          events.map(() => new Date('2026-11-27T08:00:00.000Z')),
          events.map(() => null),
        ],
      );
      // A statement after a deferred write runs after it.
      if (options.readBack)
        p.seen.push(
          ...(
            await tx.query<{ n: number }[]>('SELECT n FROM test_deferred WHERE id = ANY($1::uuid[]) ORDER BY n', [events.map((e) => e.id)])
          ).map((r) => r.n),
        );
    },
  };
  return p;
};

for (const backend of databaseBackends()) {
  describe(`deferred projection writes on ${backend} (ADR 0259)`, () => {
    let db: TestDatabase;
    let store: PostgresEventStore;
    const sent: string[] = [];
    /** Statements sent that lock a projection's checkpoint, by projection name. */
    const locks = new Map<string, number>();
    const lockTries = (name: string) => locks.get(name) ?? 0;
    let spy: jest.SpyInstance;

    beforeAll(async () => {
      db = await createTestDatabase(backend);
      store = await PostgresEventStore.create({ pool: db.database.pool });
      await db.database.dataSource.query(
        `CREATE TABLE test_deferred (id uuid NOT NULL, projection text NOT NULL, n int NOT NULL, note text, tags text,
           doc jsonb, at timestamptz, missing text, PRIMARY KEY (id, projection),
           CONSTRAINT only_healthy CHECK (NOT (n = 13 AND projection = 'deferring-faulty')))`,
      );
      const original = pg.Client.prototype.query;
      spy = jest.spyOn(pg.Client.prototype, 'query').mockImplementation(function (this: pg.Client, ...args: unknown[]) {
        const text = typeof args[0] === 'string' ? args[0] : (args[0] as { text?: string })?.text;
        if (text?.includes('test_deferred')) sent.push(text);
        const locked = text?.startsWith('BEGIN;') ? /ANY\(ARRAY\['([^']+)'\]::text\[\]\)/.exec(text) : null;
        if (locked) locks.set(locked[1], lockTries(locked[1]) + 1);
        return (original as (...a: unknown[]) => unknown).apply(this, args) as never;
      });
    });
    afterAll(async () => {
      spy.mockRestore();
      await store.close();
      await db.close();
    });

    const append = (type: string, ns: number[]) =>
      store.append(
        `dfr-${randomUUID()}`,
        ns.map((n) => ({ id: randomUUID(), type, data: { n }, metadata: meta })),
      );
    const rows = (projection: string) =>
      db.database.dataSource.query<Record<string, unknown>[]>(
        'SELECT n, note, tags, doc, at, missing FROM test_deferred WHERE projection = $1 ORDER BY n',
        [projection],
      );

    /** Runs the projection alone until it has applied the log up to `position`. */
    async function applyThrough(projection: Projection, type: string, position: string, batchSize: number): Promise<void> {
      const runtime = new ProjectionRuntime(store, db.database.dataSource, [projection], { batchSize });
      await runtime.start();
      try {
        expect(await runtime.waitFor(position, [{ type, streamId: 'dfr-' }], 30_000)).toBe(true);
      } finally {
        await runtime.stop();
      }
    }

    it('sends a batch whose projection only defers as one message: BEGIN, the checkpoint lock, the write, COMMIT (ADR 0259, 0268)', async () => {
      const projection = writer('deferring', 'Dfr');
      sent.length = 0;
      const { position } = await append('Dfr', [1, 2]);
      await applyThrough(projection, 'Dfr', position, 100);
      expect(sent).toHaveLength(1);
      expect(sent[0]).toMatch(
        /^BEGIN;\nWITH locked AS [\s\S]*projection_checkpoints_all_moved[\s\S]*;\n\s*INSERT INTO test_deferred[\s\S]*;\nCOMMIT$/,
      );
      // The same values through the extended protocol, for comparison.
      await deferWrite(db.database.dataSource.manager, 'INSERT INTO test_deferred SELECT $1::uuid, $2, $3, $4, $5, $6::jsonb, $7, $8', [
        randomUUID(),
        'direct',
        2,
        "it's \\ 2",
        '{"a","b\\"2"}',
        { x: [2, { y: "z'" }] },
        new Date('2026-11-27T08:00:00.000Z'),
        null,
      ]);
      const written = await rows('deferring');
      expect(written.map((r) => r.n)).toEqual([1, 2]);
      expect(written[1]).toEqual((await rows('direct'))[0]);
      expect(written[1]).toMatchObject({ note: "it's \\ 2", tags: '{"a","b\\"2"}', doc: { x: [2, { y: "z'" }] }, missing: null });
    });

    it('sends the write of a batch larger than DEFER_UP_TO_EVENTS on its own, as a parameterised statement (ADR 0260)', async () => {
      const projection = writer('large-batch', 'DfrLarge');
      const count = DEFER_UP_TO_EVENTS + 1;
      sent.length = 0;
      // One append: the whole of it is in the runtime's first page, one batch.
      const { position } = await append(
        'DfrLarge',
        Array.from({ length: count }, (_, i) => i),
      );
      await applyThrough(projection, 'DfrLarge', position, 1000);
      expect(sent).toHaveLength(1);
      expect(sent[0]).not.toMatch(/COMMIT/);
      expect(sent[0]).toMatch(/\$1::uuid\[\]/);
      expect((await rows('large-batch')).map((r) => r.n)).toEqual(Array.from({ length: count }, (_, i) => i));
    });

    it('runs a deferred write before a later statement of the same transaction, begun with the lock before either', async () => {
      const projection = writer('reading-back', 'DfrRead', { readBack: true });
      sent.length = 0;
      const { position } = await append('DfrRead', [5, 6]);
      await applyThrough(projection, 'DfrRead', position, 100);
      expect(projection.seen).toEqual([5, 6]);
      // The projection's first statement sent the BEGIN and the lock first (not in `sent`: it
      // does not name the table), then the deferred write on its own, then the read.
      expect(sent).toHaveLength(2);
      expect(sent[0]).toMatch(/^\s*INSERT INTO test_deferred/);
      expect(sent[1]).toMatch(/^SELECT n FROM test_deferred/);
    });

    // The embedded database runs one transaction at a time: a held row lock would hold everything.
    const heldCases = [
      {
        title: 'a one-message batch whose checkpoint another runner holds is refused whole, and applied once when it is free (ADR 0268)',
        name: 'held',
        readFirst: false,
        // The message carries the check that refuses it.
        tried: () => sent.filter((t) => t.includes('projection_checkpoints_all_moved')).length >= 2,
      },
      {
        title: 'a batch whose projection ignores the refusal of its first statement, the checkpoint being held, commits nothing (ADR 0268)',
        name: 'held-reading',
        readFirst: true,
        // The lock goes before the projection's read; the runtime finds it taken and goes the long way.
        tried: () => lockTries('held-reading') >= 4,
      },
    ];
    for (const held of backend === 'postgres' ? heldCases : [])
      it(held.title, async () => {
        const type = held.readFirst ? 'DfrHeldReading' : 'DfrHeld';
        const projection = writer(held.name, type, { readFirst: held.readFirst });
        const seed = await append(type, [0]);
        await applyThrough(projection, type, seed.position, 100);
        const { position } = await append(type, [1, 2]);
        // Another runner (here: a transaction of the test's, begun after the append so that it
        // does not hide the append from readers) holds the checkpoint row.
        const holder = await db.database.pool.connect();
        let runtime: ProjectionRuntime | undefined;
        try {
          await holder.query('BEGIN');
          await holder.query('SELECT 1 FROM projection_checkpoints WHERE name = $1 FOR UPDATE', [held.name]);
          sent.length = 0;
          runtime = new ProjectionRuntime(store, db.database.dataSource, [projection], { batchSize: 100 });
          await runtime.start();
          await waitFor(async () => held.tried(), 'the runtime trying the held checkpoint');
          expect(await rows(held.name)).toHaveLength(1);
          await holder.query('COMMIT');
          expect(await runtime.waitFor(position, [{ type, streamId: 'dfr-' }], 30_000)).toBe(true);
          expect((await rows(held.name)).map((r) => r.n)).toEqual([0, 1, 2]);
          expect((await runtime.status())[0].lastError).toBeUndefined();
        } finally {
          await holder.query('ROLLBACK').catch(() => undefined);
          holder.release();
          await runtime?.stop();
        }
      });

    it('a deferred write that fails is applied again without deferring: the projection at fault is named and isolated, the others go on', async () => {
      const faulty = writer('deferring-faulty', 'DfrFault');
      const healthy = writer('deferring-healthy', 'DfrFault');
      const runtime = new ProjectionRuntime(store, db.database.dataSource, [faulty, healthy], { batchSize: 100 });
      await runtime.start();
      try {
        // 13 breaks the table's CHECK for the faulty projection only: its write, sent with the
        // COMMIT, fails the whole transaction; applied again without deferring, it is named.
        const { position } = await append('DfrFault', [12, 13]);
        await waitFor(
          async () =>
            (await rows('deferring-healthy')).length === 2 &&
            !!(await runtime.status()).find((s) => s.name === 'deferring-faulty')?.lastError,
          'the healthy projection past the batch, the faulty one named',
        );
        expect((await runtime.status()).find((s) => s.name === 'deferring-faulty')?.lastError).toMatch(/only_healthy/);
        expect(await rows('deferring-faulty')).toEqual([]);
        expect((await rows('deferring-healthy')).map((r) => r.n)).toEqual([12, 13]);
        expect(await runtime.waitFor(position, [{ type: 'DfrFault', streamId: 'dfr-' }], 200)).toBe(false);
      } finally {
        await runtime.stop();
      }
    });
  });
}
