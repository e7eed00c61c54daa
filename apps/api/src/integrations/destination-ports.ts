import { Inject, Injectable } from '@nestjs/common';
import {
  addAudienceMembers,
  AudienceDeps,
  DestinationPorts,
  EngineLookups,
  eraseUserAndKey,
  ERASURE_KEYS,
  ErasureKeyStore,
  identifyUser,
  RecipientDeps,
  removeAudienceMembers,
  requestCancellation,
  triggerWorkflow,
} from '@notify/application';
import { EventStore } from '@notify/eventstore';
import { RequestContext } from '@notify/http';
import { CLOCK, Clock, ENGINE_LOOKUPS, EVENT_STORE, ReadYourWrites } from '@notify/platform';
import { ConfigResourceQueries } from '@notify/projections/config-resources';
import { ItemSchemaQueries } from '@notify/projections/item-schemas';
import { AUDIENCE_DEPS } from '../audiences/audience-deps';
import { RECIPIENT_DEPS } from '../recipients/recipient-read-models.module';
import { settleAll } from '../shared/settle';
import { commandMetadata } from '../shared/command-metadata';

/**
 * What a reverse-ETL destination (Census, Hightouch) reads and writes in the calling key's
 * environment: its workflows and user schema, and the identify, delete, trigger and cancel use
 * cases, each settled for reads as a single write is.
 */
@Injectable()
export class DestinationPortsFactory {
  constructor(
    @Inject(RECIPIENT_DEPS) private readonly recipients: RecipientDeps,
    @Inject(ENGINE_LOOKUPS) private readonly lookups: EngineLookups,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly consistency: ReadYourWrites,
    private readonly resources: ConfigResourceQueries,
    private readonly schemas: ItemSchemaQueries,
    @Inject(AUDIENCE_DEPS) private readonly audiences: AudienceDeps,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(ERASURE_KEYS) private readonly keys: ErasureKeyStore,
  ) {}

  for(ctx: RequestContext): DestinationPorts {
    const environment = ctx.environment;
    const metadata = commandMetadata(ctx);
    return {
      workflows: async () =>
        (await this.resources.list(environment, 'workflow', { limit: 100 })).entries.map((w) => ({
          key: w.identifier,
          name: String(w.content.name ?? w.identifier),
          triggerDataSchema: (w.content.trigger_data_json_schema as Record<string, unknown> | null | undefined) ?? null,
        })),
      userSchema: async () => (await this.schemas.propertiesOf(environment, 'user', null)) ?? [],
      identify: async (userId, properties) => {
        const outcome = await identifyUser(this.recipients, environment, userId, properties, metadata);
        await this.consistency.settle(outcome.append, outcome.events);
      },
      trigger: async (workflowKey, body) => {
        const { writes } = await triggerWorkflow(
          { recipients: this.recipients, lookups: this.lookups, clock: this.clock },
          environment,
          workflowKey,
          body,
          metadata,
        );
        await this.consistency.settleAll(writes.appends);
      },
      staticAudiences: async () =>
        (await this.resources.list(environment, 'audience', { limit: 100 })).entries
          .filter((a) => (a.content.type ?? 'static') === 'static')
          .map((a) => ({ key: a.identifier, name: String(a.content.name ?? a.identifier) })),
      addAudienceMember: async (audienceKey, { userId, tenant }) => {
        const outcomes = await addAudienceMembers(
          this.audiences,
          environment,
          audienceKey,
          [{ user: { id: userId }, tenant }],
          true,
          metadata,
        );
        await settleAll(this.consistency, outcomes);
      },
      removeAudienceMember: async (audienceKey, member) => {
        const outcome = await removeAudienceMembers(this.audiences, environment, audienceKey, [member], metadata);
        await this.consistency.settle(outcome.append, outcome.events);
      },
      deleteUser: async (userId) => {
        // As DELETE /v1/users/{id}: UserDeleted then UserErased, and the user's key destroyed (ADR 0144, 0180).
        const outcome = await eraseUserAndKey(this.recipients, this.keys, environment, userId, null, metadata);
        await this.consistency.settle(outcome.append, outcome.events);
      },
      cancelRuns: async (workflowKey, cancellationKey, recipient) => {
        await requestCancellation(
          { store: this.store, lookups: this.lookups },
          environment,
          workflowKey,
          { cancellation_key: cancellationKey, recipients: [recipient] },
          metadata,
        );
      },
    };
  }
}
