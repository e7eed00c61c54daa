import { createEnvironment, issueServiceToken } from '@notify/application';
import { EnvironmentT, MgmtPageInfoT, WhoamiResponseT } from '@notify/contracts';
import { EventStore } from '@notify/eventstore';
import { EVENT_STORE } from '@notify/platform';
import { CommandContext, CommandGroup, UsageError } from '../command';
import { withApp } from './app-context';
import { connection, guarded, mgmtRequest } from './events';
import { securityCommand } from './signing-keys';

/** `development  Development  order 0  system  created …  last commit …` */
export function formatEnvironmentLine(e: EnvironmentT): string {
  return [
    e.slug,
    e.name,
    `order ${e.order}`,
    e.owner,
    `created ${e.created_at}`,
    e.last_commit_at ? `last commit ${e.last_commit_at}` : 'no commit',
  ].join('  ');
}

function writeJsonOr(ctx: CommandContext, value: unknown, text: string): void {
  ctx.io.stdout.write(`${ctx.values.json ? JSON.stringify(value) : text}\n`);
}

const actor = { environment: null, actor: 'cli' };

export const environmentCommands: CommandGroup = {
  name: 'environments',
  summary: 'Create, list and show environments and set their security mode',
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
    {
      name: 'list',
      summary: 'List the environments of the account, in their order (management API, a service token)',
      usage: '[--json] [--url URL] [--token svc_...]  (or NOTIFY_URL, NOTIFY_SERVICE_TOKEN)',
      options: connection,
      run: (ctx) =>
        guarded(ctx, async () => {
          let after: string | undefined;
          do {
            const page = await mgmtRequest<{ entries: EnvironmentT[]; page_info: MgmtPageInfoT }>(ctx, 'GET', '/v1/environments', {
              limit: '100',
              after,
            });
            for (const e of page.entries) writeJsonOr(ctx, e, formatEnvironmentLine(e));
            after = page.page_info.after ?? undefined;
          } while (after);
        }),
    },
    {
      name: 'get',
      summary: 'Show one environment (management API, a service token)',
      usage: '<slug> [--json] [--url URL] [--token svc_...]',
      options: connection,
      positionals: true,
      run: (ctx) =>
        guarded(ctx, async () => {
          const slug = ctx.positionals[0];
          if (!slug) throw new UsageError('An environment slug is required');
          const e = await mgmtRequest<EnvironmentT>(ctx, 'GET', `/v1/environments/${encodeURIComponent(slug)}`);
          writeJsonOr(
            ctx,
            e,
            [
              `slug: ${e.slug}`,
              `name: ${e.name}`,
              `order: ${e.order}`,
              `owner: ${e.owner}`,
              `created: ${e.created_at}`,
              `updated: ${e.updated_at}`,
              `last commit: ${e.last_commit_at ?? '-'}`,
            ].join('\n'),
          );
        }),
    },
    securityCommand,
  ],
};

export const whoamiCommands: CommandGroup = {
  name: 'whoami',
  summary: 'The account and the service token the CLI calls the management API with',
  default: 'show',
  commands: [
    {
      name: 'show',
      summary: 'The account and the service token (GET /v1/whoami); `notify whoami` runs it',
      usage: '[--json] [--url URL] [--token svc_...]  (or NOTIFY_URL, NOTIFY_SERVICE_TOKEN)',
      options: connection,
      run: (ctx) =>
        guarded(ctx, async () => {
          const me = await mgmtRequest<WhoamiResponseT>(ctx, 'GET', '/v1/whoami');
          const who =
            me.type === 'service_token'
              ? `service token ${me.service_token_name ?? '(unnamed)'}`
              : `member ${me.user_name ?? me.user_email ?? me.user_id}`;
          writeJsonOr(ctx, me, `${who} on account ${me.account_name} (${me.account_slug})`);
        }),
    },
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
