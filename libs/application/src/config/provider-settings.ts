import { isSealed, type SealedSecretT } from '@notify/contracts';
import { createDefaultRegistry } from '@notify/delivery';
import type { FieldError } from '@notify/domain';

/** The built-in providers, for their settings schemas only (validation makes no call). */
const providers = createDefaultRegistry();

/** The channel types of the management API that a delivery provider's channel type stands for. */
const API_TYPES: Record<string, string[]> = { in_app_feed: ['in_app_feed', 'in_app'] };

interface EnvironmentSettings {
  channel_settings: Record<string, unknown>;
  provider_settings: Record<string, unknown>;
}

/** Opens a sealed secret (the secret box's `open`), for checks that read a secret's content (a PEM key). */
export type OpenSecret = (sealed: SealedSecretT) => string;

/**
 * Settings as a provider reads them (channel settings under provider settings): sealed secrets
 * opened when `openSecret` is given, else counted as given (a placeholder string).
 */
function deliveryView(settings: EnvironmentSettings, openSecret?: OpenSecret): Record<string, unknown> {
  const open = (value: Record<string, unknown>): Record<string, unknown> =>
    Object.fromEntries(
      Object.entries(value).map(([k, v]) => [
        k,
        isSealed(v)
          ? (openSecret?.(v as SealedSecretT) ?? 'sealed-secret')
          : v && typeof v === 'object' && !Array.isArray(v)
            ? open(v as Record<string, unknown>)
            : v,
      ]),
    );
  return { ...open(settings.channel_settings), ...open(settings.provider_settings) };
}

/** Whether this service delivers through a provider of that id. */
export const isBuiltInProvider = (provider: string) => providers.get(provider) !== undefined;

/** A built-in provider named for a channel of another type. */
export function providerTypeIssue(provider: string, channelType: string): FieldError | undefined {
  const known = providers.get(provider);
  if (!known || (API_TYPES[known.channelType] ?? [known.channelType]).includes(channelType)) return undefined;
  return { field: 'channel.provider', message: `${provider} delivers ${known.channelType}, not ${channelType}`, type: 'mismatch' };
}

/**
 * Problems with one environment's settings against the provider's settings schema, each named
 * by the setting it is about (`<prefix>.provider_settings.api_key`, or `channel_settings.…` for a
 * setting given there). Empty for providers this service does not deliver through.
 */
export function channelSettingsIssues(
  provider: string,
  settings: EnvironmentSettings,
  prefix: string,
  openSecret?: OpenSecret,
): FieldError[] {
  if (!providers.get(provider)) return [];
  const issues = providers.settingsIssues({ provider, settings: deliveryView(settings, openSecret) }) ?? [];
  return issues.map(({ field, message }) => {
    const top = field.split('.')[0];
    const where =
      top && top in settings.channel_settings && !(top in settings.provider_settings) ? 'channel_settings' : 'provider_settings';
    return { field: field ? `${prefix}.${where}.${field}` : `${prefix}.${where}`, message, type: 'invalid' };
  });
}
