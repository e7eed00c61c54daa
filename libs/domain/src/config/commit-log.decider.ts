import { assertNever, Decider } from '../shared/decider';
import { CommitLogEvent, ResourceType } from './resource.events';

interface ResourceRef {
  type: ResourceType;
  identifier: string;
}

export type CommitLogCommand =
  | {
      type: 'CommitChanges';
      /** The uncommitted versions to commit, each with its new commit id. */
      changes: { commitId: string; resource: ResourceRef; sha: string }[];
      message: string | null;
      author: { email: string; name?: string };
      now: string;
    }
  | {
      type: 'PromoteCommits';
      commits: {
        commitId: string;
        fromEnvironment: string;
        resource: ResourceRef;
        sha: string;
        content: Record<string, unknown>;
        message: string | null;
      }[];
      now: string;
    };

export interface CommitLogState {
  /** `type:identifier` -> sha of the version this environment has committed (or received by promotion). */
  committed: Record<string, string>;
  promoted: Set<string>;
}

const refKey = (r: ResourceRef) => `${r.type}:${r.identifier}`;

export const commitLogDecider: Decider<CommitLogState, CommitLogCommand, CommitLogEvent> = {
  initialState: () => ({ committed: {}, promoted: new Set() }),

  evolve(state, event) {
    switch (event.type) {
      case 'ResourcesCommitted': {
        const committed = { ...state.committed };
        for (const c of event.data.commits) committed[refKey(c.resource as ResourceRef)] = c.sha;
        return { ...state, committed };
      }
      case 'CommitPromoted':
        return {
          committed: { ...state.committed, [refKey(event.data.resource as ResourceRef)]: event.data.sha },
          promoted: new Set([...state.promoted, event.data.commit_id]),
        };
      default:
        return assertNever(event);
    }
  },

  decide(command, state) {
    switch (command.type) {
      case 'CommitChanges': {
        const commits = command.changes
          .filter((c) => state.committed[refKey(c.resource)] !== c.sha)
          .map((c) => ({ commit_id: c.commitId, resource: c.resource, sha: c.sha }));
        if (commits.length === 0) return [];
        return [
          {
            type: 'ResourcesCommitted',
            data: { commits, commit_message: command.message, author: command.author, committed_at: command.now },
          },
        ];
      }
      case 'PromoteCommits':
        return command.commits
          .filter((c) => !state.promoted.has(c.commitId))
          .map((c) => ({
            type: 'CommitPromoted' as const,
            data: {
              commit_id: c.commitId,
              from_environment: c.fromEnvironment,
              resource: c.resource,
              sha: c.sha,
              content: c.content,
              commit_message: c.message,
              promoted_at: command.now,
            },
          }));
      default:
        return assertNever(command);
    }
  },
};
