import type { EventContract } from '@notify/contracts';
import type { RecordedEvent } from '@notify/eventstore';
import type { EntityManager } from 'typeorm';
import type { z } from 'zod';
import { Projection } from './projection';

/** A recorded event of one contract, its data typed by the contract, with its environment at hand. */
export type ProjectedEvent<C extends EventContract> = Omit<RecordedEvent, 'type' | 'data'> & {
  readonly type: C['type'];
  readonly data: z.infer<C['data']>;
  /** The event's environment (metadata.environment); null for account-level events. */
  readonly environment: string;
};

/** One of several contracts' events, as a union discriminated by `type`: a switch on it narrows `data`. */
export type ProjectedEventOf<C extends EventContract> = C extends EventContract ? ProjectedEvent<C> : never;

type Handlers<C extends readonly EventContract[]> = {
  readonly [K in C[number]['type']]: (event: ProjectedEvent<Extract<C[number], { type: K }>>, tx: EntityManager) => Promise<void>;
};

interface Common<C extends readonly EventContract[]> {
  name: string;
  /** Bump when the projection's logic or tables change: the read model is rebuilt on start. */
  version: number;
  /** Tables a rebuild empties. */
  tables: readonly string[];
  /** The contracts of the events it reads: the log filter and the handlers' types come from them. */
  events: C;
  streamPrefixes?: readonly string[];
  /** Runs beside the other lanes instead of in their transactions (ADR 0145); default: the shared lane. */
  lane?: string;
  /** Yields to other work while that is behind, for a bounded time (ADR 0286); needs a lane of its own. */
  background?: boolean;
}

/**
 * A projection stated as its tables, its events and what each event does to the tables, typed
 * by the events' contracts: no skeleton loop, no switch, no casts (ADR 0163). `on` handles one
 * event at a time, in log order; `applyBatch` takes the whole batch for set-wise writes.
 */
export function defineProjection<const C extends readonly EventContract[]>(
  spec: Common<C> &
    (
      | {
          on: Handlers<C>;
          /**
           * Before the handlers, in the same transaction, with the batch's events of its contracts
           * (never called without any): for locking the rows the batch will write in one order
           * that other writers of the table share, so that they cannot deadlock with it (the
           * schedules projection and the schedule firer).
           */
          beforeBatch?: (events: readonly ProjectedEventOf<C[number]>[], tx: EntityManager) => Promise<void>;
          /**
           * After the handlers, in the same transaction, with the batch's events of its contracts
           * (never called without any): for a write that follows the whole batch once (the
           * environments projection moves its credentials version).
           */
          afterBatch?: (events: readonly ProjectedEventOf<C[number]>[], tx: EntityManager) => Promise<void>;
        }
      | { applyBatch: (events: readonly ProjectedEventOf<C[number]>[], tx: EntityManager) => Promise<void> }
    ),
): Projection {
  const types = [...new Set(spec.events.map((c) => c.type))];
  const project = (recorded: RecordedEvent) =>
    ({ ...recorded, environment: recorded.metadata.environment as string }) as unknown as ProjectedEventOf<C[number]>;
  const apply =
    'on' in spec
      ? async (events: readonly RecordedEvent[], tx: EntityManager) => {
          const handlers = spec.on as unknown as Record<string, (event: ProjectedEventOf<C[number]>, tx: EntityManager) => Promise<void>>;
          const handled: ProjectedEventOf<C[number]>[] = events.filter((e) => handlers[e.type]).map(project);
          if (spec.beforeBatch && handled.length) await spec.beforeBatch(handled, tx);
          for (const event of handled) await handlers[event.type](event, tx);
          if (spec.afterBatch && handled.length) await spec.afterBatch(handled, tx);
        }
      : async (events: readonly RecordedEvent[], tx: EntityManager) =>
          spec.applyBatch(events.filter((e) => types.includes(e.type)).map(project), tx);
  return {
    name: spec.name,
    version: spec.version,
    filter: { eventTypes: types, ...(spec.streamPrefixes ? { streamPrefixes: [...spec.streamPrefixes] } : {}) },
    tables: spec.tables,
    ...(spec.lane ? { lane: spec.lane } : {}),
    ...(spec.background ? { background: true } : {}),
    apply,
  };
}
