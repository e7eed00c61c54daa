import { ERASURE_KEYS, ErasureKeyStore, eraseUserAndKey, RecipientDeps } from '@notify/application';
import { Database } from '@notify/database';
import { EventStore } from '@notify/eventstore';
import { DATABASE, EVENT_STORE } from '@notify/platform';
import { ChannelQueries } from '@notify/projections/channels';
import { EnvironmentQueries } from '@notify/projections/environments';
import { SubscriptionQueries } from '@notify/projections/subscriptions';
import { UserErasureT } from '@notify/contracts';
import { CommandGroup, UsageError } from '../command';
import { withApp } from './app-context';
import { connection, guarded, mgmtRequest } from './events';

export const recipientCommands: CommandGroup = {
  name: 'recipients',
  summary: "Erase a user's personal data (the right to be forgotten)",
  commands: [
    {
      name: 'erase',
      summary: 'Delete a user and erase their personal data: their key is destroyed and read models drop their messages (ADR 0144)',
      usage: '<user_id> --environment SLUG --reason TEXT [--http [--url URL] [--token svc_...] [--json]] (without --http: DATABASE_URL)',
      options: { ...connection, environment: { type: 'string' }, reason: { type: 'string' }, http: { type: 'boolean' } },
      positionals: true,
      async run(ctx) {
        const userId = ctx.positionals[0];
        if (!userId) throw new UsageError('A user id is required');
        const environment = ctx.values.environment as string | undefined;
        if (!environment) throw new UsageError('--environment is required');
        const reason = (ctx.values.reason as string | undefined)?.trim();
        if (!reason) throw new UsageError('--reason is required: it is recorded with the erasure');
        if (ctx.values.http)
          // Through the management API of a running installation (a service token): 404 when there is nothing to erase.
          return guarded(ctx, async () => {
            const erased = await mgmtRequest<UserErasureT>(
              ctx,
              'POST',
              `/v1/events/users/${encodeURIComponent(userId)}/erase`,
              { environment },
              { reason },
            );
            ctx.io.stdout.write(
              ctx.values.json
                ? `${JSON.stringify(erased)}\n`
                : `erased user ${userId} in ${environment} (${erased.events.join(', ')}) at #${erased.global_position}\n`,
            );
          });
        const outcome = await withApp(ctx, async (app) => {
          const db = app.get<Database>(DATABASE);
          if (!(await new EnvironmentQueries(db.dataSource).getEnvironment(environment)))
            throw new UsageError(`No environment named ${environment}`);
          const deps: RecipientDeps = {
            store: app.get<EventStore>(EVENT_STORE),
            channels: new ChannelQueries(db.dataSource),
            subscriptions: new SubscriptionQueries(db.dataSource),
          };
          return eraseUserAndKey(deps, app.get<ErasureKeyStore>(ERASURE_KEYS), environment, userId, reason, {
            environment,
            actor: 'cli',
          });
        });
        if (outcome.events.length === 0) {
          ctx.io.stdout.write(`nothing to erase: user ${userId} in ${environment} has no history, or none since it was last erased\n`);
          return;
        }
        ctx.io.stdout.write(`erased user ${userId} in ${environment} (${outcome.events.map((e) => e.type).join(', ')})\n`);
      },
    },
  ],
};
