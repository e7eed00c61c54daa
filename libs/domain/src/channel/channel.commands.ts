import type { ChannelTypeT } from '@notify/contracts';

export interface ChannelSettingsInput {
  channel_settings: Record<string, unknown>;
  provider_settings: Record<string, unknown>;
  is_sandbox: boolean;
}

export type ChannelCommand =
  | {
      type: 'ConfigureChannel';
      /** Used only when the channel is new; an existing channel keeps its id. */
      newChannelId: string;
      key: string;
      name: string;
      channelType: ChannelTypeT;
      provider: string;
      description: string | null;
      environmentSettings: Record<string, ChannelSettingsInput>;
      now: string;
    }
  | { type: 'ArchiveChannel'; key: string; now: string };
