import { Controller, Inject } from '@nestjs/common';
import { Command, CommandBus, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { EngineLookups, hightouchRpc, identifyUser, RecipientDeps, triggerWorkflow } from '@notify/application';
import { HightouchRpcRequest, processHightouchRpcRoute, RouteInput, RouteOutput } from '@notify/contracts';
import { Ctx, Endpoint, Input, RequestContext } from '@notify/http';
import { ENGINE_LOOKUPS, ReadYourWrites } from '@notify/platform';
import { ConfigResourceQueries } from '@notify/projections/config-resources';
import { ItemSchemaQueries } from '@notify/projections/item-schemas';
import { z } from 'zod';
import { RECIPIENT_DEPS } from '../../recipients/recipient-read-models.module';
import { commandMetadata } from '../../shared/command-metadata';

export class HightouchRpcCommand extends Command<RouteOutput<typeof processHightouchRpcRoute>> {
  constructor(
    readonly ctx: RequestContext,
    readonly request: z.infer<typeof HightouchRpcRequest>,
  ) {
    super();
  }
}

@Controller()
export class HightouchRpcController {
  constructor(private readonly commands: CommandBus) {}

  @Endpoint(processHightouchRpcRoute)
  process(@Input() { body }: RouteInput<typeof processHightouchRpcRoute>, @Ctx() ctx: RequestContext) {
    return this.commands.execute(new HightouchRpcCommand(ctx, body));
  }
}

/** Adapts a Hightouch JSON-RPC call to the identify and trigger use cases of the calling key's environment (ADR 0158). */
@CommandHandler(HightouchRpcCommand)
export class HightouchRpcHandler implements ICommandHandler<HightouchRpcCommand> {
  constructor(
    @Inject(RECIPIENT_DEPS) private readonly recipients: RecipientDeps,
    @Inject(ENGINE_LOOKUPS) private readonly lookups: EngineLookups,
    private readonly consistency: ReadYourWrites,
    private readonly resources: ConfigResourceQueries,
    private readonly schemas: ItemSchemaQueries,
  ) {}

  async execute({ ctx, request }: HightouchRpcCommand) {
    const environment = ctx.environment;
    const metadata = commandMetadata(ctx);
    const result = await hightouchRpc(
      {
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
      },
      request.method,
      request.params,
    );
    return { jsonrpc: '2.0' as const, id: request.id, result: result as Record<string, unknown> };
  }
}
