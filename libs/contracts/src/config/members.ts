import { z } from 'zod';
import { defineEvent } from '../events/define-event';
import { defineRoute } from '../http/route';
import { MgmtPageQuery, mgmtListOf } from './mgmt';

/**
 * Members: the people of the account (who operate it, not recipients). They are added by the
 * operator (`notify members add`); the management API lists, shows and removes them.
 */
export const MemberRole = z.enum(['owner', 'admin', 'member', 'production_only_member', 'billing', 'support']);
export type MemberRoleT = z.infer<typeof MemberRole>;

export const Member = z
  .object({
    id: z.uuid(),
    role: MemberRole,
    user: z.object({
      id: z.uuid(),
      email: z.string(),
      name: z.string().nullable(),
      avatar_url: z.string().nullable(),
      created_at: z.string(),
      updated_at: z.string(),
    }),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'Member' });
export type MemberT = z.infer<typeof Member>;

/**
 * A member's personal fields are sealed for the member (ADR 0220): subject `member-<member id>`
 * (account-wide: no environment), destroyed when the member is removed. Their stream is keyed by
 * a keyed hash of the address, not the address.
 */
export const memberSubject = (memberId: string) => `member-${memberId}`;
const sealedForMember = <D extends { member_id: string }>(fields: string[]) => ({
  personal: { subject: (d: D) => memberSubject(d.member_id), fields },
});

/** `email` is kept lowercased: one member per address. */
export const MemberAdded = defineEvent(
  'MemberAdded',
  1,
  z.object({
    member_id: z.uuid(),
    user_id: z.uuid(),
    email: z.string(),
    name: z.string().nullable(),
    role: MemberRole,
    added_at: z.string(),
  }),
  sealedForMember(['email', 'name']),
);
export const MemberRoleChanged = defineEvent(
  'MemberRoleChanged',
  1,
  z.object({ member_id: z.uuid(), email: z.string(), role: MemberRole, changed_at: z.string() }),
  sealedForMember(['email']),
);
export const MemberRemoved = defineEvent(
  'MemberRemoved',
  1,
  z.object({ member_id: z.uuid(), email: z.string(), removed_at: z.string() }),
  sealedForMember(['email']),
);
/**
 * On a legacy stream `member-<email>` (before ADR 0220): the member moved to its keyed stream
 * `stream` (same member id); the legacy stream holds no member from here on.
 */
export const MemberRekeyed = defineEvent('MemberRekeyed', 1, z.object({ member_id: z.uuid(), stream: z.string(), rekeyed_at: z.string() }));
/**
 * Stream log_redaction-<id> (ADR 0240): legacy `member-<email>` streams deleted from the log, each
 * named by its member's keyed stream (no address), with the rows deleted and the stream's last
 * hash (what a copy of the log from before would show there).
 */
export const LegacyMemberStreamsPurged = defineEvent(
  'LegacyMemberStreamsPurged',
  1,
  z.object({
    streams: z.array(
      z.object({
        member_stream: z.string(),
        events: z.number().int(),
        global_positions: z.array(z.string()),
        head_hash: z.string().nullable(),
      }),
    ),
    reason: z.string(),
    purged_at: z.string(),
  }),
);
export const memberEventContracts = [MemberAdded, MemberRoleChanged, MemberRemoved, MemberRekeyed, LegacyMemberStreamsPurged] as const;

const MemberPath = z.object({ id: z.uuid() });

export const listMembersRoute = defineRoute({
  operationId: 'listMembers',
  method: 'GET',
  path: '/v1/members',
  summary: 'List the members of the account, oldest first',
  tags: ['Members'],
  auth: 'service',
  scope: 'account',
  rateTier: 4,
  query: MgmtPageQuery.extend({ role: MemberRole.optional(), email: z.string().max(320).optional() }),
  response: mgmtListOf(Member).meta({ id: 'ListMembersResponse' }),
});

export const getMemberRoute = defineRoute({
  operationId: 'getMember',
  method: 'GET',
  path: '/v1/members/{id}',
  summary: 'Get a member of the account',
  tags: ['Members'],
  auth: 'service',
  scope: 'account',
  rateTier: 4,
  params: MemberPath,
  response: Member,
});

export const removeMemberRoute = defineRoute({
  operationId: 'removeMember',
  method: 'DELETE',
  path: '/v1/members/{id}',
  summary: 'Remove a member from the account',
  tags: ['Members'],
  auth: 'service',
  access: 'admin',
  scope: 'account',
  rateTier: 3,
  params: MemberPath,
  response: null,
});
