import { z } from 'zod';
import { defineEvent } from '../events/define-event';
import { arrayParam } from '../http/pagination';
import { defineRoute } from '../http/route';
import { EnvironmentQuery, MgmtPageQuery, mgmtListOf, QueryFlag } from './mgmt';

export const CommitResourceType = z.enum(['audience', 'email_layout', 'guide', 'message_type', 'partial', 'translation', 'workflow']);
export type CommitResourceTypeT = z.infer<typeof CommitResourceType>;

const CommitResource = z.object({ type: CommitResourceType, identifier: z.string() });
const CommitAuthor = z.object({ email: z.string(), name: z.string().optional() });

export const Commit = z
  .object({
    id: z.uuid(),
    resource: CommitResource,
    author: CommitAuthor,
    /** Absent when the commit has none. */
    commit_message: z.string().optional(),
    environment: z.string(),
    created_at: z.string(),
    /** When the commit reached the next environment; null until promoted. */
    promoted_at: z.string().nullable().optional(),
  })
  .meta({ id: 'Commit' });
export type CommitT = z.infer<typeof Commit>;

const ResourceFilter = {
  resource_type: arrayParam(CommitResourceType).optional(),
  resource_id: z.string().min(1).max(1000).optional(),
};

// Events

/** Commits in one environment: each entry fixes one resource at one version (sha). */
export const ResourcesCommitted = defineEvent(
  'ResourcesCommitted',
  1,
  z.object({
    commits: z.array(z.object({ commit_id: z.uuid(), resource: CommitResource, sha: z.string() })),
    commit_message: z.string().nullable(),
    author: CommitAuthor,
    committed_at: z.string(),
  }),
);

/** A commit carried into the next environment, with the content it fixed: that environment now serves it. */
export const CommitPromoted = defineEvent(
  'CommitPromoted',
  1,
  z.object({
    commit_id: z.uuid(),
    from_environment: z.string(),
    resource: CommitResource,
    sha: z.string(),
    content: z.record(z.string(), z.unknown()),
    commit_message: z.string().nullable(),
    promoted_at: z.string(),
  }),
);

export const commitEventContracts = [ResourcesCommitted, CommitPromoted] as const;

// Routes

const Result = z.object({ result: z.literal('success') });

export const listCommitsRoute = defineRoute({
  operationId: 'listCommits',
  method: 'GET',
  path: '/v1/commits',
  summary: 'List the commits of an environment, newest first',
  tags: ['Commits'],
  auth: 'service',
  rateTier: 4,
  query: EnvironmentQuery.extend(MgmtPageQuery.shape).extend({ promoted: QueryFlag.optional(), ...ResourceFilter }),
  response: mgmtListOf(Commit).meta({ id: 'ListCommitsResponse' }),
});

export const getCommitRoute = defineRoute({
  operationId: 'getCommit',
  method: 'GET',
  path: '/v1/commits/{id}',
  summary: 'Get a commit',
  tags: ['Commits'],
  auth: 'service',
  rateTier: 4,
  scope: 'account',
  params: z.object({ id: z.uuid() }),
  response: Commit,
});

export const commitAllRoute = defineRoute({
  operationId: 'commitAllChanges',
  method: 'PUT',
  path: '/v1/commits',
  summary: 'Commit every uncommitted change of an environment (or those matching the resource filter)',
  tags: ['Commits'],
  auth: 'service',
  rateTier: 2,
  query: EnvironmentQuery.extend({ commit_message: z.string().max(1000).optional(), allow_empty: QueryFlag.optional(), ...ResourceFilter }),
  response: Result,
});

export const promoteAllRoute = defineRoute({
  operationId: 'promoteAllCommits',
  method: 'PUT',
  path: '/v1/commits/promote',
  summary: 'Promote every commit of the preceding environment not yet in to_environment',
  tags: ['Commits'],
  auth: 'service',
  rateTier: 2,
  scope: 'account',
  query: z.object({
    to_environment: z.string().min(1).max(63),
    /** Merges a branch: its commits go into the environment it was made off (to_environment). */
    branch: z
      .string()
      .max(255)
      .regex(/^[A-Za-z0-9_-]+$/, 'must contain only letters, digits, _ and -')
      .optional(),
    ...ResourceFilter,
  }),
  response: Result,
});

export const promoteOneRoute = defineRoute({
  operationId: 'promoteOneCommit',
  method: 'PUT',
  path: '/v1/commits/{id}/promote',
  summary: 'Promote one commit to the environment after its own',
  tags: ['Commits'],
  auth: 'service',
  rateTier: 2,
  scope: 'account',
  params: z.object({ id: z.uuid() }),
  response: z.object({ commit: Commit }),
});
