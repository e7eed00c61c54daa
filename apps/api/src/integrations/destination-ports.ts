import { Inject, Injectable } from '@nestjs/common';
import { CensusPorts, EngineLookups, identifyUser, RecipientDeps, triggerWorkflow } from '@notify/application';
import { RequestContext } from '@notify/http';
import { ENGINE_LOOKUPS, ReadYourWrites } from '@notify/platform';
import { ConfigResourceQueries } from '@notify/projections/config-resources';
import { ItemSchemaQueries } from '@notify/projections/item-schemas';
import { RECIPIENT_DEPS } from '../recipients/recipient-read-models.module';
import { commandMetadata } from '../shared/command-metadata';

/**
 * What a reverse-ETL destination (Census, Hightouch) reads and writes in the calling key's
 * environment: its workflows and user schema, and the identify and trigger use cases, each
 * settled for reads as a single write is.
 */
@Injectable()
export class DestinationPortsFactory {
  constructor(
    @Inject(RECIPIENT_DEPS) private readonly recipients: RecipientDeps,
    @Inject(ENGINE_LOOKUPS) private readonly lookups: EngineLookups,
    private readonly consistency: ReadYourWrites,
    private readonly resources: ConfigResourceQueries,
    private readonly schemas: ItemSchemaQueries,
  ) {}

  for(ctx: RequestContext): CensusPorts {
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
          { recipients: this.recipients, lookups: this.lookups },
          environment,
          workflowKey,
          body,
          metadata,
        );
        await this.consistency.settleAll(writes.appends);
      },
    };
  }
}
