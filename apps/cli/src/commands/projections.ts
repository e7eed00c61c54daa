import { ProjectionRuntime } from '@notify/projection-runtime';
import { CliCommand, UsageError } from '../cli-command';

export const projectionCommands: CliCommand[] = [
  {
    name: 'projections status',
    usage: 'projections status',
    summary: 'Each read model: version, checkpoint and events applied',
    async run(_args, ctx) {
      const runtime = (await ctx.app()).get(ProjectionRuntime);
      for (const s of await runtime.status()) ctx.out(`${s.name.padEnd(24)} v${s.version}  position ${s.position || '(start)'}  events ${s.eventsApplied}`);
      ctx.out(`lag: ${await runtime.lag()} events`);
      return 0;
    },
  },
  {
    name: 'projections rebuild',
    usage: 'projections rebuild <name>|--all',
    summary: 'Empty a read model and replay the whole log into it',
    async run(args, ctx) {
      const runtime = (await ctx.app()).get(ProjectionRuntime);
      const names = args[0] === '--all' ? runtime.projections.map((p) => p.name) : args.slice(0, 1);
      if (names.length === 0) throw new UsageError(`Name a projection: ${runtime.projections.map((p) => p.name).join(', ')}`);
      for (const name of names) {
        const { events, ms } = await runtime.rebuild(name);
        ctx.out(`rebuilt ${name}: ${events} events in ${ms} ms`);
      }
      return 0;
    },
  },
];
