import type { ResourceErrorT } from '@notify/contracts';
import { assertNever, Decider } from '../shared/decider';
import { DomainError, FieldError, resourceMissing } from '../shared/errors';
import { ArchivableType, ARCHIVED_EVENT, ResourceEvent, ResourceType, UPSERTED_EVENT } from './resource.events';

export type ResourceCommand =
  | {
      type: 'UpsertResource';
      resourceType: ResourceType;
      key: string;
      /** Normalised data; `sha` is its content hash, computed by the caller. */
      content: Record<string, unknown>;
      sha: string;
      valid: boolean;
      errors: ResourceErrorT[];
      now: string;
    }
  | {
      type: 'SetWorkflowActive';
      key: string;
      active: boolean;
      /** The version this environment serves, looked up: drafts in the first environment, promoted commits after it. */
      served: { valid: boolean; errors: ResourceErrorT[] } | null;
      now: string;
    }
  /** Only audiences are archived through their definition (ADR 0171). */
  | { type: 'ArchiveAudience'; key: string; now: string }
  /** Active now (no bounds), for a window (from, until), or not at all (ADR 0186). */
  | {
      type: 'SetGuideActive';
      key: string;
      active: boolean;
      from: string | null;
      until: string | null;
      served: { valid: boolean; errors: ResourceErrorT[] } | null;
      now: string;
    }
  /** `served`: whether the environment serves a version of the guide (looked up: promoted guides have no upserts there). */
  | { type: 'ArchiveGuide'; key: string; served: boolean; now: string }
  /** Workflows, layouts and partials (ADR 0225); an archived workflow is no longer active. */
  | { type: 'ArchiveResource'; resourceType: ArchivableType; key: string; served: boolean; now: string };

export interface ResourceState {
  exists: boolean;
  /** Archived: out of the lists until upserted again. */
  archived?: boolean;
  sha?: string;
  valid: boolean;
  active: boolean;
  /** Guides only: the bounds of a scheduled activation. */
  activeFrom?: string | null;
  activeUntil?: string | null;
}

/**
 * Why an invalid resource cannot be activated: the errors saved with it, or (for a resource saved
 * invalid without them, e.g. by an older version) one naming the resource, never an empty list.
 */
function invalidReasons(errors: FieldError[] | undefined, kind: string): FieldError[] {
  if (errors?.length) return errors;
  return [{ field: kind, message: `was saved invalid; upsert it again to see why`, type: 'invalid' }];
}

export const resourceDecider: Decider<ResourceState, ResourceCommand, ResourceEvent> = {
  initialState: () => ({ exists: false, valid: false, active: false }),

  evolve(state, event) {
    switch (event.type) {
      case 'WorkflowUpserted':
      case 'PartialUpserted':
      case 'EmailLayoutUpserted':
      case 'TranslationUpserted':
      case 'MessageTypeUpserted':
      case 'AudienceUpserted':
      case 'GuideUpserted':
        return { ...state, exists: true, archived: false, sha: event.data.sha, valid: event.data.valid };
      case 'AudienceArchived':
        return { ...state, archived: true };
      case 'GuideArchived':
        // An archived guide comes back only by being upserted again, inactive.
        return { ...state, archived: true, active: false, activeFrom: null, activeUntil: null };
      case 'GuideActivated':
        return { ...state, active: true, activeFrom: event.data.active_from, activeUntil: event.data.active_until };
      case 'GuideDeactivated':
        return { ...state, active: false, activeFrom: null, activeUntil: null };
      case 'WorkflowArchived':
      case 'PartialArchived':
      case 'EmailLayoutArchived':
        return { ...state, archived: true, active: false };
      case 'WorkflowActivated':
        return { ...state, active: true };
      case 'WorkflowDeactivated':
        return { ...state, active: false };
      default:
        return assertNever(event);
    }
  },

  decide(command, state) {
    switch (command.type) {
      case 'UpsertResource': {
        // The same data again is no change: the resource's history records only real edits.
        if (state.exists && !state.archived && state.sha === command.sha && state.valid === command.valid) return [];
        const data = {
          key: command.key,
          content: command.content,
          sha: command.sha,
          valid: command.valid,
          errors: command.errors,
          upserted_at: command.now,
        };
        return [{ type: UPSERTED_EVENT[command.resourceType], data } as ResourceEvent];
      }
      case 'SetWorkflowActive': {
        if (!command.served) throw resourceMissing('workflow');
        if (command.active && !command.served.valid) {
          throw new DomainError(
            'workflow_invalid',
            'An invalid workflow cannot be activated; fix the errors listed and upsert it again',
            'invalid_params',
            invalidReasons(command.served.errors, 'workflow'),
          );
        }
        if (state.active === command.active) return [];
        return command.active
          ? [{ type: 'WorkflowActivated', data: { key: command.key, activated_at: command.now } }]
          : [{ type: 'WorkflowDeactivated', data: { key: command.key, deactivated_at: command.now } }];
      }
      case 'ArchiveAudience':
        if (!state.exists || state.archived) return [];
        return [{ type: 'AudienceArchived', data: { audience_key: command.key, archived_at: command.now } }];
      case 'SetGuideActive': {
        if (!command.served) throw resourceMissing('guide');
        if (command.active && !command.served.valid) {
          throw new DomainError(
            'guide_invalid',
            'An invalid guide cannot be activated; fix the errors listed and upsert it again',
            'invalid_params',
            invalidReasons(command.served.errors, 'guide'),
          );
        }
        if (!command.active) {
          return state.active ? [{ type: 'GuideDeactivated', data: { key: command.key, deactivated_at: command.now } }] : [];
        }
        const same = state.active && (state.activeFrom ?? null) === command.from && (state.activeUntil ?? null) === command.until;
        if (same) return [];
        return [
          {
            type: 'GuideActivated',
            data: { key: command.key, active_from: command.from, active_until: command.until, activated_at: command.now },
          },
        ];
      }
      case 'ArchiveGuide':
        if (!command.served) return [];
        return [{ type: 'GuideArchived', data: { key: command.key, archived_at: command.now } }];
      case 'ArchiveResource':
        // As for guides: an environment that got the resource by promotion has no upserts in this
        // stream, so whether it serves one is looked up (the read model) and comes with the command.
        if (!command.served) return [];
        return [{ type: ARCHIVED_EVENT[command.resourceType], data: { key: command.key, archived_at: command.now } } as ResourceEvent];
      default:
        return assertNever(command);
    }
  },
};
