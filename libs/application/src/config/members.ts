import { MemberRoleT } from '@notify/contracts';
import {
  ConsoleLoginEvent,
  consoleLoginDecider,
  ConsoleLoginState,
  consoleLoginStream,
  MemberEvent,
  memberDecider,
  MemberState,
  memberStream,
} from '@notify/domain';
import { EventStore } from '@notify/eventstore';
import { randomUUID } from 'node:crypto';
import { CommandMetadata, CommandOutcome, handleCommand } from '../handle-command';

type Outcome = Promise<CommandOutcome<MemberState, MemberEvent>>;

/** Adds a member to the account (`notify members add`), or changes the role of the one with that address. */
export function addMember(
  store: EventStore,
  member: { email: string; name?: string | null; role: MemberRoleT },
  metadata: CommandMetadata,
): Outcome {
  const email = member.email.trim().toLowerCase();
  return handleCommand(
    store,
    memberStream(email),
    memberDecider,
    {
      type: 'AddMember',
      email,
      name: member.name ?? null,
      role: member.role,
      memberId: randomUUID(),
      userId: randomUUID(),
      now: new Date().toISOString(),
    },
    { ...metadata, environment: null },
  );
}

/** Removes the member with that address (looked up by id from the read model by the caller). */
export function removeMember(store: EventStore, email: string, metadata: CommandMetadata): Outcome {
  return handleCommand(
    store,
    memberStream(email),
    memberDecider,
    { type: 'RemoveMember', now: new Date().toISOString() },
    {
      ...metadata,
      environment: null,
    },
  );
}

/**
 * Uses a console login link (ADR 0210): records its redemption in the link's own stream, or
 * refuses (`login_link_used`) when it was used before, also by a concurrent request.
 */
export function redeemLoginLink(
  store: EventStore,
  link: { linkId: string; memberId: string; sessionExpiresAt: string; now: string },
  metadata: CommandMetadata,
): Promise<CommandOutcome<ConsoleLoginState, ConsoleLoginEvent>> {
  return handleCommand(
    store,
    consoleLoginStream(link.linkId),
    consoleLoginDecider,
    { type: 'RedeemLoginLink', ...link },
    { ...metadata, environment: null },
  );
}
