import type { PreferenceSetDataT, RecipientRefT, WorkflowSnapshotT } from '@notify/contracts';
import type { PreferenceLayers } from '@notify/domain';
import { ChannelGroupQueries } from '@notify/projections/channel-groups';
import { ChannelQueries } from '@notify/projections/channels';
import { ChannelDataQueries } from '@notify/projections/channel-data';
import { ConfigResourceQueries } from '@notify/projections/config-resources';
import { ObjectQueries } from '@notify/projections/objects';
import { PreferenceQueries } from '@notify/projections/preferences';
import { SubscriptionQueries } from '@notify/projections/subscriptions';
import { TenantQueries } from '@notify/projections/tenants';
import { UserQueries } from '@notify/projections/users';
import { VariableQueries } from '@notify/projections/variables';
import type { TemplateResources } from '@notify/templating';
import { DataSource } from 'typeorm';
import { SecretBox, unsealValue } from '../config/secret-box';
import { templateResourcesFor } from '../config/template-resources';
import type { ChannelView, EngineLookups, RecipientView, WorkflowView } from './lookups';

const SUBSCRIBER_PAGE = 1000;

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

  constructor(db: DataSource, private readonly secrets: SecretBox) {
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
  }

  async workflow(environment: string, key: string): Promise<WorkflowView | undefined> {
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
    return { snapshot, active: record.active, valid: record.valid, triggerDataSchema: (w.trigger_data_json_schema as Record<string, unknown> | undefined) ?? null };
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
    const set = (id: string) => {
      const found = sets.find((s) => s.id === id);
      if (!found) return null;
      const { id: _id, ...data } = found;
      return data as PreferenceSetDataT;
    };
    return { environmentDefault: null, tenantDefault, recipientDefault: set('default'), recipientInTenant: tenant ? set(tenant) : null };
  }

  async channelByKey(environment: string, key: string): Promise<ChannelView | undefined> {
    const channel = await this.channels.findUsable(environment, { key });
    if (!channel) return undefined;
    const settings = channel.settings && {
      ...channel.settings,
      // Provider credentials are sealed in the log and the read model; delivery needs them open.
      provider_settings: Object.fromEntries(Object.entries(channel.settings.provider_settings).map(([k, v]) => [k, unsealValue(this.secrets, v)])),
    };
    return { id: channel.id, key: channel.key, type: channel.type, provider: channel.provider, settings };
  }

  async channelGroup(_environment: string, key: string): Promise<{ channels: string[]; operator: 'any' | 'all' } | undefined> {
    const group = await this.groups.get(key);
    return group && { channels: [...group.channel_rules].sort((a, b) => a.index - b.index).map((r) => r.channel_key), operator: group.operator };
  }

  async channelData(environment: string, ref: RecipientRefT, channelId: string): Promise<Record<string, unknown> | undefined> {
    return (await this.channelDataQueries.get(environment, ref, channelId))?.data;
  }

  async subscribers(environment: string, collection: string, id: string, after?: string): Promise<{ recipients: RecipientRefT[]; after: string | null }> {
    const cursor = after ? (JSON.parse(after) as [string, string, string]) : null;
    const recipients = await this.subscriptions.subscriberRefs(environment, collection, id, cursor, SUBSCRIBER_PAGE);
    const last = recipients[recipients.length - 1];
    const next = recipients.length === SUBSCRIBER_PAGE && last ? JSON.stringify(last.type === 'user' ? ['user', '', last.id] : ['object', last.collection, last.id]) : null;
    return { recipients, after: next };
  }

  async vars(environment: string): Promise<Record<string, unknown>> {
    const values = await this.variables.valuesFor(environment);
    return Object.fromEntries(Object.entries(values).map(([k, v]) => [k, unsealValue(this.secrets, v)]));
  }

  templateResources(environment: string, options: { tenant: string | null }): TemplateResources {
    return templateResourcesFor(this.resources, this.users, environment, options.tenant);
  }
}

/** Read models answer in the API's shape; templates and conditions want the plain properties. */
function strip(entity: Record<string, unknown>): Record<string, unknown> {
  const { __typename: _t, ...rest } = entity;
  return rest;
}
