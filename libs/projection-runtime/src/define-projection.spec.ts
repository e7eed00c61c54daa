import { defineEvent } from '@notify/contracts';
import type { RecordedEvent } from '@notify/eventstore';
import type { EntityManager } from 'typeorm';
import { z } from 'zod';
import { defineProjection } from './define-projection';

const Planted = defineEvent('Planted', 1, z.object({ tree: z.string() }));
const Felled = defineEvent('Felled', 1, z.object({ tree: z.string(), reason: z.string() }));

const recorded = (type: string, data: unknown, environment = 'dev', revision = 0): RecordedEvent =>
  ({
    id: `${type}-${revision}`,
    type,
    streamId: 'tree-dev-oak',
    revision,
    globalPosition: BigInt(revision),
    position: String(revision),
    data,
    metadata: { environment, schema_version: 1 },
    createdAt: new Date(0),
  }) as unknown as RecordedEvent;

const tx = {} as EntityManager;

describe('defineProjection', () => {
  it('reads exactly the events of its contracts, with the tables and prefixes it states', () => {
    const projection = defineProjection({
      name: 'trees',
      version: 3,
      tables: ['rm_trees'],
      events: [Planted, Felled],
      streamPrefixes: ['tree-'],
      on: { Planted: async () => {}, Felled: async () => {} },
    });
    expect(projection).toMatchObject({
      name: 'trees',
      version: 3,
      tables: ['rm_trees'],
      filter: { eventTypes: ['Planted', 'Felled'], streamPrefixes: ['tree-'] },
    });
  });

  it('hands each event to its handler in log order, with its typed data and environment', async () => {
    const seen: string[] = [];
    const projection = defineProjection({
      name: 'trees',
      version: 1,
      tables: ['rm_trees'],
      events: [Planted, Felled],
      on: {
        async Planted({ data, environment }, handlerTx) {
          expect(handlerTx).toBe(tx);
          seen.push(`${environment}:planted:${data.tree}`);
        },
        async Felled({ data, environment, revision }) {
          seen.push(`${environment}:felled:${data.tree}:${data.reason}:${revision}`);
        },
      },
    });
    await projection.apply(
      [recorded('Planted', { tree: 'oak' }), recorded('Other', {}), recorded('Felled', { tree: 'oak', reason: 'storm' }, 'prod', 2)],
      tx,
    );
    expect(seen).toEqual(['dev:planted:oak', 'prod:felled:oak:storm:2']);
  });

  it('gives a batch projection the events of its contracts only, all at once', async () => {
    const batches: string[][] = [];
    const projection = defineProjection({
      name: 'trees',
      version: 1,
      tables: ['rm_trees'],
      events: [Planted],
      async applyBatch(events) {
        batches.push(events.map((e) => `${e.environment}:${e.data.tree}`));
      },
    });
    await projection.apply(
      [
        recorded('Planted', { tree: 'oak' }),
        recorded('Felled', { tree: 'oak', reason: 'x' }),
        recorded('Planted', { tree: 'elm' }, 'prod'),
      ],
      tx,
    );
    expect(batches).toEqual([['dev:oak', 'prod:elm']]);
  });

  it('gives a batch projection of several contracts a union that a switch on the type narrows', async () => {
    const seen: string[] = [];
    const projection = defineProjection({
      name: 'trees',
      version: 1,
      tables: ['rm_trees'],
      events: [Planted, Felled],
      async applyBatch(events) {
        for (const event of events) {
          switch (event.type) {
            case 'Planted':
              seen.push(`planted:${event.data.tree}`);
              break;
            case 'Felled':
              // `reason` exists on Felled only: this compiles only if the switch narrowed `data`.
              seen.push(`felled:${event.data.tree}:${event.data.reason}`);
              break;
          }
        }
      },
    });
    await projection.apply(
      [recorded('Planted', { tree: 'oak' }), recorded('Other', {}), recorded('Felled', { tree: 'oak', reason: 'storm' }, 'dev', 2)],
      tx,
    );
    expect(seen).toEqual(['planted:oak', 'felled:oak:storm']);
  });

  it('runs beforeBatch once before and afterBatch once after the handlers, with the batch events of its contracts, and not for a batch of none', async () => {
    const seen: string[] = [];
    const projection = defineProjection({
      name: 'trees',
      version: 1,
      tables: ['rm_trees'],
      events: [Planted, Felled],
      on: {
        async Planted({ data }) {
          seen.push(`planted:${data.tree}`);
        },
        async Felled({ data }) {
          seen.push(`felled:${data.tree}`);
        },
      },
      async beforeBatch(events, batchTx) {
        expect(batchTx).toBe(tx);
        seen.push(`before:${events.map((e) => e.position).join(',')}`);
      },
      async afterBatch(events, batchTx) {
        expect(batchTx).toBe(tx);
        seen.push(`after:${events.map((e) => e.position).join(',')}`);
      },
    });
    await projection.apply(
      [
        recorded('Planted', { tree: 'oak' }, 'dev', 1),
        recorded('Other', {}, 'dev', 2),
        recorded('Felled', { tree: 'oak', reason: 'x' }, 'dev', 3),
      ],
      tx,
    );
    await projection.apply([recorded('Other', {}, 'dev', 4)], tx);
    expect(seen).toEqual(['before:1,3', 'planted:oak', 'felled:oak', 'after:1,3']);
  });
});
