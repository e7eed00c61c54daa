import { z } from 'zod';
import { defineEvent } from '../events/define-event';
import { defineRoute } from '../http/route';
import { EnvironmentQuery, MgmtPageInfo } from './mgmt';

/**
 * Item schemas: per environment, the declared properties of users, tenants and the objects of a
 * collection. A property that declares a `type` is enforced: identifying a user (or setting a
 * tenant or object, directly, inline in a trigger or in bulk) with a value of another type is
 * refused with 422 (ADR 0192).
 */
export const ItemType = z.enum(['user', 'tenant', 'object']);
export type ItemTypeT = z.infer<typeof ItemType>;

/** The value types a property may declare; each maps to the JSON Schema type of that name. */
export const PropertyType = z.enum(['string', 'number', 'integer', 'boolean', 'object', 'array']);

export const ItemSchemaProperty = z
  .object({
    key: z.string(),
    type: z.string().nullable().optional(),
    description: z.string().nullable().optional(),
    preview_text: z.string().nullable().optional(),
    item_type: z.string().nullable().optional(),
    visible: z.boolean().optional(),
  })
  .meta({ id: 'ItemSchemaProperty' });

export const ItemSchema = z
  .object({ item_type: ItemType, item_id: z.string().nullable().optional(), properties: z.array(ItemSchemaProperty) })
  .meta({ id: 'ItemSchema' });
export type ItemSchemaT = z.infer<typeof ItemSchema>;

const PropertyKey = z
  .string()
  .min(1, 'is required')
  .max(255, 'must be at most 255 characters')
  .regex(/^[A-Za-z0-9_$-]+(\.[A-Za-z0-9_$-]+)*$/, 'must be a property name, or a dotted path such as address.city');

export const ItemSchemaPropertyRequest = z.strictObject({
  key: PropertyKey,
  type: PropertyType.nullable().optional(),
  description: z.string().max(1000).nullable().optional(),
  preview_text: z.string().max(1000).nullable().optional(),
  item_type: z.string().max(255).nullable().optional(),
  visible: z.boolean().optional(),
});
export type ItemSchemaPropertyRequestT = z.infer<typeof ItemSchemaPropertyRequest>;

/** Properties named are changed (omitted fields of a property keep their value); properties not named are kept. */
export const ItemSchemaRequest = z.strictObject({
  properties: z
    .array(ItemSchemaPropertyRequest)
    .max(500)
    .superRefine((props, ctx) => {
      const seen = new Set<string>();
      props.forEach((p, i) => {
        if (seen.has(p.key)) ctx.addIssue({ code: 'custom', path: [i, 'key'], message: `names ${p.key} twice` });
        seen.add(p.key);
      });
    }),
  item_type: z.string().optional(),
  item_id: z.string().nullable().optional(),
});

export const StoredItemSchemaProperty = z.object({
  key: z.string(),
  type: PropertyType.nullable(),
  description: z.string().nullable(),
  preview_text: z.string().nullable(),
  item_type: z.string().nullable(),
  visible: z.boolean(),
});
export type StoredItemSchemaPropertyT = z.infer<typeof StoredItemSchemaProperty>;

export const ItemSchemaUpserted = defineEvent(
  'ItemSchemaUpserted',
  1,
  z.object({
    item_type: ItemType,
    /** The object collection; null for users and tenants. */
    item_id: z.string().nullable(),
    properties: z.array(StoredItemSchemaProperty),
    upserted_at: z.string(),
  }),
);
export const itemSchemaEventContracts = [ItemSchemaUpserted] as const;

const Collection = z.string().min(1).max(255);
/** `collection` is required when item_type is object, and only then. */
const SchemaQuery = EnvironmentQuery.extend({ collection: Collection.optional() });
const SchemaPath = z.object({ item_type: ItemType });

export const listSchemasRoute = defineRoute({
  operationId: 'listSchemas',
  method: 'GET',
  path: '/v1/schemas',
  summary: 'List the item schemas of an environment',
  tags: ['Schemas'],
  auth: 'service',
  rateTier: 4,
  query: EnvironmentQuery.extend({ item_type: ItemType.optional() }),
  response: z.object({ entries: z.array(ItemSchema), page_info: MgmtPageInfo }).meta({ id: 'PaginatedItemSchemaResponse' }),
});

export const getSchemaRoute = defineRoute({
  operationId: 'getSchema',
  method: 'GET',
  path: '/v1/schemas/{item_type}',
  summary: 'Get the item schema of users, tenants or an object collection',
  tags: ['Schemas'],
  auth: 'service',
  rateTier: 4,
  params: SchemaPath,
  query: SchemaQuery,
  response: ItemSchema,
});

export const upsertSchemaRoute = defineRoute({
  operationId: 'upsertSchema',
  method: 'PUT',
  path: '/v1/schemas/{item_type}',
  summary: 'Add or change properties of an item schema',
  tags: ['Schemas'],
  auth: 'service',
  rateTier: 3,
  params: SchemaPath,
  query: SchemaQuery,
  body: ItemSchemaRequest,
  response: ItemSchema,
});

export const validateSchemaRoute = defineRoute({
  operationId: 'validateSchema',
  method: 'PUT',
  path: '/v1/schemas/{item_type}/validate',
  summary: 'Check an item schema change without saving it; answers the schema it would make',
  tags: ['Schemas'],
  auth: 'service',
  rateTier: 3,
  params: SchemaPath,
  query: SchemaQuery,
  body: ItemSchemaRequest,
  response: ItemSchema,
});
