import { ERASURE_KEYS, ErasureKeyStore, importLog } from '@notify/application';
import { LogEventPageT, LogImportResultT } from '@notify/contracts';
import { Database } from '@notify/database';
import { EventStore } from '@notify/eventstore';
import { DATABASE, EVENT_STORE } from '@notify/platform';
import { ProjectionRuntime, recordLogImport } from '@notify/projection-runtime';
import { DomainError } from '@notify/domain';
import { createReadStream, createWriteStream, WriteStream } from 'node:fs';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';
import { CliCommand, CommandContext, OptionSpecs, UsageError } from '../command';
import { withApp } from './app-context';

/**
 * Export and import of the log (ADR 0153). Export reads the management API's log read (the same
 * filters, a service token) up to the head it found when it started, one event a line; import
 * writes an export into an empty installation's database and rebuilds every read model from it.
 */

type Get = <T>(ctx: CommandContext, path: string, query?: Record<string, string | string[] | undefined>) => Promise<T>;

/** How often the progress line is written. */
const PROGRESS_MS = 1000;

function progress(ctx: CommandContext) {
  const started = Date.now();
  let shown = started;
  return (line: (rate: number) => string, force = false) => {
    const now = Date.now();
    if (!force && now - shown < PROGRESS_MS) return;
    shown = now;
    ctx.io.stderr.write(`${line((now - started) / 1000)}\n`);
  };
}

async function write(out: WriteStream | undefined, ctx: CommandContext, text: string): Promise<void> {
  if (!out) {
    ctx.io.stdout.write(text);
    return;
  }
  if (!out.write(text)) await once(out, 'drain');
}

export function exportCommand(get: Get, options: OptionSpecs, logQuery: (ctx: CommandContext, after?: string) => object): CliCommand {
  return {
    name: 'export',
    summary: 'Write the log (filtered as `read $all`) as JSONL, one event a line, up to the head; resumable with --after',
    usage: '[--output FILE] [--after POSITION] [--type T]... [--prefix P]... [--since ISO] [--until ISO] [--environment SLUG]',
    options: { ...options, output: { type: 'string' }, after: { type: 'string' }, limit: { type: 'string' } },
    async run(ctx) {
      const file = ctx.values.output as string | undefined;
      let after = ctx.values.after as string | undefined;
      let resume = after;
      let events = 0;
      const show = progress(ctx);
      const head = await get<{ position: string }>(ctx, '/v1/events/head');
      // Resuming into the same file appends to what the interrupted run wrote.
      const out = file ? createWriteStream(file, { flags: after ? 'a' : 'w' }) : undefined;
      try {
        while (!ctx.io.signal.aborted) {
          const page = await get<LogEventPageT>(ctx, '/v1/events', {
            ...logQuery(ctx, after),
            limit: (ctx.values.limit as string) ?? '500',
          });
          const entries = page.entries.filter((e) => e.position <= head.position);
          if (entries.length) {
            await write(out, ctx, entries.map((e) => `${JSON.stringify(e)}\n`).join(''));
            events += entries.length;
            resume = entries[entries.length - 1].position;
            show(
              (s) =>
                `exported ${events} events (${Math.round(events / Math.max(s, 0.001))}/s), up to ${entries[entries.length - 1].recorded_at}`,
            );
          }
          const atHead = entries.length < page.entries.length || page.page_info.after === null || page.page_info.after === after;
          if (atHead) break;
          after = page.page_info.after!;
        }
      } finally {
        if (out) {
          out.end();
          await once(out, 'close');
        }
        ctx.io.stderr.write(`exported ${events} events${resume ? `; resume with --after ${resume}` : ''}\n`);
      }
    },
  };
}

async function* linesOf(file: string | undefined): AsyncIterable<string> {
  const input = file && file !== '-' ? createReadStream(file) : process.stdin;
  yield* createInterface({ input, crlfDelay: Infinity });
}

/** Sends an export to a running installation's import route (ADR 0197). */
export type Upload = (ctx: CommandContext, body: Readable, batchSize: number) => Promise<LogImportResultT>;

export const importCommand = (connection: OptionSpecs, upload: Upload): CliCommand => ({
  name: 'import',
  summary: 'Write an export into this installation (its log must be empty) and rebuild every read model from it',
  usage: '[FILE | -] [--batch N] (DATABASE_URL: the installation to import into) | --http [--url URL] [--token svc_...] FILE',
  options: { ...connection, batch: { type: 'string' }, http: { type: 'boolean' } },
  positionals: true,
  async run(ctx) {
    const batchSize = ctx.values.batch === undefined ? 500 : Number(ctx.values.batch);
    if (!Number.isInteger(batchSize) || batchSize < 1) throw new UsageError('--batch must be a positive integer');
    if (ctx.values.http) {
      // Over HTTP into a running installation that holds only its first start: all or nothing.
      const file = ctx.positionals[0];
      let result: LogImportResultT;
      try {
        result = await upload(ctx, file && file !== '-' ? createReadStream(file) : process.stdin, batchSize);
      } catch (error) {
        // The API's refusal (not empty, a bad line: nothing was written), as `status: message`.
        if (typeof (error as { status?: unknown }).status !== 'number') throw error;
        ctx.io.stderr.write(`${(error as Error).message}\n`);
        return 1;
      }
      ctx.io.stdout.write(
        `imported ${result.events} events (last global position ${result.last_global_position ?? '-'}; ` +
          `${result.replaced_events} first-start events replaced; ${result.erased_subjects} erased subjects kept erased); ` +
          `rebuilt ${result.projections.length} read models; position ${result.position}\n`,
      );
      return 0;
    }
    return withApp(ctx, async (app) => {
      const show = progress(ctx);
      let result;
      try {
        result = await importLog(app.get<EventStore>(EVENT_STORE), app.get<ErasureKeyStore>(ERASURE_KEYS), linesOf(ctx.positionals[0]), {
          batchSize,
          onProgress: (p) =>
            show((s) => `imported ${p.events} events (${Math.round(p.events / Math.max(s, 0.001))}/s), at #${p.lastGlobalPosition}`),
        });
      } catch (error) {
        if (error instanceof DomainError) {
          ctx.io.stderr.write(`${error.message}\n`);
          return 1;
        }
        throw error;
      }
      await recordLogImport(app.get<Database>(DATABASE).dataSource, result.position, result.events);
      ctx.io.stdout.write(
        `imported ${result.events} events (last global position ${result.lastGlobalPosition}; ${result.erasedSubjects} erased subjects kept erased)\n`,
      );
      const runtime = app.get(ProjectionRuntime);
      for (const projection of runtime.projections) {
        const rebuilt = await runtime.rebuild(projection.name);
        ctx.io.stdout.write(`rebuilt ${projection.name}: ${rebuilt.events} events in ${rebuilt.ms} ms\n`);
      }
      return 0;
    });
  },
});
