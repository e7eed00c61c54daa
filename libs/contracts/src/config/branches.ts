import { z } from 'zod';
import { defineEvent } from '../events/define-event';
import { defineRoute } from '../http/route';
import { CommitResourceType } from './commits';
import { MgmtPageQuery, mgmtListOf } from './mgmt';

/**
 * Branches: isolated configuration spaces made off the first environment (development). A
 * management request names one with `?environment=development&branch=<slug>` (the Knock CLI's
 * `--branch`); its commits merge into the environment it came from (ADR 0156).
 */
export const BranchSlug = z
  .string()
  .min(1, 'is required')
  .max(255, 'must be at most 255 characters')
  .regex(/^[A-Za-z0-9_-]+$/, 'must contain only letters, digits, _ and -');

export const Branch = z
  .object({
    slug: z.string(),
    created_at: z.string(),
    updated_at: z.string(),
    deleted_at: z.string().nullable(),
    last_commit_at: z.string().nullable(),
  })
  .meta({ id: 'Branch' });
export type BranchT = z.infer<typeof Branch>;

/** One resource's version as the branch took it from its environment (the content too: the log is whole). */
const BranchResource = z.object({
  type: CommitResourceType,
  identifier: z.string(),
  sha: z.string(),
  content: z.record(z.string(), z.unknown()),
});

const BranchRef = {
  slug: z.string(),
  parent_environment: z.string(),
  /** The configuration space's own environment key: resources, streams and commits of the branch carry it. */
  environment: z.string(),
};

/** A branch made off `parent_environment`, starting with every version committed there. */
export const BranchCreated = defineEvent(
  'BranchCreated',
  1,
  z.object({ ...BranchRef, resources: z.array(BranchResource), created_at: z.string() }),
);

/** The parent's newer committed versions of resources the branch has not changed, taken into the branch. */
export const BranchRebased = defineEvent(
  'BranchRebased',
  1,
  z.object({ ...BranchRef, resources: z.array(BranchResource), rebased_at: z.string() }),
);

export const BranchDeleted = defineEvent('BranchDeleted', 1, z.object({ ...BranchRef, deleted_at: z.string() }));

export const branchEventContracts = [BranchCreated, BranchRebased, BranchDeleted] as const;

// Routes

/** The environment a branch is made off (only the first environment has branches). */
const BranchEnvironmentQuery = z.object({ environment: z.string().min(1).max(63) });
const BranchPath = z.object({ branch_slug: BranchSlug });

export const listBranchesRoute = defineRoute({
  operationId: 'listBranches',
  method: 'GET',
  path: '/v1/branches',
  summary: 'List the branches of an environment, latest commit first',
  tags: ['Branches'],
  auth: 'service',
  rateTier: 4,
  query: BranchEnvironmentQuery.extend(MgmtPageQuery.shape),
  response: mgmtListOf(Branch).meta({ id: 'ListBranchesResponse' }),
});

export const getBranchRoute = defineRoute({
  operationId: 'getBranch',
  method: 'GET',
  path: '/v1/branches/{branch_slug}',
  summary: 'Get a branch',
  tags: ['Branches'],
  auth: 'service',
  rateTier: 4,
  params: BranchPath,
  query: BranchEnvironmentQuery,
  response: Branch,
});

export const createBranchRoute = defineRoute({
  operationId: 'createBranch',
  method: 'POST',
  path: '/v1/branches/{branch_slug}',
  summary: 'Create a branch off the environment, with the versions committed there',
  tags: ['Branches'],
  auth: 'service',
  rateTier: 3,
  params: BranchPath,
  query: BranchEnvironmentQuery,
  response: Branch,
  status: 201,
});

export const deleteBranchRoute = defineRoute({
  operationId: 'deleteBranch',
  method: 'DELETE',
  path: '/v1/branches/{branch_slug}',
  summary: 'Delete a branch and its configuration (merged commits stay in the environment)',
  tags: ['Branches'],
  auth: 'service',
  rateTier: 3,
  params: BranchPath,
  query: BranchEnvironmentQuery,
  response: null,
});

export const rebaseBranchRoute = defineRoute({
  operationId: 'rebaseBranch',
  method: 'PUT',
  path: '/v1/branches/{branch_slug}/rebase',
  summary: "Take the environment's newer committed versions of the resources the branch has not changed",
  tags: ['Branches'],
  auth: 'service',
  rateTier: 3,
  params: BranchPath,
  query: BranchEnvironmentQuery,
  response: Branch,
});
