import type { PreferenceSetDataT, RecipientRefT, WorkflowSnapshotT } from '@notify/contracts';
import type { PreferenceLayers } from '@notify/domain';
import type { TemplateResources } from '@notify/templating';

/** A suppression list entry (ADR 0204), with the receipt that made it (ADR 0181). */
export interface SuppressionEntry {
  address: string;
  reason: string;
  message_id: string | null;
  source: string | null;
  detail: string | null;
  suppressed_at: string;
}

export interface ChannelView {
  id: string;
  key: string;
  type: string;
  provider: string;
  settings: { channel_settings: Record<string, unknown>; provider_settings: Record<string, unknown>; is_sandbox: boolean } | null;
}

export interface RecipientView {
  ref: RecipientRefT;
  /** User or object properties as stored, plus `id` (and `collection` for objects). */
  properties: Record<string, unknown>;
}

export interface WorkflowView {
  snapshot: WorkflowSnapshotT;
  active: boolean;
  valid: boolean;
  triggerDataSchema: Record<string, unknown> | null;
}

/** A guide as the environment serves it, for in-app guide steps (ADR 0188). */
export interface GuideView {
  key: string;
  sha: string;
  channelKey: string;
  steps: { ref: string; schema_key: string; schema_variant_key: string; values: Record<string, unknown> }[];
}

/**
 * Everything the engine reads from elsewhere: workflow definitions, recipients, preferences,
 * channels, templates. The worker implements it over the read models; tests may fake it.
 * Every method takes the environment.
 */
export interface EngineLookups {
  /**
   * `configVersion`: where configuration stood, read in the statement that found the request's
   * key (ADR 0217); an implementation may answer from a cache loaded under that same version.
   */
  workflow(environment: string, key: string, options?: { configVersion?: string }): Promise<WorkflowView | undefined>;
  /** Whether a workflow of this key was archived here (ADR 0225); only to say so when one is asked for. */
  workflowArchived?(environment: string, key: string): Promise<boolean>;
  recipient(environment: string, ref: RecipientRefT): Promise<RecipientView | undefined>;
  tenant(environment: string, id: string): Promise<Record<string, unknown> | undefined>;
  preferenceLayers(environment: string, ref: RecipientRefT, tenant: string | null): Promise<PreferenceLayers>;
  channelByKey(environment: string, key: string): Promise<ChannelView | undefined>;
  guide(environment: string, key: string): Promise<GuideView | undefined>;
  /** The channels of a channel group, in rule order, that apply to this recipient. */
  channelGroup(environment: string, key: string): Promise<{ channels: string[]; operator: 'any' | 'all' } | undefined>;
  channelData(environment: string, ref: RecipientRefT, channelId: string): Promise<Record<string, unknown> | undefined>;
  /** Pages of an object's subscribers. */
  subscribers(
    environment: string,
    collection: string,
    id: string,
    after?: string,
  ): Promise<{ recipients: RecipientRefT[]; after: string | null }>;
  vars(environment: string): Promise<Record<string, unknown>>;
  /**
   * Which of the given audiences the recipient belongs to: as a member of no tenant, or of the
   * run's tenant. Objects belong to none.
   */
  audiencesOf(environment: string, ref: RecipientRefT, keys: readonly string[], tenant: string | null, at?: string): Promise<string[]>;
  templateResources(environment: string, options: { tenant: string | null }): TemplateResources;
  /** Which of these (lower-cased) addresses are on the environment's suppression list, and why (ADR 0204). */
  suppressions?(environment: string, addresses: readonly string[]): Promise<SuppressionEntry[]>;
  /**
   * Lookups for one batch of runs: answers are remembered for the batch, and `prefetch` loads
   * many recipients (and their preference sets) in a few queries. Optional.
   */
  forBatch?(): BatchLookups;
}

export interface BatchLookups extends EngineLookups {
  /**
   * Loads the recipients for the batch. With `fresh` (a SQL expression true when the recipient
   * read models hold every recipient event committed, ADR 0258) it is evaluated in the same
   * statement and answered: whether what was loaded is current. True when not asked.
   */
  prefetch(environment: string, recipients: readonly RecipientRefT[], options?: { fresh?: string }): Promise<boolean>;
}

export type { PreferenceSetDataT };
