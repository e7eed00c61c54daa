import { SetTenantBodyT } from '@notify/contracts';
import { invalidParams, TenantEvent, tenantDecider, TenantState, tenantStream } from '@notify/domain';
import { CommandMetadata, CommandOutcome, handleCommand } from '../handle-command';
import { checkItemSchema } from '../config/item-schemas';
import { inlineAspects } from './aspects';
import { eventIdsFor } from './event-ids';
import { deleteObject, ObjectOutcome, updateObjectAspects } from './object-use-cases';
import { Idempotency, RecipientDeps } from './ports';

/**
 * A tenant's channel data (a Slack bot token per customer workspace, say) is kept as the channel
 * data of the object with the tenant's id in this collection, as Knock models tenants (ADR 0118):
 * readable with the objects API, deleted with the tenant.
 */
export const TENANT_OBJECTS_COLLECTION = '$tenants';

/** The tenant's own outcome, and that of its channel data when the call set some. */
export type TenantOutcome = CommandOutcome<TenantState, TenantEvent> & { channelData?: ObjectOutcome };

export async function setTenant(
  deps: RecipientDeps,
  environment: string,
  tenantId: string,
  body: SetTenantBodyT | Record<string, unknown>,
  metadata: CommandMetadata,
  options: Idempotency = {},
): Promise<TenantOutcome> {
  const { settings, channel_data, preferences, ...properties } = body as SetTenantBodyT;
  // Tenant preferences are the tenant's settings.preference_set; inline `preferences` (which the
  // reference's tenant requests do not list) are refused rather than kept as custom properties.
  if (preferences != null)
    throw invalidParams([
      { field: 'preferences', message: 'is not supported on tenants; use settings.preference_set', type: 'unsupported' },
    ]);
  await checkItemSchema(deps.itemSchemas, environment, 'tenant', null, properties);
  const now = new Date().toISOString();
  // Every channel is checked before anything is written.
  const aspects = await inlineAspects(deps.channels, environment, { channel_data }, now);
  const stream = tenantStream(environment, tenantId);
  const outcome: TenantOutcome = await handleCommand(
    deps.store,
    stream,
    tenantDecider,
    { type: 'SetTenant', tenantId, properties, settings, now },
    metadata,
    {
      eventId: eventIdsFor(options.seed, stream),
    },
  );
  if (aspects.length)
    outcome.channelData = await updateObjectAspects(deps, environment, TENANT_OBJECTS_COLLECTION, tenantId, aspects, metadata, options);
  return outcome;
}

export async function deleteTenant(
  deps: RecipientDeps,
  environment: string,
  tenantId: string,
  metadata: CommandMetadata,
  options: Idempotency = {},
): Promise<TenantOutcome> {
  const stream = tenantStream(environment, tenantId);
  const outcome: TenantOutcome = await handleCommand(
    deps.store,
    stream,
    tenantDecider,
    { type: 'DeleteTenant', tenantId, now: new Date().toISOString() },
    metadata,
    {
      eventId: eventIdsFor(options.seed, stream),
    },
  );
  // Its channel data goes with it (nothing is written when it had none).
  const channelData = await deleteObject(deps, environment, TENANT_OBJECTS_COLLECTION, tenantId, metadata, options);
  if (channelData.append) outcome.channelData = channelData;
  return outcome;
}
