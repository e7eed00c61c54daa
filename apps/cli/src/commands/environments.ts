import { createEnvironment, issueServiceToken } from '@notify/application';
import { EventStore } from '@notify/eventstore';
import { EVENT_STORE } from '@notify/platform';
import { CommandGroup, UsageError } from '../command';
import { withApp } from './app-context';
import { securityCommand } from './signing-keys';

const actor = { environment: null, actor: 'cli' };

export const environmentCommands: CommandGroup = {
  name: 'environments',
  summary: 'Create environments and set their security mode',
  commands: [
    {
      name: 'create',
      summary: 'Create an environment (no keys; see `keys create`)',
      usage: '<slug> [--name NAME] [--order N]',
      options: { name: { type: 'string' }, order: { type: 'string' } },
      positionals: true,
      async run(ctx) {
        const slug = ctx.positionals[0];
        if (!slug || !/^[a-z0-9][a-z0-9-]{0,62}$/.test(slug))
          throw new UsageError('A slug of lowercase letters, digits and dashes is required');
        const order = ctx.values.order === undefined ? 0 : Number(ctx.values.order);
        if (!Number.isInteger(order)) throw new UsageError('--order must be an integer');
        const result = await withApp(ctx, (app) =>
          createEnvironment(
            app.get<EventStore>(EVENT_STORE),
            { slug, name: ctx.values.name as string | undefined, order },
            { ...actor, environment: slug },
          ),
        );
        ctx.io.stdout.write(`${result.created ? `created environment ${slug}` : `environment ${slug} already exists`}\n`);
      },
    },
    securityCommand,
  ],
};

export const serviceTokenCommands: CommandGroup = {
  name: 'service-tokens',
  summary: 'Issue management API service tokens',
  commands: [
    {
      name: 'create',
      summary: 'Issue a service token; printed once, stored hashed',
      usage: '[--name NAME]',
      options: { name: { type: 'string' } },
      async run(ctx) {
        const { token, tokenId } = await withApp(ctx, (app) =>
          issueServiceToken(app.get<EventStore>(EVENT_STORE), { name: (ctx.values.name as string | undefined) ?? 'cli' }, actor),
        );
        ctx.io.stdout.write(`service token (id ${tokenId}):\n${token}\n`);
      },
    },
  ],
};
