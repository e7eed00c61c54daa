import { z } from 'zod';
import { defineEvent } from '../events/define-event';
import { listOf, PageQuery } from '../http/pagination';
import { defineRoute } from '../http/route';
import { BULK_MAX_ITEMS } from './bulk-operations';
import { RecipientId } from './common';
import { InlineIdentifyUser } from './subscriptions';
import { User } from './users';

/** `true`/`false` as query strings (z.coerce.boolean would read "false" as true). */
const QueryBoolean = z.preprocess((v) => (v === 'true' ? true : v === 'false' ? false : v), z.boolean());

const AudiencePath = z.object({ key: RecipientId });

/** A member is a user, optionally within a tenant: the same user may belong once per tenant. */
export const AudienceMemberRequest = z
  .strictObject({ user: InlineIdentifyUser, tenant: RecipientId.nullable().optional() })
  .meta({ id: 'AudienceMemberRequest' });
export type AudienceMemberRequestT = z.infer<typeof AudienceMemberRequest>;

const members = z
  .array(AudienceMemberRequest)
  .min(1, 'must name at least one member')
  .max(BULK_MAX_ITEMS, `at most ${BULK_MAX_ITEMS} members per request`);

export const AddAudienceMembersBody = z.strictObject({ members }).meta({ id: 'AddAudienceMembersRequest' });
export const RemoveAudienceMembersBody = z.strictObject({ members }).meta({ id: 'RemoveAudienceMembersRequest' });

export const AudienceMember = z
  .object({
    __typename: z.literal('AudienceMember'),
    added_at: z.string(),
    user_id: z.string(),
    user: User,
    tenant: z.string().nullable(),
  })
  .meta({ id: 'AudienceMember' });
export type AudienceMemberT = z.infer<typeof AudienceMember>;

export const addAudienceMembersRoute = defineRoute({
  operationId: 'addAudienceMembers',
  method: 'POST',
  path: '/v1/audiences/{key}/members',
  summary: 'Add members to an audience (identifying their users inline); create_audience makes a missing static audience',
  tags: ['Audiences'],
  auth: 'secret',
  rateTier: 3,
  params: AudiencePath,
  query: z.object({ create_audience: QueryBoolean.optional() }),
  body: AddAudienceMembersBody,
  response: null,
});

export const removeAudienceMembersRoute = defineRoute({
  operationId: 'removeAudienceMembers',
  method: 'DELETE',
  path: '/v1/audiences/{key}/members',
  summary: 'Remove members from an audience; members it does not hold are ignored',
  tags: ['Audiences'],
  auth: 'secret',
  rateTier: 3,
  params: AudiencePath,
  body: RemoveAudienceMembersBody,
  response: null,
});

export const listAudienceMembersRoute = defineRoute({
  operationId: 'listAudienceMembers',
  method: 'GET',
  path: '/v1/audiences/{key}/members',
  summary: "List an audience's members, newest first",
  tags: ['Audiences'],
  auth: 'secret',
  rateTier: 4,
  params: AudiencePath,
  query: PageQuery,
  response: listOf(AudienceMember).meta({ id: 'ListAudienceMembersResponse' }),
});

// Events, on the audience's stream.

const MemberRef = z.object({ user_id: z.string(), tenant: z.string().nullable() });

export const AudienceCreated = defineEvent(
  'AudienceCreated',
  1,
  z.object({ audience_key: z.string(), type: z.literal('static'), created_at: z.string() }),
);
export const AudienceMembersAdded = defineEvent(
  'AudienceMembersAdded',
  1,
  z.object({ audience_key: z.string(), members: z.array(MemberRef), added_at: z.string() }),
);
export const AudienceMembersRemoved = defineEvent(
  'AudienceMembersRemoved',
  1,
  z.object({ audience_key: z.string(), members: z.array(MemberRef), removed_at: z.string() }),
);

/**
 * The audience is archived: on its members' stream (its members leave) and on its definition's
 * stream where the management API defined it (it leaves the lists). ADR 0171.
 */
export const AudienceArchived = defineEvent('AudienceArchived', 1, z.object({ audience_key: z.string(), archived_at: z.string() }));

export const audienceEventContracts = [AudienceCreated, AudienceMembersAdded, AudienceMembersRemoved, AudienceArchived];
