import type { PreferenceSetDataT, PreferenceSetT, RecipientRefT, SecretValueT, UserT, WorkflowSnapshotT } from '@notify/contracts';
import type { PreferenceLayers } from '@notify/domain';
import { AudienceMemberQueries } from '@notify/projections/audience-members';
import { ChannelGroupQueries } from '@notify/projections/channel-groups';
import { ChannelQueries, type ChannelRecord } from '@notify/projections/channels';
import { ChannelDataQueries } from '@notify/projections/channel-data';
import { ConfigResourceQueries } from '@notify/projections/config-resources';
import { ObjectQueries } from '@notify/projections/objects';
import { PreferenceQueries } from '@notify/projections/preferences';
import { SubscriptionQueries } from '@notify/projections/subscriptions';
import { SuppressionQueries } from '@notify/projections/suppressions';
import { TenantQueries } from '@notify/projections/tenants';
import { toUser, UserQueries } from '@notify/projections/users';
import { VariableQueries } from '@notify/projections/variables';
import type { TemplateResources } from '@notify/templating';
import { preparedQuery } from '@notify/database';
import { DataSource } from 'typeorm';
import { SecretBox, unsealValue } from '../config/secret-box';
import { templateResourcesFor } from '../config/template-resources';
import type { BatchLookups, ChannelView, EngineLookups, GuideView, RecipientView, SuppressionEntry, WorkflowView } from './lookups';

const SUBSCRIBER_PAGE = 1000;

/** The channels usable in an environment (`$1`) and the variables it sees, as two JSON columns. */
const CONFIGURATION_COLUMNS = `
  (SELECT coalesce(json_agg(json_build_object('id', c.id, 'key', c.key, 'type', c.type, 'provider', c.provider, 'settings', c.environment_settings -> $1)), '[]')
     FROM rm_channels c WHERE c.archived_at IS NULL AND c.environment_settings ? $1) AS channels,
  (SELECT coalesce(json_agg(json_build_object('key', v.key, 'value', v.value, 'own', v.environment_values -> $1)), '[]')
     FROM rm_variables v) AS variables`;

interface ConfigurationRow {
  channels: { id: string; key: string; type: ChannelView['type']; provider: string; settings: ChannelRecord['settings'] }[];
  variables: { key: string; value: SecretValueT | null; own: SecretValueT | null }[];
}

interface Configuration {
  channels: Map<string, ChannelView>;
  vars: Record<string, unknown>;
}
/** Workflows kept by `workflow` under a configuration version; past it the oldest is dropped. */
const MAX_CACHED_WORKFLOWS = 10_000;

/**
 * The engine's reads, from the read models. An environment serves its own version of each
 * workflow: the latest in the environment where configuration is edited, the promoted one after.
 */
export class ReadModelLookups implements EngineLookups {
  private readonly users: UserQueries;
  private readonly objects: ObjectQueries;
  private readonly tenants: TenantQueries;
  private readonly preferences: PreferenceQueries;
  private readonly channels: ChannelQueries;
  private readonly groups: ChannelGroupQueries;
  private readonly channelDataQueries: ChannelDataQueries;
  private readonly subscriptions: SubscriptionQueries;
  private readonly variables: VariableQueries;
  private readonly resources: ConfigResourceQueries;
  private readonly audienceMembers: AudienceMemberQueries;
  private readonly suppressionQueries: SuppressionQueries;
  /** Workflows as loaded under a configuration version (ADR 0217), by environment and key. */
  private readonly workflows = new Map<string, { version: string; view: Promise<WorkflowView | undefined> }>();

  constructor(
    private readonly db: DataSource,
    private readonly secrets: SecretBox,
  ) {
    this.users = new UserQueries(db);
    this.objects = new ObjectQueries(db);
    this.tenants = new TenantQueries(db);
    this.preferences = new PreferenceQueries(db);
    this.channels = new ChannelQueries(db);
    this.groups = new ChannelGroupQueries(db);
    this.channelDataQueries = new ChannelDataQueries(db);
    this.subscriptions = new SubscriptionQueries(db);
    this.variables = new VariableQueries(db);
    this.resources = new ConfigResourceQueries(db);
    this.audienceMembers = new AudienceMemberQueries(db);
    this.suppressionQueries = new SuppressionQueries(db);
  }

