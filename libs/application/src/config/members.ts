import { MemberRoleT } from '@notify/contracts';
import { MemberEvent, memberDecider, MemberState, memberStream } from '@notify/domain';
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
