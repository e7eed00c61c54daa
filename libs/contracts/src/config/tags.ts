import { z } from 'zod';
import { defineEvent } from '../events/define-event';
import { defineRoute } from '../http/route';

/**
 * Tags: the account's catalog of labels that workflows (and other resources) carry in their
 * `tags` field. The catalog is account-wide, like channels and variables: a tag means the same
 * in every environment.
 */
export const TagName = z
  .string()
  .min(1, 'is required')
  .max(255, 'must be at most 255 characters')
  .regex(/^[^/\s][^/]*$/, 'must not start with a space or contain /');

const HexColor = z.string().regex(/^#(?:[0-9A-Fa-f]{3}|[0-9A-Fa-f]{6})$/, 'must be a hex color such as #3B82F6');

export const Tag = z
  .object({
    name: z.string(),
    description: z.string().nullable(),
    color: z.string().nullable(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'Tag' });
export type TagT = z.infer<typeof Tag>;

/** Omitted fields are set to null, as the reference has it (the request replaces the tag). */
export const TagRequest = z.strictObject({
  description: z.string().max(280, 'must be at most 280 characters').nullable().optional(),
  color: HexColor.nullable().optional(),
  name: z.string().optional(),
  created_at: z.string().optional(),
  updated_at: z.string().optional(),
});

export const TagUpserted = defineEvent(
  'TagUpserted',
  1,
  z.object({ name: z.string(), description: z.string().nullable(), color: z.string().nullable(), upserted_at: z.string() }),
);
export const TagDeleted = defineEvent('TagDeleted', 1, z.object({ name: z.string(), deleted_at: z.string() }));
export const tagEventContracts = [TagUpserted, TagDeleted] as const;

const TagPath = z.object({ name: TagName });

export const listTagsRoute = defineRoute({
  operationId: 'listTags',
  method: 'GET',
  path: '/v1/tags',
  summary: 'List the tags of the account, by name',
  tags: ['Tags'],
  auth: 'service',
  scope: 'account',
  rateTier: 4,
  response: z.object({ entries: z.array(Tag) }).meta({ id: 'TagsResponse' }),
});

export const upsertTagRoute = defineRoute({
  operationId: 'upsertTag',
  method: 'PUT',
  path: '/v1/tags/{name}',
  summary: 'Create a tag, or replace its description and color',
  tags: ['Tags'],
  auth: 'service',
  scope: 'account',
  rateTier: 3,
  params: TagPath,
  body: z.object({ tag: TagRequest }),
  response: z.object({ tag: Tag }).meta({ id: 'WrappedTagResponse' }),
});

export const deleteTagRoute = defineRoute({
  operationId: 'deleteTag',
  method: 'DELETE',
  path: '/v1/tags/{name}',
  summary: 'Delete a tag from the catalog (resources keep the tag in their own tags field)',
  tags: ['Tags'],
  auth: 'service',
  scope: 'account',
  rateTier: 3,
  params: TagPath,
  response: null,
});
