import { issueApiKey } from '@notify/application';
import { ApiKeyT, CreatedApiKeyT, RotatedApiKeyT } from '@notify/contracts';
import { EventStore } from '@notify/eventstore';
import { EVENT_STORE } from '@notify/platform';
import { CommandContext, CommandGroup, UsageError } from '../command';
import { withApp } from './app-context';
import { connection, guarded, mgmtRequest } from './events';

/**
 * API keys through the management API (a service token; ADR 0152). `keys create` without a
 * service token issues the key straight into the database, as at installation time before any
 * token exists.
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const keyOptions = { ...connection, environment: { type: 'string' as const } };

function environmentOf(ctx: CommandContext): string {
  const environment = ctx.values.environment as string | undefined;
  if (!environment) throw new UsageError('--environment is required');
  return environment;
}

function keyIdOf(ctx: CommandContext): string {
  const id = ctx.positionals[0];
  if (!id || !UUID.test(id)) throw new UsageError('A key id (uuid) is required');
  return id;
}

/** `3a1f…  secret  active  ci  …abcd  created …  last used …` */
export function formatKeyLine(k: ApiKeyT): string {
  const when = [`created ${k.created_at}`];
  if (k.expires_at) when.push(`${k.status === 'expired' ? 'expired' : 'expires'} ${k.expires_at}`);
  if (k.revoked_at) when.push(`revoked ${k.revoked_at}`);
  when.push(k.last_used_at ? `last used ${k.last_used_at}` : 'never used');
  return [k.id, k.kind.padEnd(11), k.status.padEnd(8), k.name ?? '-', `…${k.hint}`, ...when].join('  ');
}

function write(ctx: CommandContext, value: unknown, text: string): void {
  ctx.io.stdout.write(`${ctx.values.json ? JSON.stringify(value) : text}\n`);
}

const hasToken = (ctx: CommandContext) => Boolean(ctx.values.token ?? ctx.io.env.NOTIFY_SERVICE_TOKEN);

export const keyCommands: CommandGroup = {
  name: 'keys',
  summary: 'List, issue, rotate and revoke API keys',
  commands: [
    {
      name: 'list',
      summary: "List an environment's keys with their status and last use",
      usage: '--environment SLUG [--active] [--json]',
      options: { ...keyOptions, active: { type: 'boolean' } },
      run: (ctx) =>
        guarded(ctx, async () => {
          const environment = environmentOf(ctx);
          const { entries } = await mgmtRequest<{ entries: ApiKeyT[] }>(ctx, 'GET', '/v1/api_keys', {
            environment,
            active: ctx.values.active ? 'true' : undefined,
          });
          if (ctx.values.json) for (const k of entries) write(ctx, k, '');
          else if (entries.length === 0) ctx.io.stdout.write(`no keys in ${environment}\n`);
          else for (const k of entries) ctx.io.stdout.write(`${formatKeyLine(k)}\n`);
        }),
    },
    {
      name: 'create',
      summary: 'Issue an API key; its secret is printed once (only a hash is stored)',
      usage: '--environment SLUG --kind secret|publishable [--name NAME] [--json]',
      options: { ...keyOptions, kind: { type: 'string' }, name: { type: 'string' } },
      async run(ctx) {
        const environment = environmentOf(ctx);
        const kind = ctx.values.kind;
        const name = ctx.values.name as string | undefined;
        if (kind !== 'secret' && kind !== 'publishable') throw new UsageError('--kind must be secret or publishable');
        if (!hasToken(ctx)) {
          const { key, keyId } = await withApp(ctx, (app) =>
            issueApiKey(app.get<EventStore>(EVENT_STORE), { environment, kind, name }, { environment, actor: 'cli' }),
          );
          ctx.io.stdout.write(`${kind} key for ${environment} (id ${keyId}):\n${key}\n`);
          return 0;
        }
        return guarded(ctx, async () => {
          const created = await mgmtRequest<CreatedApiKeyT>(ctx, 'POST', '/v1/api_keys', { environment }, { kind, name });
          write(ctx, created, `${kind} key for ${environment} (id ${created.id}):\n${created.secret}`);
        });
      },
    },
    {
      name: 'rotate',
      summary: 'Issue a new secret for a key; the old one works for --overlap seconds more (default 86400, 0: stops now)',
      usage: '<key-id> --environment SLUG [--overlap SECONDS] [--json]',
      options: { ...keyOptions, overlap: { type: 'string' } },
      positionals: true,
      run: (ctx) =>
        guarded(ctx, async () => {
          const environment = environmentOf(ctx);
          const id = keyIdOf(ctx);
          const overlap = ctx.values.overlap === undefined ? undefined : Number(ctx.values.overlap);
          if (overlap !== undefined && !(Number.isInteger(overlap) && overlap >= 0))
            throw new UsageError('--overlap must be whole seconds');
          const rotated = await mgmtRequest<RotatedApiKeyT>(
            ctx,
            'POST',
            `/v1/api_keys/${id}/rotate`,
            { environment },
            overlap === undefined ? {} : { overlap_seconds: overlap },
          );
          write(
            ctx,
            rotated,
            `new ${rotated.kind} key (id ${rotated.id}) replacing ${id}, which works until ${rotated.rotated.expires_at}:\n${rotated.secret}`,
          );
        }),
    },
    {
      name: 'revoke',
      summary: 'Revoke a key: it answers 401 from the moment this returns',
      usage: '<key-id> --environment SLUG [--json]',
      options: keyOptions,
      positionals: true,
      run: (ctx) =>
        guarded(ctx, async () => {
          const key = await mgmtRequest<ApiKeyT>(ctx, 'DELETE', `/v1/api_keys/${keyIdOf(ctx)}`, { environment: environmentOf(ctx) });
          write(ctx, key, `revoked ${key.id} (${key.revoked_at})`);
        }),
    },
  ],
};
