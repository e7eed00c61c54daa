import { ChainReportT, LogEventPageT, LogEventT, LogImportResultT, ReplayToKafkaResultT } from '@notify/contracts';
import { Readable } from 'node:stream';
import { CommandContext, CommandGroup, OptionSpecs, UsageError } from '../command';
import { apiErrorMessage } from './api-error';
import { eventsExplainCommand } from './explain';
import { exportCommand, importCommand } from './log-transfer';

/**
 * The event log through the management API (a service token): the same reads an auditor makes
 * over HTTP (ADR 0175). `NOTIFY_URL` and `NOTIFY_SERVICE_TOKEN` (or --url, --token).
 */

export const connection: OptionSpecs = { url: { type: 'string' }, token: { type: 'string' }, json: { type: 'boolean' } };
const logFilters: OptionSpecs = {
  type: { type: 'string', multiple: true },
  prefix: { type: 'string', multiple: true },
  since: { type: 'string' },
  until: { type: 'string' },
  environment: { type: 'string' },
};

/** How long `tail` waits after catching up before it asks again. */
const TAIL_POLL_MS = 500;

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    super(apiErrorMessage(status, body));
  }
}

/** GET against the management API with the service token. */
export function mgmtGet<T>(ctx: CommandContext, path: string, query: Record<string, string | string[] | undefined> = {}): Promise<T> {
  return mgmtRequest<T>(ctx, 'GET', path, query);
}

export async function mgmtRequest<T>(
  ctx: CommandContext,
  method: 'GET' | 'POST' | 'DELETE',
  path: string,
  query: Record<string, string | string[] | undefined> = {},
  body?: unknown,
): Promise<T> {
  const base = (ctx.values.url as string | undefined) ?? ctx.io.env.NOTIFY_URL ?? 'http://localhost:3000';
  const token = (ctx.values.token as string | undefined) ?? ctx.io.env.NOTIFY_SERVICE_TOKEN;
  if (!token) throw new UsageError('A service token is required: --token or NOTIFY_SERVICE_TOKEN');
  const url = new URL(path, base);
  for (const [k, v] of Object.entries(query)) {
    if (v === undefined) continue;
    for (const item of Array.isArray(v) ? v : [v]) url.searchParams.append(k, item);
  }
  const headers: Record<string, string> = { authorization: `Bearer ${token}` };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), signal: ctx.io.signal });
  const text = await res.text();
  const answer = text ? (JSON.parse(text) as unknown) : undefined;
  if (!res.ok) throw new ApiError(res.status, answer);
  return answer as T;
}

/** POSTs an export to the import route as it is read (ADR 0197). */
export async function uploadExport(ctx: CommandContext, body: Readable, batchSize: number): Promise<LogImportResultT> {
  const base = (ctx.values.url as string | undefined) ?? ctx.io.env.NOTIFY_URL ?? 'http://localhost:3000';
  const token = (ctx.values.token as string | undefined) ?? ctx.io.env.NOTIFY_SERVICE_TOKEN;
  if (!token) throw new UsageError('A service token is required: --token or NOTIFY_SERVICE_TOKEN');
  const url = new URL('/v1/events/import', base);
  url.searchParams.set('batch_size', String(batchSize));
  const res = await fetch(url, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/x-ndjson' },
    body: Readable.toWeb(body) as ReadableStream,
    duplex: 'half',
    signal: ctx.io.signal,
  } as RequestInit);
  const text = await res.text();
  const answer = text ? (JSON.parse(text) as unknown) : undefined;
  if (!res.ok) throw new ApiError(res.status, answer);
  return answer as LogImportResultT;
}

/** One line per event: `#12 2026-01-01T00:00:00.000Z user-development-u1@0 UserIdentified corr=… cause=…`. */
export function formatEventLine(e: LogEventT): string {
  const ids = [e.correlation_id ? `corr=${e.correlation_id}` : '', e.causation_id ? `cause=${e.causation_id}` : ''].filter(Boolean);
  return [`#${e.global_position}`, e.recorded_at, `${e.stream}@${e.revision}`, e.type, ...ids].join(' ');
}

