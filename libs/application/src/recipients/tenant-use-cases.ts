import { SetTenantBodyT } from '@notify/contracts';
import { invalidParams, TenantEvent, tenantDecider, TenantState, tenantStream } from '@notify/domain';
import { CommandMetadata, CommandOutcome, handleCommand } from '../handle-command';
import { eventIdsFor } from './event-ids';
import { Idempotency, RecipientDeps } from './ports';

export type TenantOutcome = CommandOutcome<TenantState, TenantEvent>;

export async function setTenant(
  deps: Pick<RecipientDeps, 'store'>,
  environment: string,
  tenantId: string,
  body: SetTenantBodyT | Record<string, unknown>,
  metadata: CommandMetadata,
  options: Idempotency = {},
): Promise<TenantOutcome> {
  const { settings, channel_data, preferences, ...properties } = body as SetTenantBodyT;
  // Tenants as recipients of channel data and preferences are not modelled yet: refuse rather
  // than keep them as custom properties.
  const unsupported = [channel_data != null && 'channel_data', preferences != null && 'preferences'].filter((f): f is string => !!f);
  if (unsupported.length) {
    throw invalidParams(unsupported.map((field) => ({ field, message: 'is not supported on tenants; use settings.preference_set', type: 'unsupported' })));
  }
  const stream = tenantStream(environment, tenantId);
  return handleCommand(deps.store, stream, tenantDecider, { type: 'SetTenant', tenantId, properties, settings, now: new Date().toISOString() }, metadata, {
    eventId: eventIdsFor(options.seed, stream),
  });
}

export async function deleteTenant(deps: Pick<RecipientDeps, 'store'>, environment: string, tenantId: string, metadata: CommandMetadata, options: Idempotency = {}): Promise<TenantOutcome> {
  const stream = tenantStream(environment, tenantId);
  return handleCommand(deps.store, stream, tenantDecider, { type: 'DeleteTenant', tenantId, now: new Date().toISOString() }, metadata, { eventId: eventIdsFor(options.seed, stream) });
}
