import { ProjectionRuntime } from '@notify/projection-runtime';
import { CommandGroup, UsageError } from '../command';
import { withApp } from './app-context';

export const projectionCommands: CommandGroup = {
  name: 'projections',
  summary: 'Inspect and rebuild read models',
  commands: [
    {
      name: 'status',
      summary: 'Each read model: version, checkpoint and events applied',
      async run(ctx) {
        await withApp(ctx, async (app) => {
          const runtime = app.get(ProjectionRuntime);
          for (const s of await runtime.status())
            ctx.io.stdout.write(`${s.name.padEnd(24)} v${s.version}  position ${s.position || '(start)'}  events ${s.eventsApplied}\n`);
          ctx.io.stdout.write(`lag: ${await runtime.lag()} events\n`);
        });
      },
    },
    {
      name: 'rebuild',
      summary: 'Empty a read model and replay the whole log into it; --verify rebuilds into shadow tables and compares instead',
      usage: '<name> | --all [--verify]',
      options: { all: { type: 'boolean', default: false }, verify: { type: 'boolean', default: false } },
      positionals: true,
      async run(ctx) {
        return withApp(ctx, async (app) => {
          const runtime = app.get(ProjectionRuntime);
          const names = ctx.values.all ? runtime.projections.map((p) => p.name) : ctx.positionals.slice(0, 1);
          if (names.length === 0) throw new UsageError(`Name a projection: ${runtime.projections.map((p) => p.name).join(', ')}`);
          if (!ctx.values.verify) {
            for (const name of names) {
              const { events, ms } = await runtime.rebuild(name);
              ctx.io.stdout.write(`rebuilt ${name}: ${events} events in ${ms} ms\n`);
            }
            return 0;
          }
          let differing = 0;
          for (const name of names) {
            runtime.get(name);
            let shown = Date.now();
            const report = await runtime.verify(name, {
              onProgress: ({ events }) => {
                if (Date.now() - shown < 1000) return;
                shown = Date.now();
                ctx.io.stderr.write(`${name}: ${events} events replayed\n`);
              },
            });
            const rate = report.ms > 0 ? Math.round((report.events * 1000) / report.ms) : report.events;
            const rows = report.tables.map((t) => `${t.table} ${t.rows} rows`).join(', ');
            ctx.io.stdout.write(
              `verified ${name} at ${report.position || '(start)'}: ${report.events} events in ${report.ms} ms (${rate} events/s); ${rows}; ` +
                `${report.differences.length === 0 ? 'identical' : 'DIFFERENT'}\n`,
            );
            for (const d of report.differences) {
              differing++;
              ctx.io.stdout.write(`  ${d.table}: ${d.onlyLive} rows only in the live table, ${d.onlyRebuilt} only in the rebuilt one\n`);
              for (const s of d.samples) ctx.io.stdout.write(`    ${s.side.padEnd(7)} ${JSON.stringify(s.row)}\n`);
            }
          }
          return differing === 0 ? 0 : 1;
        });
      },
    },
  ],
};
