import { ConsoleSessionSigner } from '@notify/http';
import { ERASURE_KEYS, ErasureKeyStore, memberByEmail } from '@notify/application';
import { EventStore } from '@notify/eventstore';
import { EVENT_STORE } from '@notify/platform';
import { CommandGroup, UsageError } from '../command';
import { withApp } from './app-context';

export const consoleCommands: CommandGroup = {
  name: 'console',
  summary: 'Operator console sign-in',
  commands: [
    {
      name: 'login-link',
      summary: 'Print a one-time console login link for a member (valid CONSOLE_LOGIN_LINK_TTL_SECONDS)',
      usage: '<email>',
      positionals: true,
      async run(ctx) {
        const email = ctx.positionals[0]?.trim().toLowerCase();
        if (!email) throw new UsageError('The email address of a member is required (notify members add)');
        const config = ctx.config();
        const link = await withApp(ctx, async (app) => {
          // From the log, not the read model: no projector runs in the CLI (a member just added is found).
          const member = await memberByEmail(app.get<EventStore>(EVENT_STORE), app.get<ErasureKeyStore>(ERASURE_KEYS), email);
          if (!member) throw new UsageError(`${email} is not a member (add it with: notify members add ${email} --role ...)`);
          const { token, claims } = app.get(ConsoleSessionSigner).loginLink(member.memberId);
          return { token, expiresAt: claims.expiresAt, role: member.role };
        });
        const base = (config.PUBLIC_URL ?? `http://localhost:${config.PORT}`).replace(/\/+$/, '');
        // In the fragment: the token never reaches a server log or a Referer header.
        ctx.io.stdout.write(`${base}/console/#/login/${link.token}\n`);
        ctx.io.stderr.write(`one-time link for ${email} (${link.role}), valid until ${new Date(link.expiresAt * 1000).toISOString()}\n`);
      },
    },
  ],
};
