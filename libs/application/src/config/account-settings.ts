import { ChannelRequest, REDACTED, SecretValueT, VariableRequest } from '@notify/contracts';
import {
  ChannelCommand,
  channelDecider,
  ChannelEvent,
  ChannelState,
  channelStream,
  FieldError,
  invalidParams,
  variableDecider,
  VariableCommand,
  VariableEvent,
  VariableState,
  variableStream,
} from '@notify/domain';
import { EventStore } from '@notify/eventstore';
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { CommandMetadata, CommandOutcome, handleCommand } from '../handle-command';
import { channelSettingsIssues, providerTypeIssue } from './provider-settings';
import { SecretBox, sealSettings } from './secret-box';

/** What account-wide configuration (channels, variables) needs besides the log. */
export interface AccountSettingsDeps {
  store: EventStore;
  box: SecretBox;
  /** Whether an environment of that slug exists. */
  environmentExists(slug: string): Promise<boolean>;
}

async function unknownEnvironments(deps: AccountSettingsDeps, field: string, slugs: string[]): Promise<void> {
  const unknown: FieldError[] = [];
  for (const env of slugs) {
    if (!(await deps.environmentExists(env)))
      unknown.push({ field: `${field}.${env}`, message: `no environment named ${env}`, type: 'reference' });
  }
  if (unknown.length) throw invalidParams(unknown);
}

/**
 * Configures a channel: name, provider, and settings per environment. Environments not named
 * keep their settings; secret settings (provider settings, and channel settings such as a
 * webhook's signing_secret) are sealed before they reach the log. The merge with the stored
 * settings is redone on every attempt, so concurrent writes to other environments are kept.
 */
export async function configureChannel(
  deps: AccountSettingsDeps,
  key: string,
  channel: z.infer<typeof ChannelRequest>,
  metadata: CommandMetadata,
): Promise<CommandOutcome<ChannelState, ChannelEvent>> {
  const given = channel.environment_settings ?? {};
  await unknownEnvironments(deps, 'channel.environment_settings', Object.keys(given));
  const mismatch = providerTypeIssue(channel.provider, channel.type);
  if (mismatch) throw invalidParams([mismatch]);
  const newChannelId = randomUUID();
  const now = new Date().toISOString();
  return handleCommand(
    deps.store,
    channelStream(key),
    channelDecider,
    (state): ChannelCommand => {
      const previous = state.current?.environment_settings ?? {};
      const settings = { ...previous };
      for (const [env, input] of Object.entries(given)) {
        const before = previous[env];
        settings[env] = {
          channel_settings: input.channel_settings
            ? sealSettings(deps.box, input.channel_settings, before?.channel_settings)
            : (before?.channel_settings ?? {}),
          provider_settings: input.provider_settings
            ? sealSettings(deps.box, input.provider_settings, before?.provider_settings)
            : (before?.provider_settings ?? {}),
          is_sandbox: input.is_sandbox ?? before?.is_sandbox ?? false,
        };
      }
      // Settings sent are checked against the provider's schema, as they will be stored (a
      // secret written back as its marker counts as given); environments sent without any
      // settings are not, and read back as is_valid: false until they have them.
      const issues = Object.entries(given)
        .filter(([, input]) => Object.keys({ ...input.provider_settings, ...input.channel_settings }).length > 0)
        .flatMap(([env]) =>
          channelSettingsIssues(channel.provider, settings[env], `channel.environment_settings.${env}`, (sealed) => deps.box.open(sealed)),
        );
      if (issues.length) throw invalidParams(issues);
      return {
        type: 'ConfigureChannel',
        newChannelId,
        key,
        name: channel.name,
        channelType: channel.type,
        provider: channel.provider,
        description: channel.description ?? null,
        environmentSettings: settings,
        now,
      };
    },
    { ...metadata, environment: null },
  );
}

/**
 * Sets a variable's default value and its per-environment values (null removes one). Values of
 * secret variables are sealed; sending the obfuscated value back keeps the stored one. The merge
 * with the stored values is redone on every attempt, so concurrent writes to other environments
 * (or other fields) are kept.
 */
export async function upsertVariable(
  deps: AccountSettingsDeps,
  key: string,
  variable: z.infer<typeof VariableRequest>,
  metadata: CommandMetadata,
): Promise<CommandOutcome<VariableState, VariableEvent>> {
  const given = variable.environment_values ?? {};
  await unknownEnvironments(deps, 'variable.environment_values', Object.keys(given));
  const now = new Date().toISOString();
  return handleCommand(
    deps.store,
    variableStream(key),
    variableDecider,
    ({ current }): VariableCommand => {
      const type = variable.type ?? current?.type ?? 'public';
      const keep = (value: string, before: SecretValueT | null | undefined): SecretValueT => {
        if (value === REDACTED && before != null) return before;
        return type === 'secret' ? deps.box.seal(value) : value;
      };
      const values: Record<string, SecretValueT> = { ...(current?.environment_values ?? {}) };
      for (const [env, value] of Object.entries(given)) {
        if (value === null) delete values[env];
        else values[env] = keep(value, current?.environment_values[env]);
      }
      let value =
        variable.value === undefined ? (current?.value ?? null) : variable.value === null ? null : keep(variable.value, current?.value);
      if (current && current.type !== type) {
        // Making a variable secret seals the values it keeps; a sealed value cannot be made public
        // (the service does not unseal for clients): it must be sent again.
        if (type === 'secret') {
          for (const [env, v] of Object.entries(values)) if (typeof v === 'string') values[env] = deps.box.seal(v);
          if (typeof value === 'string') value = deps.box.seal(value);
        } else {
          for (const [env, v] of Object.entries(values))
            if (typeof v !== 'string')
              throw invalidParams([
                {
                  field: `variable.environment_values.${env}`,
                  message: 'send the value again to change the type of a secret variable',
                  type: 'required',
                },
              ]);
          if (value !== null && typeof value !== 'string')
            throw invalidParams([
              { field: 'variable.value', message: 'send the value again to change the type of a secret variable', type: 'required' },
            ]);
        }
      }
      const description = variable.description === undefined ? (current?.description ?? null) : variable.description;
      return { type: 'UpsertVariable', variable: { key, type, description, value, environment_values: values }, now };
    },
    { ...metadata, environment: null },
  );
}
