import { deciderSpec } from '@notify/testing/decider-spec';
import { BranchEvent, branchDecider, BranchResourceVersion } from './branch.decider';

const now = '2026-01-01T00:00:00.000Z';
const v = (identifier: string, sha: string): BranchResourceVersion => ({ type: 'workflow', identifier, sha, content: { name: sha } });
const ref = { slug: 'feat', parent_environment: 'development', environment: 'development~feat~1' };
const created = (resources = [v('a', 'a1'), v('b', 'b1')]): BranchEvent => ({
  type: 'BranchCreated',
  data: { ...ref, resources, created_at: now },
});

describe('branch decider', () => {
  const spec = deciderSpec(branchDecider);

  it('creates a branch with its own environment key, refuses a second one, and gives a re-created branch a new key', () => {
    spec
      .given([])
      .when({ type: 'CreateBranch', slug: 'feat', parent: 'development', resources: [v('a', 'a1'), v('b', 'b1')], now })
      .then([created()]);
    spec
      .given([created()])
      .when({ type: 'CreateBranch', slug: 'feat', parent: 'development', resources: [], now })
      .thenThrows('branch_exists');
    const deleted: BranchEvent = { type: 'BranchDeleted', data: { ...ref, deleted_at: now } };
    spec
      .given([created(), deleted])
      .when({ type: 'CreateBranch', slug: 'feat', parent: 'development', resources: [], now })
      .then([{ type: 'BranchCreated', data: { ...ref, environment: 'development~feat~2', resources: [], created_at: now } }]);
  });

  it('rebases the resources the branch has not changed, and keeps the ones it changed', () => {
    // a changed in the parent and untouched in the branch: taken; b changed in both: kept; c new in the parent: taken.
    const parentResources = [v('a', 'a2'), v('b', 'b2'), v('c', 'c1')];
    spec
      .given([created()])
      .when({ type: 'RebaseBranch', slug: 'feat', parentResources, branchShas: { 'workflow:a': 'a1', 'workflow:b': 'b9' }, now })
      .then([{ type: 'BranchRebased', data: { ...ref, resources: [v('a', 'a2'), v('c', 'c1')], rebased_at: now } }]);
    spec
      .given([created()])
      .when({ type: 'RebaseBranch', slug: 'feat', parentResources: [v('a', 'a1')], branchShas: { 'workflow:a': 'a1' }, now })
      .thenNothing();
  });

  it('deletes a live branch only', () => {
    spec
      .given([created()])
      .when({ type: 'DeleteBranch', slug: 'feat', now })
      .then([{ type: 'BranchDeleted', data: { ...ref, deleted_at: now } }]);
    spec.given([]).when({ type: 'DeleteBranch', slug: 'feat', now }).thenThrows('branch_not_found');
  });
});
