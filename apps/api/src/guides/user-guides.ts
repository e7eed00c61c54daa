import { Inject, Injectable } from '@nestjs/common';
import { guideId, guideStepMessageIds, readGuideGroup } from '@notify/application';
import { DEFAULT_GUIDE_GROUP_KEY, GuideGroupT, UserGuideT } from '@notify/contracts';
import { ConditionGroup, GuideEligibility, guideAudienceKeys, guideEligibility, GuideGroupState, GuideTargeting } from '@notify/domain';
import { EventStore } from '@notify/eventstore';
import { EVENT_STORE } from '@notify/platform';
import { AudienceMemberQueries } from '@notify/projections/audience-members';
import { ResourceRecord } from '@notify/projections/config-resources';
import { MessageQueries } from '@notify/projections/messages';
import { TenantQueries } from '@notify/projections/tenants';
import { UserQueries } from '@notify/projections/users';
import { GuideChannel, ServedGuides } from './served-guides';

interface GuideStepContent {
  ref: string;
  schema_key: string;
  schema_semver: string;
  schema_variant_key: string;
  values: Record<string, unknown>;
}

interface StepMessage {
  id: string;
  seen_at: string | null;
  read_at: string | null;
  interacted_at: string | null;
  archived_at: string | null;
  link_clicked_at: string | null;
}

/** Who asks, and with what: the user, the tenant and data of the call or the socket join. */
export interface GuideAudience {
  userId: string;
  tenant?: string;
  data?: Record<string, unknown>;
  type?: string;
}

export interface IneligibleGuide {
  __typename: 'GuideIneligibilityMarker';
  key: string;
  reason: Exclude<GuideEligibility, { eligible: true }>['reason'];
  message: string;
}

/** One guide of the channel for one user: how the clients render it, and whether it is shown. */
export interface EvaluatedGuide {
  key: string;
  guide: UserGuideT;
  ineligible?: IneligibleGuide;
  /** When the user last archived a step of it (the throttle window starts there). */
  archivedAt: string | null;
}

const targetingOf = (record: ResourceRecord): GuideTargeting => ({
  active: record.active,
  activeFrom: record.activeFrom?.toISOString() ?? null,
  activeUntil: record.activeUntil?.toISOString() ?? null,
  targetAudienceKey: (record.content.target_audience_key as string | null) ?? null,
  targetConditions: (record.content.target_property_conditions as ConditionGroup | null) ?? null,
});

/**
 * The guides of a channel for one user: each guide's targeting evaluated for the user, tenant
 * and data given (ADR 0187), with its steps' engagement. Read by the guides route and by the
 * socket's `guides:<channel_id>` topics (ADR 0165).
 */
@Injectable()
export class UserGuides {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly guides: ServedGuides,
    private readonly users: UserQueries,
    private readonly tenants: TenantQueries,
    private readonly audiences: AudienceMemberQueries,
    private readonly messages: MessageQueries,
  ) {}

  /** The channel's default guide group. */
  async group(environment: string, channel: GuideChannel): Promise<GuideGroupT | undefined> {
    const [records, config] = await Promise.all([this.guides.onChannel(environment, channel), this.groupConfig(environment)]);
    return defaultGuideGroup(records, config);
  }

  groupConfig(environment: string): Promise<GuideGroupState> {
    return readGuideGroup(this.store, environment, DEFAULT_GUIDE_GROUP_KEY);
  }

  /** Every guide of the channel (or only those of `keys`), in the order the clients show them. */
  async evaluate(environment: string, channel: GuideChannel, who: GuideAudience, keys?: readonly string[]): Promise<EvaluatedGuide[]> {
    let records: ResourceRecord[];
    if (keys) {
      const found = await Promise.all(keys.map((k) => this.guides.find(environment, channel, k)));
      records = found.filter((r): r is ResourceRecord => r !== undefined);
    } else records = await this.guides.onChannel(environment, channel);
    records = records.filter((r) => !who.type || r.content.type === who.type);
    if (records.length === 0) return [];
    const userId = who.userId;
    const tenant = who.tenant ?? null;
    const [user, tenantRecord, group] = await Promise.all([
      this.users.get(environment, userId),
      tenant ? this.tenants.get(environment, tenant) : Promise.resolve(undefined),
      this.groupConfig(environment),
    ]);
    const unthrottled = new Set(group.settings?.display_sequence_unthrottled ?? []);
    const audienceKeys = [...new Set(records.flatMap((r) => guideAudienceKeys(targetingOf(r))))];
    const now = new Date().toISOString();
    const audiences = audienceKeys.length ? await this.audiences.audiencesOf(environment, userId, audienceKeys, tenant, new Date(now)) : [];
    const variables = {
      recipient: { ...(user ?? {}), id: userId },
      tenant: tenantRecord ? { ...tenantRecord } : tenant ? { id: tenant } : null,
      data: who.data ?? {},
    };
    const out: EvaluatedGuide[] = [];
    for (const record of sortForDisplay(records)) {
      const steps = record.content.steps as GuideStepContent[];
      const ids = await guideStepMessageIds(this.store, { environment, userId, tenant }, { key: record.identifier, steps });
      const messages = new Map((await this.messages.getMany(environment, [...ids.values()])).map((m) => [m.id, m]));
      const stepMessages = steps.map((s) => messages.get(ids.get(s.ref)!));
      const archived = stepMessages.every((m) => !!m?.archived_at);
      const eligibility = guideEligibility(targetingOf(record), { now, variables, audiences, archived });
      const active = eligibility.eligible || eligibility.reason !== 'guide_not_active';
      const archivedAt = stepMessages.reduce<string | null>((latest, m) => {
        const at = m?.archived_at ?? null;
        return at !== null && (latest === null || Date.parse(at) > Date.parse(latest)) ? at : latest;
      }, null);
      out.push({
        key: record.identifier,
        archivedAt,
        guide: {
          ...entry(environment, record, channel, steps, stepMessages, active),
          bypass_global_group_limit: unthrottled.has(record.identifier),
        },
        ineligible: eligibility.eligible
          ? undefined
          : { __typename: 'GuideIneligibilityMarker', key: record.identifier, reason: eligibility.reason, message: eligibility.message },
      });
    }
    return out;
  }
}

