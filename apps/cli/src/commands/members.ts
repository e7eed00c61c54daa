import { addMember, ERASURE_KEYS, ErasureKeyStore, purgeLegacyMemberStreams } from '@notify/application';
import { MemberRole } from '@notify/contracts';
import { EventStore } from '@notify/eventstore';
import { EVENT_STORE } from '@notify/platform';
import { CommandGroup, UsageError } from '../command';
import { withApp } from './app-context';

export const memberCommands: CommandGroup = {
  name: 'members',
  summary: 'Add members to the account (the management API lists, shows and removes them)',
  commands: [
    {
      name: 'add',
      summary: 'Add a member, or change the role of the member with that email address',
      usage: '<email> --role owner|admin|member|production_only_member|billing|support [--name NAME]',
      options: { role: { type: 'string' }, name: { type: 'string' } },
      positionals: true,
      async run(ctx) {
        const email = ctx.positionals[0];
        if (!email || !/^[^@\s]+@[^@\s]+$/.test(email)) throw new UsageError('An email address is required');
        const role = MemberRole.safeParse(ctx.values.role);
        if (!role.success) throw new UsageError(`--role must be one of ${MemberRole.options.join(', ')}`);
        const outcome = await withApp(ctx, (app) =>
          addMember(
            app.get<EventStore>(EVENT_STORE),
            app.get<ErasureKeyStore>(ERASURE_KEYS),
            { email, name: (ctx.values.name as string | undefined) ?? null, role: role.data },
            { environment: null, actor: 'cli' },
          ),
        );
        const member = outcome.state.current!;
        ctx.io.stdout.write(`member ${member.memberId}: ${member.email} (${member.role})${outcome.events.length ? '' : ', unchanged'}\n`);
      },
    },
    {
      name: 'purge-legacy-streams',
      summary: 'Re-key every member still on a member-<email> stream, then delete those streams from the log, recorded (ADR 0240)',
      usage: '[--reason TEXT]',
      options: { reason: { type: 'string' } },
      async run(ctx) {
        const reason = (ctx.values.reason as string | undefined) ?? 'legacy member stream ids hold addresses (ADR 0240)';
        const result = await withApp(ctx, (app) =>
          purgeLegacyMemberStreams(
            app.get<EventStore>(EVENT_STORE),
            app.get<ErasureKeyStore>(ERASURE_KEYS),
            { environment: null, actor: 'cli' },
            reason,
          ),
        );
        ctx.io.stdout.write(
          result.streams
            ? `purged ${result.streams} legacy member stream(s), ${result.events} event(s); recorded in ${result.recordStream}\n`
            : 'no legacy member stream\n',
        );
      },
    },
  ],
};
