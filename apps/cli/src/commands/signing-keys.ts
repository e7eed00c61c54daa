import { createSigningKey, revokeSigningKey, setEnhancedSecurityMode } from '@notify/application';
import { Database } from '@notify/database';
import { EventStore } from '@notify/eventstore';
import { DATABASE, EVENT_STORE } from '@notify/platform';
import { EnvironmentQueries } from '@notify/projections/environments';
import { CommandContext, CommandGroup, UsageError } from '../command';
import { withApp } from './app-context';

const actor = { actor: 'cli' };
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function environmentOf(ctx: CommandContext): string {
  const environment = ctx.values.environment as string | undefined;
  if (!environment) throw new UsageError('--environment is required');
  return environment;
}

async function requireEnvironment(db: Database, slug: string): Promise<void> {
  if (!(await new EnvironmentQueries(db.dataSource).getEnvironment(slug))) throw new UsageError(`No environment named ${slug}`);
}

function create(rotate: boolean) {
  return async (ctx: CommandContext) => {
    const environment = environmentOf(ctx);
    const key = await withApp(ctx, async (app) => {
      await requireEnvironment(app.get<Database>(DATABASE), environment);
      return createSigningKey(app.get<EventStore>(EVENT_STORE), { environment, rotate }, { ...actor, environment });
    });
    ctx.io.stdout.write(
      `signing key ${key.signingKeyId} for ${environment}${key.revoked.length ? ` (revoked ${key.revoked.join(', ')})` : ''}\n`,
    );
    ctx.io.stdout.write(`public key:\n${key.publicKey.trim()}\n`);
    ctx.io.stdout.write(`private key (shown once; sign user tokens with it):\n${key.privateKey.trim()}\n`);
  };
}

export const signingKeyCommands: CommandGroup = {
  name: 'signing-keys',
  summary: 'Create, rotate, list and revoke the RS256 keys that sign user tokens',
  commands: [
    {
      name: 'create',
      summary: 'Create a signing key; the private key is printed once',
      usage: '--environment SLUG',
      options: { environment: { type: 'string' } },
      run: create(false),
    },
    {
      name: 'rotate',
      summary: 'Create a signing key and revoke every other key of the environment',
      usage: '--environment SLUG',
      options: { environment: { type: 'string' } },
      run: create(true),
    },
    {
      name: 'list',
      summary: 'List signing keys (id, created, revoked)',
      usage: '--environment SLUG',
      options: { environment: { type: 'string' } },
      async run(ctx) {
        const environment = environmentOf(ctx);
        const keys = await withApp(ctx, async (app) => {
          const db = app.get<Database>(DATABASE);
          await requireEnvironment(db, environment);
          return new EnvironmentQueries(db.dataSource).listSigningKeys(environment);
        });
        for (const k of keys)
          ctx.io.stdout.write(
            `${k.id}  created ${k.createdAt.toISOString()}  ${k.revokedAt ? `revoked ${k.revokedAt.toISOString()}` : 'active'}\n`,
          );
        if (keys.length === 0) ctx.io.stdout.write(`no signing keys in ${environment}\n`);
      },
    },
    {
      name: 'revoke',
      summary: 'Revoke a signing key',
      usage: '<signing-key-id> --environment SLUG',
      options: { environment: { type: 'string' } },
      positionals: true,
      async run(ctx) {
        const environment = environmentOf(ctx);
        const id = ctx.positionals[0];
        if (!id || !UUID.test(id)) throw new UsageError('A signing key id (uuid) is required');
        const result = await withApp(ctx, (app) =>
          revokeSigningKey(app.get<EventStore>(EVENT_STORE), { environment, signingKeyId: id }, { ...actor, environment }),
        );
        ctx.io.stdout.write(result.revoked ? `revoked signing key ${id}\n` : `signing key ${id} was already revoked\n`);
      },
    },
  ],
};

export const securityCommand = {
  name: 'security',
  summary: 'Turn enhanced security mode (signed user tokens required for publishable keys) on or off',
  usage: '<slug> --enhanced on|off',
  options: { enhanced: { type: 'string' as const } },
  positionals: true,
  async run(ctx: CommandContext) {
    const environment = ctx.positionals[0];
    if (!environment) throw new UsageError('An environment slug is required');
    const enhanced = ctx.values.enhanced;
    if (enhanced !== 'on' && enhanced !== 'off') throw new UsageError('--enhanced must be on or off');
    const result = await withApp(ctx, async (app) => {
      await requireEnvironment(app.get<Database>(DATABASE), environment);
      return setEnhancedSecurityMode(
        app.get<EventStore>(EVENT_STORE),
        { environment, enabled: enhanced === 'on' },
        { ...actor, environment },
      );
    });
    ctx.io.stdout.write(`enhanced security mode ${enhanced} for ${environment}${result.changed ? '' : ' (unchanged)'}\n`);
  },
};
