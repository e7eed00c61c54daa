import { channelSettingsIssues, redactSettings, SecretBox } from '@notify/application';
import { ChannelT } from '@notify/contracts';
import { ChannelAdminRow } from '@notify/projections/channels';
import { uuidV5 as uuidv5 } from '@notify/contracts';

const SETTINGS_NAMESPACE = '5d0c7e8e-2f7a-4c0b-8d53-1c6f9e2b4a10';

/** A channel as the management API shows it; secrets never leave sealed. */
export function presentChannel(row: ChannelAdminRow, withSettings: boolean, box?: SecretBox): ChannelT {
  return {
    id: row.id,
    key: row.key,
    name: row.name,
    type: row.type,
    provider: row.provider,
    description: row.description,
    visible_in: ['workflow', 'broadcast'],
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    archived_at: row.archived_at?.toISOString() ?? null,
    ...(withSettings
      ? {
          environment_settings: Object.fromEntries(
            Object.entries(row.environment_settings).map(([env, s]) => [
              env,
              {
                id: uuidv5(`${row.id}:${env}`, SETTINGS_NAMESPACE),
                channel_settings: redactSettings(s.channel_settings),
                provider_settings: redactSettings(s.provider_settings),
                is_sandbox: s.is_sandbox,
                // Settings a built-in provider could not deliver with (none given yet, say) are not valid.
                is_valid: channelSettingsIssues(row.provider, s, env, box && ((sealed) => box.open(sealed))).length === 0,
              },
            ]),
          ),
        }
      : {}),
  };
}