/**
 * The default guide group of a channel's guides (ADR 0166): every guide of the channel, shown or
 * not, so that a guide the socket later adds is already in the sequence; those the configured
 * group orders first, in its order, then the others oldest first. None when the channel has no
 * guides (the clients then make their own).
 */
export function defaultGuideGroup(records: ResourceRecord[], config: GuideGroupState): GuideGroupT | undefined {
  if (records.length === 0) return undefined;
  const settings = config.settings;
  const rank = new Map((settings?.display_sequence ?? []).map((k, i) => [k, i]));
  const sorted = sortForDisplay(records).sort((a, b) => (rank.get(a.identifier) ?? Infinity) - (rank.get(b.identifier) ?? Infinity));
  const keys = sorted.map((r) => r.identifier);
  const unthrottled = new Set(settings?.display_sequence_unthrottled ?? []);
  const times = (pick: (r: ResourceRecord) => Date) => sorted.map((r) => pick(r).getTime());
  return {
    __typename: 'GuideGroup',
    key: DEFAULT_GUIDE_GROUP_KEY,
    display_sequence: keys,
    display_sequence_unthrottled: keys.filter((k) => unthrottled.has(k)),
    display_sequence_throttled: keys.filter((k) => !unthrottled.has(k)),
    ...(settings?.display_interval != null ? { display_interval: settings.display_interval } : {}),
    inserted_at: config.createdAt ?? new Date(Math.min(...times((r) => r.createdAt))).toISOString(),
    updated_at: config.updatedAt ?? new Date(Math.max(...times((r) => r.updatedAt))).toISOString(),
  };
}

/** Oldest first, as the clients order guides without a group (`inserted_at`), the key breaking ties. */
export function sortForDisplay(records: ResourceRecord[]): ResourceRecord[] {
  return [...records].sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.identifier.localeCompare(b.identifier));
}

function entry(
  environment: string,
  record: ResourceRecord,
  channel: GuideChannel,
  steps: GuideStepContent[],
  messages: (StepMessage | undefined)[],
  active: boolean,
): UserGuideT {
  return {
    __typename: 'Guide',
    id: guideId(environment, record.identifier),
    key: record.identifier,
    channel_id: channel.id,
    type: record.content.type as string,
    active,
    steps: steps.map((s, i) => {
      const m = messages[i];
      return {
        ref: s.ref,
        schema_key: s.schema_key,
        schema_semver: s.schema_semver,
        schema_variant_key: s.schema_variant_key,
        content: s.values,
        message: {
          id: m?.id ?? null,
          seen_at: m?.seen_at ?? null,
          read_at: m?.read_at ?? null,
          interacted_at: m?.interacted_at ?? null,
          archived_at: m?.archived_at ?? null,
          link_clicked_at: m?.link_clicked_at ?? null,
        },
      };
    }),
    activation_url_patterns: (record.content.activation_url_patterns as UserGuideT['activation_url_patterns']) ?? [],
    activation_url_rules: (record.content.activation_url_rules as UserGuideT['activation_url_rules']) ?? [],
    bypass_global_group_limit: false,
    inserted_at: record.createdAt.toISOString(),
    updated_at: record.updatedAt.toISOString(),
  };
}
