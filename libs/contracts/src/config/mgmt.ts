import { z } from 'zod';
import { queryInt } from '../http/pagination';

/**
 * Pieces every management API route shares: the environment comes from `?environment=` (the
 * auth guard reads it), lists page with `limit`/`after`/`before`, flags arrive as strings.
 */

/** `?annotate=true`, `?commit=false`: query flags arrive as strings; JSON bodies send booleans. */
export const QueryFlag = z.preprocess((v) => (v === 'true' || v === '1' ? true : v === 'false' || v === '0' ? false : v), z.boolean());

/**
 * `?branch=<slug>`: a branch of the environment (ADR 0156); the auth guard resolves it and the
 * request reads and writes the branch's configuration. Same rules as BranchSlug (branches.ts).
 */
const BranchParam = z
  .string()
  .max(255, 'must be at most 255 characters')
  .regex(/^[A-Za-z0-9_-]+$/, 'must contain only letters, digits, _ and -')
  .optional()
  .meta({ description: 'The slug of a branch of the environment to read and write instead of the environment itself' });

export const EnvironmentQuery = z.object({ environment: z.string().min(1).max(63), branch: BranchParam });

export const MgmtPageQuery = z.object({
  after: z.string().max(1024).optional(),
  before: z.string().max(1024).optional(),
  limit: queryInt(z.number().int().min(1).max(100)).default(50),
});

export const MgmtPageInfo = z
  .object({ after: z.string().nullable(), before: z.string().nullable(), page_size: z.number().int() })
  .meta({ id: 'MgmtPageInfo' });
export type MgmtPageInfoT = z.infer<typeof MgmtPageInfo>;

export const mgmtListOf = <T extends z.ZodType>(entry: T) => z.object({ entries: z.array(entry), page_info: MgmtPageInfo });

/** Read options of every versioned resource (workflows, partials, layouts, translations, message types). */
/**
 * Not in the reference (ADR 0225): whether archived workflows, layouts or partials are listed:
 * `exclude` (the default), `include` (with the others) or `only`.
 */
export const ArchivedFilter = z.enum(['exclude', 'include', 'only']);
export type ArchivedFilterT = z.infer<typeof ArchivedFilter>;

/** What archiving a workflow, layout or partial answers, as archiving a guide or an audience does. */
export const ArchiveResult = z.object({ result: z.string() }).meta({ id: 'ArchiveResourceResponse' });

export const ReadOptions = EnvironmentQuery.extend({ annotate: QueryFlag.optional(), hide_uncommitted_changes: QueryFlag.optional() });

/** Write options of every versioned resource. `force` is accepted and has no effect: only the first environment is editable. */
export const WriteOptions = EnvironmentQuery.extend({
  annotate: QueryFlag.optional(),
  commit: QueryFlag.optional(),
  commit_message: z.string().max(1000).optional(),
  force: QueryFlag.optional(),
  allow_empty: QueryFlag.optional(),
});

/** Keys of workflows, partials, layouts and message types. */
export const ResourceKey = z
  .string()
  .min(3, 'must be at least 3 characters')
  .max(255, 'must be at most 255 characters')
  .regex(/^[a-z0-9_-]+$/, 'must contain only lowercase letters, digits, _ and -');

/** Validation findings that do not stop a resource from being saved (it is saved with valid: false). */
export const ResourceError = z.object({ field: z.string(), message: z.string(), type: z.string().nullable() });
export type ResourceErrorT = z.infer<typeof ResourceError>;

/** What a CLI needs to split a resource into files: which fields are read-only and which hold templates. */
export const Annotation = z.object({
  extractable_fields: z.record(z.string(), z.object({ default: z.boolean(), file_ext: z.string() })),
  readonly_fields: z.array(z.string()),
});

/** Fields the clients send back from a pulled resource that the service owns; ignored on write. */
export const readOnlyEcho = {
  $schema: z.unknown().optional(),
  __readonly: z.unknown().optional(),
  __annotation: z.unknown().optional(),
  environment: z.unknown().optional(),
  sha: z.unknown().optional(),
  valid: z.unknown().optional(),
  errors: z.unknown().optional(),
  created_at: z.unknown().optional(),
  inserted_at: z.unknown().optional(),
  updated_at: z.unknown().optional(),
  deleted_at: z.unknown().optional(),
  archived_at: z.unknown().optional(),
};

/**
 * The Knock CLI sends a template it keeps in a file twice: inlined, and as `field@` naming the
 * file. The service keeps the inlined content and drops the file references.
 */
export function dropFileRefs(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(dropFileRefs);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>)
        .filter(([k]) => !k.endsWith('@'))
        .map(([k, v]) => [k, dropFileRefs(v)]),
    );
  }
  return value;
}

export const acceptingCliFiles = <T extends z.ZodType>(schema: T) => z.preprocess(dropFileRefs, schema);