  async guide(environment: string, key: string): Promise<GuideView | undefined> {
    const record = await this.resources.get(environment, 'guide', key);
    if (!record) return undefined;
    return { key, sha: record.sha, channelKey: record.content.channel_key as string, steps: record.content.steps as GuideView['steps'] };
  }

  /**
   * With a configuration version (read with the request's key, ADR 0217) the workflow is cached
   * per process as of that version, as the authenticator caches user-token policies (ADR 0136):
   * used only by a request that read the same version, so a change committed (and seen by the
   * caller: the version moves in the same commit) is loaded by the first request after it on any
   * instance. A request that read an older version than the cached entry loads for itself; a
   * failed load is not kept. Without a version (the worker, schedules) it reads every time.
   */
  workflow(environment: string, key: string, options: { configVersion?: string } = {}): Promise<WorkflowView | undefined> {
    const version = options.configVersion;
    if (!version) return this.loadWorkflow(environment, key);
    const id = `${environment}\u0000${key}`;
    const cached = this.workflows.get(id);
    if (cached?.version === version) return cached.view;
    // Versions are log positions, ordered as strings.
    if (cached && cached.version > version) return this.loadWorkflow(environment, key);
    const entry = { version, view: this.loadWorkflow(environment, key) };
    if (!cached && this.workflows.size >= MAX_CACHED_WORKFLOWS) this.workflows.delete(this.workflows.keys().next().value!);
    this.workflows.set(id, entry);
    entry.view.catch(() => {
      if (this.workflows.get(id) === entry) this.workflows.delete(id);
    });
    return entry.view;
  }

  private async loadWorkflow(environment: string, key: string): Promise<WorkflowView | undefined> {
    const record = await this.resources.get(environment, 'workflow', key);
    if (!record) return undefined;
    const w = record.content as Record<string, unknown>;
    const settings = (w.settings ?? null) as Record<string, unknown> | null;
    const snapshot: WorkflowSnapshotT = {
      key,
      version: record.sha,
      categories: (w.categories as string[] | undefined) ?? [],
      steps: (w.steps as Record<string, unknown>[] | undefined) ?? [],
      conditions: w.conditions ?? null,
      settings,
      trigger_frequency: (w.trigger_frequency as WorkflowSnapshotT['trigger_frequency'] | undefined) ?? 'every_trigger',
    };
    return {
      snapshot,
      active: record.active,
      valid: record.valid,
      triggerDataSchema: (w.trigger_data_json_schema as Record<string, unknown> | undefined) ?? null,
    };
  }

  async workflowArchived(environment: string, key: string): Promise<boolean> {
    return (await this.resources.archivedAt(environment, 'workflow', key)) !== undefined;
  }

  async recipient(environment: string, ref: RecipientRefT): Promise<RecipientView | undefined> {
    if (ref.type === 'user') {
      const user = await this.users.get(environment, ref.id);
      return user && { ref, properties: strip(user as Record<string, unknown>) };
    }
    const object = await this.objects.get(environment, ref.collection, ref.id);
    return object && { ref, properties: strip(object as Record<string, unknown>) };
  }

  async tenant(environment: string, id: string): Promise<Record<string, unknown> | undefined> {
    const tenant = await this.tenants.get(environment, id);
    return tenant && strip(tenant as Record<string, unknown>);
  }

  async preferenceLayers(environment: string, ref: RecipientRefT, tenant: string | null): Promise<PreferenceLayers> {
    // All of the recipient's sets in one query; the tenant's default only when there is a tenant.
    const [sets, tenantDefault] = await Promise.all([
      this.preferences.list(environment, ref),
      tenant ? this.tenants.defaultPreferenceSet(environment, tenant) : Promise.resolve(null),
    ]);
    return layersFrom(sets, tenant, tenantDefault);
  }

