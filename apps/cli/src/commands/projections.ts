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
      summary: 'Empty a read model and replay the whole log into it',
      usage: '<name> | --all',
      options: { all: { type: 'boolean', default: false } },
      positionals: true,
      async run(ctx) {
        await withApp(ctx, async (app) => {
          const runtime = app.get(ProjectionRuntime);
          const names = ctx.values.all ? runtime.projections.map((p) => p.name) : ctx.positionals.slice(0, 1);
          if (names.length === 0) throw new UsageError(`Name a projection: ${runtime.projections.map((p) => p.name).join(', ')}`);
          for (const name of names) {
            const { events, ms } = await runtime.rebuild(name);
            ctx.io.stdout.write(`rebuilt ${name}: ${events} events in ${ms} ms\n`);
          }
        });
      },
    },
  ],
};