function print(ctx: CommandContext, events: readonly LogEventT[]): void {
  for (const e of events) ctx.io.stdout.write(`${ctx.values.json ? JSON.stringify(e) : formatEventLine(e)}\n`);
}

function logQuery(ctx: CommandContext, after: string | undefined) {
  const v = ctx.values;
  return {
    after,
    limit: v.limit as string | undefined,
    types: v.type as string[] | undefined,
    stream_prefix: v.prefix as string[] | undefined,
    since: v.since as string | undefined,
    until: v.until as string | undefined,
    environment: v.environment as string | undefined,
  };
}

/** Runs a command body; API errors print their message and exit 1, an abort (Ctrl-C) exits 0. */
export async function guarded(ctx: CommandContext, body: () => Promise<void>): Promise<number> {
  try {
    await body();
    return 0;
  } catch (error) {
    if (ctx.io.signal.aborted) return 0;
    if (error instanceof ApiError) {
      ctx.io.stderr.write(`${error.message}\n`);
      return 1;
    }
    throw error;
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done);
  });
}

export function formatChainReport(r: ChainReportT): string {
  const lines = [
    `${r.ok ? 'ok' : 'TAMPERED'}: ${r.checked_events} events in ${r.streams} streams checked` +
      (r.unchained_events ? ` (${r.unchained_events} written before the chain, not covered)` : ''),
    `root ${r.root}${r.checkpointed ? ' (heads recorded for the next verification)' : ''}`,
  ];
  for (const f of r.findings)
    lines.push(`${f.kind.padEnd(12)} ${f.stream}@${f.revision}${f.global_position ? ` (#${f.global_position})` : ''}: ${f.detail}`);
  return lines.join('\n');
}

export const eventCommands: CommandGroup = {
  name: 'events',
  summary: 'Read the event log through the management API (service token)',
  commands: [
    eventsExplainCommand,
    {
      name: 'types',
      summary: 'List the event types the service writes, with their schema versions',
      usage: '[--json] [--url URL] [--token svc_...]  (or NOTIFY_URL, NOTIFY_SERVICE_TOKEN)',
      options: connection,
      run: (ctx) =>
        guarded(ctx, async () => {
          const { entries } = await mgmtGet<{ entries: { type: string; schema_version: number }[] }>(ctx, '/v1/events/types');
          for (const t of entries) ctx.io.stdout.write(ctx.values.json ? `${JSON.stringify(t)}\n` : `${t.type}  v${t.schema_version}\n`);
        }),
    },
    {
      name: 'categories',
      summary: 'List the stream categories and how their stream ids are formed',
      usage: '[--json]',
      options: connection,
      run: (ctx) =>
        guarded(ctx, async () => {
          const { entries } = await mgmtGet<{ entries: { category: string; pattern: string; description: string }[] }>(
            ctx,
            '/v1/events/categories',
          );
          for (const c of entries)
            ctx.io.stdout.write(ctx.values.json ? `${JSON.stringify(c)}\n` : `${c.category.padEnd(20)} ${c.pattern}  ${c.description}\n`);
        }),
    },
    {
      name: 'read',
      summary: 'Read one stream (or $all, filtered) a page at a time; --all reads to the end',
      usage:
        '<stream-id | $all> [--backwards] [--from REVISION] [--after CURSOR] [--limit N] [--all] [--json]\n' +
        '                 $all only: [--type T]... [--prefix P]... [--since ISO] [--until ISO] [--environment SLUG]',
      options: {
        ...connection,
        ...logFilters,
        backwards: { type: 'boolean' },
        from: { type: 'string' },
        after: { type: 'string' },
        limit: { type: 'string' },
        all: { type: 'boolean' },
      },
      positionals: true,
      run: (ctx) =>
        guarded(ctx, async () => {
          const stream = ctx.positionals[0];
          if (!stream) throw new UsageError('A stream id (or $all) is required');
          let after = ctx.values.after as string | undefined;
          for (;;) {
            const page =
              stream === '$all'
                ? await mgmtGet<LogEventPageT>(ctx, '/v1/events', logQuery(ctx, after))
                : await mgmtGet<LogEventPageT>(ctx, `/v1/events/streams/${encodeURIComponent(stream)}`, {
                    direction: ctx.values.backwards ? 'backwards' : 'forwards',
                    from_revision: after === undefined ? (ctx.values.from as string | undefined) : undefined,
                    after,
                    limit: ctx.values.limit as string | undefined,
                  });
            print(ctx, page.entries);
            // A log read always hands back a cursor: it has reached the head when the cursor stops moving.
            const more = page.page_info.after !== null && page.page_info.after !== after;
            if (!ctx.values.all || !more) {
              if (!ctx.values.all && page.page_info.after && !ctx.values.json)
                ctx.io.stderr.write(`next: --after ${page.page_info.after}\n`);
              return;
            }
            after = page.page_info.after!;
          }
        }),
    },
    exportCommand(mgmtGet, { ...connection, ...logFilters }, logQuery),
    importCommand(connection, uploadExport),
    {
      name: 'replay-to-kafka',
      summary:
        'Re-publish a range of the log (positions, global positions or times, both ends included) to the Kafka stream topics, marked replayed',
      usage:
        '(--from POSITION --to POSITION | --from-global-position N --to-global-position N | --since ISO --until ISO) [--limit N per call] [--json]',
      options: {
        ...connection,
        from: { type: 'string' },
        to: { type: 'string' },
        'from-global-position': { type: 'string' },
        'to-global-position': { type: 'string' },
        since: { type: 'string' },
        until: { type: 'string' },
        limit: { type: 'string' },
      },
      run: (ctx) =>
        guarded(ctx, async () => {
          const v = ctx.values as Record<string, string | undefined>;
          const range = {
            to: v.to,
            from_global_position: v['from-global-position'],
            to_global_position: v['to-global-position'],
            since: v.since,
            until: v.until,
          };
          let from = v.from;
          const byRange = (range.from_global_position && range.to_global_position) || (range.since && range.until);
          if (!byRange && (!from || !range.to))
            throw new UsageError(
              '--from and --to (the `position` of the first and last event), --from-global-position and --to-global-position, or --since and --until are required',
            );
          const limit = v.limit === undefined ? undefined : Number(v.limit);
          let events = 0;
          let records = 0;
          for (let first = true; first || from; first = false) {
            const r: ReplayToKafkaResultT = await mgmtRequest<ReplayToKafkaResultT>(
              ctx,
              'POST',
              '/v1/events/replay_to_kafka',
              {},
              { ...range, from, limit },
            );
            events += r.events;
            records += r.records;
            if (ctx.values.json) ctx.io.stdout.write(`${JSON.stringify(r)}\n`);
            ctx.io.stderr.write(
              `replayed ${events} events (${records} records), up to ${r.last_position ?? '-'} (replay ${r.replay_id})\n`,
            );
            from = r.next_from ?? undefined;
          }
          if (!ctx.values.json) ctx.io.stdout.write(`replayed ${events} events as ${records} records\n`);
        }),
    },
    {
      name: 'tail',
      summary: 'Follow the log live from its head (or --after CURSOR) until interrupted',
      usage: '[--after CURSOR] [--type T]... [--prefix P]... [--environment SLUG] [--json]',
      options: { ...connection, ...logFilters, after: { type: 'string' }, limit: { type: 'string' } },
      run: (ctx) =>
        guarded(ctx, async () => {
          let after = (ctx.values.after as string | undefined) ?? (await mgmtGet<{ after: string }>(ctx, '/v1/events/head')).after;
          while (!ctx.io.signal.aborted) {
            const page = await mgmtGet<LogEventPageT>(ctx, '/v1/events', logQuery(ctx, after));
            print(ctx, page.entries);
            const caughtUp = page.page_info.after === after;
            after = page.page_info.after ?? after;
            if (caughtUp) await sleep(TAIL_POLL_MS, ctx.io.signal);
          }
        }),
    },
    {
      name: 'verify',
      summary: "Verify the log's hash chain; names each edited or deleted event (exit 1 when any)",
      usage: '[--no-checkpoint] [--json]',
      options: { ...connection, 'no-checkpoint': { type: 'boolean' } },
      run: async (ctx) => {
        let failed = false;
        const code = await guarded(ctx, async () => {
          const report = await mgmtRequest<ChainReportT>(ctx, 'POST', '/v1/events/verify', {
            checkpoint: ctx.values['no-checkpoint'] ? 'false' : undefined,
          });
          ctx.io.stdout.write(`${ctx.values.json ? JSON.stringify(report, null, 2) : formatChainReport(report)}\n`);
          failed = !report.ok;
        });
        return code || (failed ? 1 : 0);
      },
    },
    {
      name: 'state',
      summary:
        'A user, object, tenant, workflow or message as the log had it at a time, event position or global position (as_of), as JSON',
      usage:
        '(--user ID | --object COLLECTION/ID | --tenant ID | --workflow KEY | --message ID) --environment SLUG --as-of (ISO | POSITION | GLOBAL_POSITION)',
      options: {
        ...connection,
        user: { type: 'string' },
        object: { type: 'string' },
        tenant: { type: 'string' },
        workflow: { type: 'string' },
        message: { type: 'string' },
        environment: { type: 'string' },
        'as-of': { type: 'string' },
      },
      run: (ctx) =>
        guarded(ctx, async () => {
          const environment = ctx.values.environment as string | undefined;
          const asOf = ctx.values['as-of'] as string | undefined;
          if (!environment || !asOf) throw new UsageError('--environment and --as-of are required');
          const [user, object, tenant, workflow, message] = [
            ctx.values.user,
            ctx.values.object,
            ctx.values.tenant,
            ctx.values.workflow,
            ctx.values.message,
          ] as (string | undefined)[];
          if ([user, object, tenant, workflow, message].filter(Boolean).length !== 1)
            throw new UsageError('Give exactly one of --user, --object, --tenant, --workflow or --message');
          let path: string;
          if (message) path = `/v1/events/messages/${encodeURIComponent(message)}/state`;
          else if (workflow) path = `/v1/events/workflows/${encodeURIComponent(workflow)}/state`;
          else if (user) path = `/v1/events/users/${encodeURIComponent(user)}/state`;
          else if (tenant) path = `/v1/events/tenants/${encodeURIComponent(tenant)}/state`;
          else {
            const slash = object!.indexOf('/');
            if (slash <= 0 || slash === object!.length - 1) throw new UsageError('--object takes COLLECTION/ID');
            path = `/v1/events/objects/${encodeURIComponent(object!.slice(0, slash))}/${encodeURIComponent(object!.slice(slash + 1))}/state`;
          }
          const state = await mgmtGet<unknown>(ctx, path, { environment, as_of: asOf });
          ctx.io.stdout.write(`${JSON.stringify(state, null, 2)}\n`);
        }),
    },
    {
      name: 'history',
      summary: 'Everything that happened to one user or object (its stream, triggers, runs, messages), in log order',
      usage: '(--user ID | --object COLLECTION/ID) --environment SLUG [--all] [--json]',
      options: {
        ...connection,
        user: { type: 'string' },
        object: { type: 'string' },
        environment: { type: 'string' },
        all: { type: 'boolean' },
      },
      run: (ctx) =>
        guarded(ctx, async () => {
          const environment = ctx.values.environment as string | undefined;
          if (!environment) throw new UsageError('--environment is required');
          const user = ctx.values.user as string | undefined;
          const object = ctx.values.object as string | undefined;
          if (!user === !object) throw new UsageError('Give exactly one of --user ID or --object COLLECTION/ID');
          let path: string;
          if (user) path = `/v1/events/users/${encodeURIComponent(user)}`;
          else {
            const slash = object!.indexOf('/');
            if (slash <= 0 || slash === object!.length - 1) throw new UsageError('--object takes COLLECTION/ID');
            path = `/v1/events/objects/${encodeURIComponent(object!.slice(0, slash))}/${encodeURIComponent(object!.slice(slash + 1))}`;
          }
          let after: string | undefined;
          do {
            const page = await mgmtGet<LogEventPageT>(ctx, path, { environment, after });
            print(ctx, page.entries);
            after = ctx.values.all ? (page.page_info.after ?? undefined) : undefined;
          } while (after);
        }),
    },
  ],
};
