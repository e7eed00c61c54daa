import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { RecipientDeps, setTenant } from '@notify/application';
import { TenantT } from '@notify/contracts';
import { ReadYourWrites } from '@notify/platform';
import { TenantQueries, toTenant } from '@notify/projections/tenants';
import { commandMetadata } from '../../shared/command-metadata';
import { RECIPIENT_DEPS } from '../../recipients/recipient-read-models.module';
import { SetTenantCommand } from './set-tenant.command';

@CommandHandler(SetTenantCommand)
export class SetTenantHandler implements ICommandHandler<SetTenantCommand> {
  constructor(
    @Inject(RECIPIENT_DEPS) private readonly deps: RecipientDeps,
    private readonly consistency: ReadYourWrites,
    private readonly tenants: TenantQueries,
  ) {}

  async execute({ ctx, tenantId, body }: SetTenantCommand): Promise<TenantT> {
    const outcome = await setTenant(this.deps, ctx.environment, tenantId, body, commandMetadata(ctx));
    await this.consistency.settle(outcome.append, outcome.events);
    if (outcome.channelData) await this.consistency.settle(outcome.channelData.append, outcome.channelData.events);
    // Read models that did not catch up in time (a slow or busy host) do not make a recorded write
    // answer 404: the tenant is then shown as the write left it.
    const now = new Date();
    return (
      (await this.tenants.get(ctx.environment, tenantId)) ??
      toTenant({
        id: tenantId,
        properties: outcome.state.properties,
        settings: outcome.state.settings as Parameters<typeof toTenant>[0]['settings'],
        inserted_at: now,
        updated_at: now,
      })
    );
  }
}
