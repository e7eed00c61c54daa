import { channelDataSchemaFor, InlineChannelDataRequest, InlinePreferenceSetRequest } from '@notify/contracts';
import { AspectCommand, ChannelInfo, DomainError, invalidParams } from '@notify/domain';
import { fieldErrors } from '../validation/zod-errors';
import { z } from 'zod';
import { ChannelFinder } from './ports';

export const channelInvalid = (channelId: string, field: string) =>
  new DomainError('channel_invalid', `The channel ${channelId} does not exist in this environment`, 'invalid_params', [
    { field, message: 'is not a channel of this environment', type: 'channel_invalid' },
  ]);

/**
 * Looks the channel up and checks the data against the shape its type and provider take.
 * Throws channel_invalid for an unknown channel, invalid_params for a wrong shape.
 */
export async function resolveChannel(
  channels: ChannelFinder,
  environment: string,
  channelId: string,
  data: unknown,
  field: { channel: string; data: string },
): Promise<ChannelInfo> {
  const channel = await channels.findUsable(environment, { id: channelId });
  if (!channel) throw channelInvalid(channelId, field.channel);
  const schema = channelDataSchemaFor(channel.type, channel.provider);
  if (!schema) {
    throw invalidParams([
      { field: field.channel, message: `a ${channel.type} channel takes no channel data`, type: 'channel_type_unsupported' },
    ]);
  }
  const parsed = schema.safeParse(data);
  if (!parsed.success) {
    throw invalidParams(
      fieldErrors(parsed.error).map((e) => ({
        ...e,
        field: e.field === '(root)' ? field.data : `${field.data}.${e.field}`,
        message: `${e.message} (for a ${channel.provider} channel)`,
      })),
    );
  }
  return { id: channel.id, type: channel.type, provider: channel.provider };
}

/** Inline channel data and preferences of identify / set calls as aspect commands. */
export async function inlineAspects(
  channels: ChannelFinder,
  environment: string,
  input: {
    channel_data?: z.infer<typeof InlineChannelDataRequest> | null;
    preferences?: z.infer<typeof InlinePreferenceSetRequest> | null;
  },
  now: string,
  fieldPrefix = '',
): Promise<AspectCommand[]> {
  const commands: AspectCommand[] = [];
  for (const [channelId, data] of Object.entries(input.channel_data ?? {})) {
    const channel = await resolveChannel(channels, environment, channelId, data, {
      channel: `${fieldPrefix}channel_data.${channelId}`,
      data: `${fieldPrefix}channel_data.${channelId}`,
    });
    commands.push({ type: 'SetChannelData', channel, data: data as Record<string, unknown>, now });
  }
  // Inline preferences merge into the existing sets unless a set asks for replace.
  for (const [preferenceSetId, request] of Object.entries(input.preferences ?? {})) {
    commands.push({ type: 'SetPreferenceSet', preferenceSetId, request, strategy: 'merge', now });
  }
  return commands;
}