  tenantDefault(environment: string, tenant: string): Promise<PreferenceSetDataT | null> {
    return this.tenants.defaultPreferenceSet(environment, tenant);
  }

  async channelByKey(environment: string, key: string): Promise<ChannelView | undefined> {
    const channel = await this.channels.findUsable(environment, { key });
    return channel && this.channelView(channel);
  }

  private channelView(
    channel: Pick<ChannelView, 'id' | 'key' | 'type' | 'provider'> & { settings: ChannelRecord['settings'] },
  ): ChannelView {
    const settings = channel.settings && {
      ...channel.settings,
      // Credentials are sealed in the log and the read model; delivery needs them open.
      channel_settings: unsealValue(this.secrets, channel.settings.channel_settings) as Record<string, unknown>,
      provider_settings: unsealValue(this.secrets, channel.settings.provider_settings) as Record<string, unknown>,
    };
    return { id: channel.id, key: channel.key, type: channel.type, provider: channel.provider, settings };
  }

  /**
   * The channels usable in the environment and the variables it sees, in one statement: what a
   * batch of runs reads of its configuration (`forBatch` keeps it for the batch), where
   * `channelByKey` and `vars` were a statement each (ADR 0251). Same rows and values as those two.
   */
  async channelsAndVars(environment: string): Promise<Configuration> {
    const [row] = await this.db.query<ConfigurationRow[]>(`SELECT ${CONFIGURATION_COLUMNS}`, [environment]);
    return this.configurationFrom(row);
  }

  /**
   * Users and their preference sets (as `UserQueries.getMany` and `PreferenceQueries.forRecipients`
   * answer them) with the environment's channels and variables (as `channelsAndVars`): everything a
   * batch of runs reads before its first step, in one statement. `fresh`, a boolean SQL expression
   * evaluated in the same snapshot, is answered with them (ADR 0258).
   */
  async usersAndConfiguration(
    environment: string,
    ids: readonly string[],
    fresh?: string,
  ): Promise<{ users: Map<string, UserT>; sets: Map<string, PreferenceSetT[]>; configuration: Configuration; fresh: boolean }> {
    const [row] = await preparedQuery<
      ConfigurationRow & {
        users: { id: string; properties: Record<string, unknown>; updated_at_ms: number }[];
        sets: { recipient_id: string; set_id: string; preferences: PreferenceSetDataT }[];
        fresh: boolean;
      }
    >(
      this.db,
      `SELECT ${CONFIGURATION_COLUMNS}, ${fresh ?? 'true'} AS fresh,
         (SELECT coalesce(json_agg(json_build_object('id', u.id, 'properties', u.properties,
                   'updated_at_ms', floor(extract(epoch FROM u.updated_at) * 1000))), '[]')
            FROM rm_users u WHERE u.environment = $1 AND u.id = ANY($2)) AS users,
         (SELECT coalesce(json_agg(json_build_object('recipient_id', p.recipient_id, 'set_id', p.set_id, 'preferences', p.preferences) ORDER BY p.set_id), '[]')
            FROM rm_preference_sets p
            WHERE p.environment = $1 AND p.recipient_type = 'user' AND p.recipient_collection = '' AND p.recipient_id = ANY($2)) AS sets`,
      [environment, ids],
    );
    const users = new Map(
      row.users.map((u) => [
        u.id,
        toUser({ id: u.id, properties: u.properties, inserted_at: new Date(0), updated_at: new Date(Number(u.updated_at_ms)) }),
      ]),
    );
    const sets = new Map<string, PreferenceSetT[]>(ids.map((id) => [id, []]));
    for (const r of row.sets) sets.get(r.recipient_id)?.push({ id: r.set_id, ...r.preferences });
    return { users, sets, configuration: this.configurationFrom(row), fresh: row.fresh === true };
  }

  private configurationFrom(row: ConfigurationRow): Configuration {
    return {
      channels: new Map(row.channels.map((c) => [c.key, this.channelView({ ...c, settings: c.settings ?? null })])),
      vars: Object.fromEntries(row.variables.map((v) => [v.key, unsealValue(this.secrets, v.own ?? v.value)])),
    };
  }

