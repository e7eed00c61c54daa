import pg from 'pg';
import type { EntityManager } from 'typeorm';

type Defer = (sql: string, params: readonly unknown[]) => void;

/** Managers of transactions whose runner sends deferred writes with its COMMIT. */
const deferrals = new WeakMap<object, Defer>();

/**
 * A projection's write whose answer it does not read, as the last statement of its batch: where
 * the projection runtime applies the batch, it goes to the server with the transaction's COMMIT
 * in one round trip (ADR 0259); anywhere else (a rebuild's shadow tables, a test) it runs at once.
 * A statement the projection sends after it runs after it, as the order says.
 */
export async function deferWrite(tx: Pick<EntityManager, 'query'>, sql: string, params: readonly unknown[] = []): Promise<void> {
  const defer = deferrals.get(tx);
  if (defer) defer(sql, params);
  else await tx.query(sql, [...params]);
}

const prepareValue = (pg as unknown as { utils: { prepareValue(value: unknown): unknown } }).utils.prepareValue;

/**
 * A statement with its parameters written in as literals, each as node-postgres sends a
 * parameter (text, type left to the server), for the simple protocol. Undefined for a value that
 * has no text form (binary).
 */
export function withLiterals(sql: string, params: readonly unknown[], escapeLiteral: (value: string) => string): string | undefined {
  const literals: string[] = [];
  for (const param of params) {
    const value = prepareValue(param);
    if (value === null || value === undefined) literals.push('NULL');
    else if (typeof value === 'string') literals.push(escapeLiteral(value));
    else return undefined;
  }
  return sql.replace(/\$(\d+)/g, (placeholder, n: string) => literals[Number(n) - 1] ?? placeholder);
}

/**
 * The writes deferred inside one transaction: `manager` is what the projections are given; a
 * `query` on it first sends what was deferred before it, so order is kept. `beforeQuery`, when
 * given, runs once before the first statement sent through `manager` (the runtime begins its
 * transaction there when it has not yet, ADR 0268).
 */
export class DeferredWrites {
  readonly manager: EntityManager;
  private pending: { sql: string; params: readonly unknown[] }[] = [];
  private before?: Promise<void>;

  constructor(
    private readonly inner: EntityManager,
    private readonly beforeQuery?: () => Promise<void>,
  ) {
    const flushThen =
      (query: EntityManager['query']) =>
      async (...args: Parameters<EntityManager['query']>) => {
        if (this.beforeQuery) await (this.before ??= this.beforeQuery());
        await this.flush();
        return query.apply(inner, args);
      };
    this.manager = new Proxy(inner, {
      get: (target, key) => (key === 'query' ? flushThen(target.query) : Reflect.get(target, key, target)),
    });
    deferrals.set(this.manager, (sql, params) => this.pending.push({ sql, params }));
  }

  get size(): number {
    return this.pending.length;
  }

  /** Whether a statement went through `manager` (so `beforeQuery` ran). */
  get queried(): boolean {
    return this.before !== undefined;
  }

  /** Runs what is pending, one statement at a time. */
  async flush(): Promise<void> {
    const pending = this.pending;
    this.pending = [];
    for (const { sql, params } of pending) await this.inner.query(sql, [...params]);
  }

  /** What is pending as one simple-protocol text, or undefined when a value has no text form. */
  text(escapeLiteral: (value: string) => string): string | undefined {
    const texts: string[] = [];
    for (const { sql, params } of this.pending) {
      const text = withLiterals(sql, params, escapeLiteral);
      if (text === undefined) return undefined;
      texts.push(text);
    }
    return texts.join(';\n');
  }

  close(): void {
    deferrals.delete(this.manager);
    this.pending = [];
  }
}
