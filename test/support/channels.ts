import { handleCommand } from '@notify/application';
import { ChannelTypeT } from '@notify/contracts';
import { channelDecider, channelStream } from '@notify/domain';
import { randomUUID } from 'node:crypto';
import { TestApp } from './test-app';

/**
 * Configures a channel in the given environments by appending the channel domain's command,
 * until the channel management endpoints exist; resolves once the channels read model has it.
 */
export async function configureChannel(
  t: Pick<TestApp, 'store' | 'runtime'>,
  input: { key?: string; type: ChannelTypeT; provider: string; environments: string[] },
): Promise<{ id: string; key: string }> {
  const key = input.key ?? `${input.type}-${randomUUID().slice(0, 8)}`;
  const settings = { channel_settings: {}, provider_settings: {}, is_sandbox: false };
  const outcome = await handleCommand(
    t.store,
    channelStream(key),
    channelDecider,
    {
      type: 'ConfigureChannel',
      newChannelId: randomUUID(),
      key,
      name: key,
      channelType: input.type,
      provider: input.provider,
      description: null,
      environmentSettings: Object.fromEntries(input.environments.map((env) => [env, settings])),
      now: new Date().toISOString(),
    },
    { environment: null, actor: 'test' },
  );
  if (outcome.append)
    await t.runtime.waitFor(outcome.append.position, [{ type: 'ChannelConfigured', streamId: outcome.append.streamId }], 10_000);
  return { id: outcome.state.id!, key };
}