  async channelGroup(_environment: string, key: string): Promise<{ channels: string[]; operator: 'any' | 'all' } | undefined> {
    const group = await this.groups.get(key);
    return (
      group && { channels: [...group.channel_rules].sort((a, b) => a.index - b.index).map((r) => r.channel_key), operator: group.operator }
    );
  }

  async channelData(environment: string, ref: RecipientRefT, channelId: string): Promise<Record<string, unknown> | undefined> {
    return (await this.channelDataQueries.get(environment, ref, channelId))?.data;
  }

  async subscribers(
    environment: string,
    collection: string,
    id: string,
    after?: string,
  ): Promise<{ recipients: RecipientRefT[]; after: string | null }> {
    const cursor = after ? (JSON.parse(after) as [string, string, string]) : null;
    const recipients = await this.subscriptions.subscriberRefs(environment, collection, id, cursor, SUBSCRIBER_PAGE);
    const last = recipients[recipients.length - 1];
    const next =
      recipients.length === SUBSCRIBER_PAGE && last
        ? JSON.stringify(last.type === 'user' ? ['user', '', last.id] : ['object', last.collection, last.id])
        : null;
    return { recipients, after: next };
  }

  async vars(environment: string): Promise<Record<string, unknown>> {
    const values = await this.variables.valuesFor(environment);
    return Object.fromEntries(Object.entries(values).map(([k, v]) => [k, unsealValue(this.secrets, v)]));
  }

  async audiencesOf(
    environment: string,
    ref: RecipientRefT,
    keys: readonly string[],
    tenant: string | null,
    at?: string,
  ): Promise<string[]> {
    if (ref.type !== 'user') return [];
    return this.audienceMembers.audiencesOf(environment, ref.id, keys, tenant, at ? new Date(at) : undefined);
  }

  templateResources(environment: string, options: { tenant: string | null }): TemplateResources {
    return templateResourcesFor(this.resources, this.users, environment, options.tenant);
  }

  async suppressions(environment: string, addresses: readonly string[]): Promise<SuppressionEntry[]> {
    return (await this.suppressionQueries.find(environment, addresses)).map((r) => ({
      address: r.address,
      reason: r.reason,
      message_id: r.message_id,
      source: r.source,
      detail: r.detail,
      suppressed_at: r.inserted_at.toISOString(),
    }));
  }

  forBatch(): BatchLookups {
    return new MemoLookups(this, this.preferences);
  }
}

const refKey = (ref: RecipientRefT) => (ref.type === 'user' ? `u:${ref.id}` : `o:${ref.collection}:${ref.id}`);

/**
 * Lookups for one batch of runs: every answer is remembered for the batch (a batch lives for
 * milliseconds, so nothing goes stale), and users and their preference sets are loaded for the
 * whole batch with the environment's configuration, in one statement.
 */
class MemoLookups implements BatchLookups {
  private readonly memo = new Map<string, Promise<unknown>>();

  constructor(
    private readonly inner: ReadModelLookups,
    private readonly preferenceSets: PreferenceQueries,
  ) {}

  private remember<T>(key: string, load: () => Promise<T>): Promise<T> {
    let found = this.memo.get(key) as Promise<T> | undefined;
    if (!found) {
      found = load();
      this.memo.set(key, found);
    }
    return found;
  }

