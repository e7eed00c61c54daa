import { createEnvironment, issueApiKey, issueServiceToken } from '@notify/application';
import { EventStore } from '@notify/eventstore';
import { EVENT_STORE } from '@notify/platform';
import { parseArgs } from 'node:util';
import { CliCommand, CliContext, UsageError } from '../cli-command';

const actor = { environment: null, actor: 'cli' };

async function store(ctx: CliContext): Promise<EventStore> {
  return (await ctx.app()).get<EventStore>(EVENT_STORE);
}

export const environmentCommands: CliCommand[] = [
  {
    name: 'environments create',
    usage: 'environments create <slug> [--name <name>] [--order <n>]',
    summary: 'Create an environment (no keys; see keys create)',
    async run(args, ctx) {
      const { positionals, values } = parseArgs({ args, allowPositionals: true, options: { name: { type: 'string' }, order: { type: 'string' } } });
      const slug = positionals[0];
      if (!slug || !/^[a-z0-9][a-z0-9-]{0,62}$/.test(slug)) throw new UsageError('A slug of lowercase letters, digits and dashes is required');
      const result = await createEnvironment(await store(ctx), { slug, name: values.name, order: values.order ? Number(values.order) : 0 }, { ...actor, environment: slug });
      ctx.out(result.created ? `created environment ${slug}` : `environment ${slug} already exists`);
      return 0;
    },
  },
  {
    name: 'keys create',
    usage: 'keys create --environment <slug> --kind secret|publishable',
    summary: 'Issue an API key; it is printed once and stored hashed',
    async run(args, ctx) {
      const { values } = parseArgs({ args, options: { environment: { type: 'string' }, kind: { type: 'string' } } });
      if (!values.environment) throw new UsageError('--environment is required');
      if (values.kind !== 'secret' && values.kind !== 'publishable') throw new UsageError('--kind must be secret or publishable');
      const { key, keyId } = await issueApiKey(await store(ctx), { environment: values.environment, kind: values.kind }, { ...actor, environment: values.environment });
      ctx.out(`${values.kind} key for ${values.environment} (id ${keyId}):\n${key}`);
      return 0;
    },
  },
  {
    name: 'service-tokens create',
    usage: 'service-tokens create [--name <name>]',
    summary: 'Issue a management API service token; printed once, stored hashed',
    async run(args, ctx) {
      const { values } = parseArgs({ args, options: { name: { type: 'string' } } });
      const { token, tokenId } = await issueServiceToken(await store(ctx), { name: values.name ?? 'cli' }, actor);
      ctx.out(`service token (id ${tokenId}):\n${token}`);
      return 0;
    },
  },
];
