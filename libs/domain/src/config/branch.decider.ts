import type { BranchCreated, BranchDeleted, BranchRebased, EventOf } from '@notify/contracts';
import { assertNever, Decider } from '../shared/decider';
import { DomainError } from '../shared/errors';
import { ResourceType } from './resource.events';

export type BranchEvent = EventOf<typeof BranchCreated> | EventOf<typeof BranchRebased> | EventOf<typeof BranchDeleted>;

/** One resource's version in an environment, with its content. */
export interface BranchResourceVersion {
  type: ResourceType;
  identifier: string;
  sha: string;
  content: Record<string, unknown>;
}

export type BranchCommand =
  | { type: 'CreateBranch'; slug: string; parent: string; resources: BranchResourceVersion[]; now: string }
  /**
   * `parentResources`: the parent's committed versions now; `branchShas`: the version each
   * resource has in the branch now (`type:identifier` -> sha; absent when the branch has none).
   */
  | { type: 'RebaseBranch'; slug: string; parentResources: BranchResourceVersion[]; branchShas: Record<string, string>; now: string }
  | { type: 'DeleteBranch'; slug: string; now: string };

export interface BranchState {
  live: boolean;
  /** How many times a branch of this slug was created: each creation is a new configuration space. */
  generation: number;
  slug?: string;
  parent?: string;
  environment?: string;
  /** `type:identifier` -> the parent's version the branch last took (at creation or rebase). */
  base: Record<string, string>;
}

/**
 * A branch's configuration space has its own environment key, which no environment slug can
 * take ('~' is not allowed in slugs); a branch created again after deletion gets a new one, so
 * its resource streams start empty.
 */
export const branchEnvironment = (parent: string, slug: string, generation: number) => `${parent}~${slug}~${generation}`;
/** The environment a branch key belongs to, or undefined for an environment's own slug. */
export const branchParent = (environment: string): string | undefined =>
  environment.includes('~') ? environment.slice(0, environment.indexOf('~')) : undefined;
/** What answers show as the environment: a branch's resources belong to the environment it was made off. */
export const shownEnvironment = (environment: string): string => branchParent(environment) ?? environment;

const refKey = (r: { type: string; identifier: string }) => `${r.type}:${r.identifier}`;

/** Work that would reach recipients (test runs, broadcast sends) is not done from a branch: a branch is configuration only. */
export function assertNotBranch(environment: string, what: string): void {
  if (branchParent(environment) !== undefined)
    throw new DomainError('branch_not_supported', `${what} cannot be done in a branch; merge it and do it in ${branchParent(environment)}`);
}

export const branchNotFound = (slug: string) => new DomainError('branch_not_found', `No branch named ${slug}`, 'not_found');

/** A branch of an environment: created with the parent's committed versions, rebased, deleted. */
export const branchDecider: Decider<BranchState, BranchCommand, BranchEvent> = {
  initialState: () => ({ live: false, generation: 0, base: {} }),
  evolve(state, event) {
    switch (event.type) {
      case 'BranchCreated': {
        const base = Object.fromEntries(event.data.resources.map((r) => [refKey(r), r.sha]));
        const { slug, parent_environment: parent, environment } = event.data;
        return { live: true, generation: state.generation + 1, slug, parent, environment, base };
      }
      case 'BranchRebased':
        return { ...state, base: { ...state.base, ...Object.fromEntries(event.data.resources.map((r) => [refKey(r), r.sha])) } };
      case 'BranchDeleted':
        return { ...state, live: false, base: {} };
      default:
        return assertNever(event);
    }
  },
  decide(command, state) {
    switch (command.type) {
      case 'CreateBranch': {
        if (state.live) throw new DomainError('branch_exists', `A branch named ${command.slug} exists already`, 'conflict');
        const environment = branchEnvironment(command.parent, command.slug, state.generation + 1);
        const data = { slug: command.slug, parent_environment: command.parent, environment, resources: command.resources };
        return [{ type: 'BranchCreated', data: { ...data, created_at: command.now } }];
      }
      case 'RebaseBranch': {
        if (!state.live) throw branchNotFound(command.slug);
        // A resource the branch has not changed since it took it follows the parent; one it changed keeps the branch's version.
        const taken = command.parentResources.filter((r) => {
          const key = refKey(r);
          const base = state.base[key];
          const mine = command.branchShas[key];
          return r.sha !== base && (mine === base || mine === r.sha);
        });
        if (taken.length === 0) return [];
        const data = { slug: state.slug!, parent_environment: state.parent!, environment: state.environment!, resources: taken };
        return [{ type: 'BranchRebased', data: { ...data, rebased_at: command.now } }];
      }
      case 'DeleteBranch': {
        if (!state.live) throw branchNotFound(command.slug);
        const data = { slug: state.slug!, parent_environment: state.parent!, environment: state.environment! };
        return [{ type: 'BranchDeleted', data: { ...data, deleted_at: command.now } }];
      }
      default:
        return assertNever(command);
    }
  },
};