  async prefetch(environment: string, recipients: readonly RecipientRefT[], options: { fresh?: string } = {}): Promise<boolean> {
    const ids = [...new Set(recipients.filter((r) => r.type === 'user').map((r) => r.id))].filter(
      (id) => !this.memo.has(`recipient:${environment}:u:${id}`),
    );
    // Asked whether the answers are current, the statement goes even with nothing left to load.
    if (ids.length === 0 && options.fresh === undefined) return true;
    // The environment's configuration comes in the same statement; the first answer is kept.
    const loading = this.inner.usersAndConfiguration(environment, ids, options.fresh);
    const configurationKey = `configuration:${environment}`;
    if (!this.memo.has(configurationKey)) {
      const configuration = loading.then((r) => r.configuration);
      configuration.catch(() => undefined); // a failed read is thrown by the await below
      this.memo.set(configurationKey, configuration);
    }
    const { users, sets, fresh } = await loading;
    for (const id of ids) {
      const user = users.get(id);
      const ref: RecipientRefT = { type: 'user', id };
      this.memo.set(
        `recipient:${environment}:u:${id}`,
        Promise.resolve(user && { ref, properties: strip(user as Record<string, unknown>) }),
      );
      this.memo.set(`sets:${environment}:u:${id}`, Promise.resolve(sets.get(id) ?? []));
    }
    return fresh;
  }

  guide(environment: string, key: string) {
    return this.remember(`guide:${environment}:${key}`, () => this.inner.guide(environment, key));
  }

  workflow(environment: string, key: string) {
    return this.remember(`workflow:${environment}:${key}`, () => this.inner.workflow(environment, key));
  }
  recipient(environment: string, ref: RecipientRefT) {
    return this.remember(`recipient:${environment}:${refKey(ref)}`, () => this.inner.recipient(environment, ref));
  }
  tenant(environment: string, id: string) {
    return this.remember(`tenant:${environment}:${id}`, () => this.inner.tenant(environment, id));
  }
  async preferenceLayers(environment: string, ref: RecipientRefT, tenant: string | null): Promise<PreferenceLayers> {
    const sets = await this.remember(`sets:${environment}:${refKey(ref)}`, () => this.preferenceSets.list(environment, ref));
    const tenantDefault = tenant
      ? await this.remember(`tenant-default:${environment}:${tenant}`, () => this.inner.tenantDefault(environment, tenant))
      : null;
    return layersFrom(sets, tenant, tenantDefault);
  }
  /** The environment's usable channels and variables, one statement for the batch. */
  private configuration(environment: string) {
    return this.remember(`configuration:${environment}`, () => this.inner.channelsAndVars(environment));
  }
  async channelByKey(environment: string, key: string) {
    return (await this.configuration(environment)).channels.get(key);
  }
  channelGroup(environment: string, key: string) {
    return this.remember(`group:${environment}:${key}`, () => this.inner.channelGroup(environment, key));
  }
  channelData(environment: string, ref: RecipientRefT, channelId: string) {
    return this.remember(`channel-data:${environment}:${refKey(ref)}:${channelId}`, () =>
      this.inner.channelData(environment, ref, channelId),
    );
  }
  subscribers(environment: string, collection: string, id: string, after?: string) {
    return this.inner.subscribers(environment, collection, id, after);
  }
  suppressions(environment: string, addresses: readonly string[]) {
    return this.inner.suppressions(environment, addresses);
  }

  async vars(environment: string) {
    return (await this.configuration(environment)).vars;
  }
  audiencesOf(environment: string, ref: RecipientRefT, keys: readonly string[], tenant: string | null, at?: string) {
    return this.inner.audiencesOf(environment, ref, keys, tenant, at);
  }
  templateResources(environment: string, options: { tenant: string | null }) {
    return this.inner.templateResources(environment, options);
  }
}

/** The recipient's preference sets as layers, least specific first. */
function layersFrom(sets: readonly PreferenceSetT[], tenant: string | null, tenantDefault: PreferenceSetDataT | null): PreferenceLayers {
  const set = (id: string) => {
    const found = sets.find((s) => s.id === id);
    if (!found) return null;
    const { id: _id, ...data } = found;
    return data as PreferenceSetDataT;
  };
  return { environmentDefault: null, tenantDefault, recipientDefault: set('default'), recipientInTenant: tenant ? set(tenant) : null };
}

/** Read models answer in the API's shape; templates and conditions want the plain properties. */
function strip(entity: Record<string, unknown>): Record<string, unknown> {
  const { __typename: _t, ...rest } = entity;
  return rest;
}
