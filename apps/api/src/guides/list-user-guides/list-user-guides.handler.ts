import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { guideId, guideStepMessageIds } from '@notify/application';
import { UserGuideT } from '@notify/contracts';
import { ConditionGroup, guideAudienceKeys, guideEligibility, GuideTargeting } from '@notify/domain';
import { EventStore } from '@notify/eventstore';
import { EVENT_STORE } from '@notify/platform';
import { AudienceMemberQueries } from '@notify/projections/audience-members';
import { ResourceRecord } from '@notify/projections/config-resources';
import { MessageQueries } from '@notify/projections/messages';
import { TenantQueries } from '@notify/projections/tenants';
import { UserQueries } from '@notify/projections/users';
import { GuideChannel, ServedGuides } from '../served-guides';
import { ListUserGuidesQuery } from './list-user-guides.query';

interface GuideStepContent {
  ref: string;
  schema_key: string;
  schema_semver: string;
  schema_variant_key: string;
  values: Record<string, unknown>;
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
 * and data of the call (ADR 0187); the eligible ones with their steps' engagement.
 */
@QueryHandler(ListUserGuidesQuery)
export class ListUserGuidesHandler implements IQueryHandler<ListUserGuidesQuery> {
  constructor(
    @Inject(EVENT_STORE) private readonly store: EventStore,
    private readonly guides: ServedGuides,
    private readonly users: UserQueries,
    private readonly tenants: TenantQueries,
    private readonly audiences: AudienceMemberQueries,
    private readonly messages: MessageQueries,
  ) {}

  async execute({ ctx, userId, channelId, filter }: ListUserGuidesQuery) {
    const environment = ctx.environment;
    const channel = await this.guides.channel(environment, channelId);
    const records = (await this.guides.onChannel(environment, channel)).filter((r) => !filter.type || r.content.type === filter.type);
    const tenant = filter.tenant ?? null;
    const [user, tenantRecord] = await Promise.all([
      this.users.get(environment, userId),
      tenant ? this.tenants.get(environment, tenant) : Promise.resolve(undefined),
    ]);
    const audienceKeys = [...new Set(records.flatMap((r) => guideAudienceKeys(targetingOf(r))))];
    const now = new Date().toISOString();
    const audiences = await this.audiences.audiencesOf(environment, userId, audienceKeys, tenant, new Date(now));
    const variables = {
      recipient: { ...(user ?? {}), id: userId },
      tenant: tenantRecord ? { ...tenantRecord } : tenant ? { id: tenant } : null,
      data: filter.data ?? {},
    };

    const entries: UserGuideT[] = [];
    const ineligible: { __typename: 'GuideIneligibilityMarker'; key: string; reason: string; message: string }[] = [];
    for (const record of records) {
      const steps = record.content.steps as GuideStepContent[];
      const ids = await guideStepMessageIds(this.store, { environment, userId, tenant }, { key: record.identifier, steps });
      const messages = new Map((await this.messages.getMany(environment, [...ids.values()])).map((m) => [m.id, m]));
      const stepMessages = steps.map((s) => messages.get(ids.get(s.ref)!));
      const archived = stepMessages.every((m) => !!m?.archived_at);
      const eligibility = guideEligibility(targetingOf(record), { now, variables, audiences, archived });
      if (!eligibility.eligible) {
        ineligible.push({
          __typename: 'GuideIneligibilityMarker',
          key: record.identifier,
          reason: eligibility.reason,
          message: eligibility.message,
        });
        continue;
      }
      entries.push(this.entry(environment, record, channel, steps, stepMessages));
    }
    return { entries, guide_groups: [], guide_group_display_logs: {}, ineligible_guides: ineligible };
  }

  private entry(
    environment: string,
    record: ResourceRecord,
    channel: GuideChannel,
    steps: GuideStepContent[],
    messages: (
      | {
          id: string;
          seen_at: string | null;
          read_at: string | null;
          interacted_at: string | null;
          archived_at: string | null;
          link_clicked_at: string | null;
        }
      | undefined
    )[],
  ): UserGuideT {
    return {
      __typename: 'Guide',
      id: guideId(environment, record.identifier),
      key: record.identifier,
      channel_id: channel.id,
      type: record.content.type as string,
      active: true,
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
      activation_url_rules: [],
      bypass_global_group_limit: false,
      inserted_at: record.createdAt.toISOString(),
      updated_at: record.updatedAt.toISOString(),
    };
  }
}
