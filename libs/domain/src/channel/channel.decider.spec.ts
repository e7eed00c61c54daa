import { deciderSpec } from '@notify/testing/decider-spec';
import { channelDecider } from './channel.decider';

const now = '2026-01-01T00:00:00.000Z';
const id = '11111111-1111-4111-8111-111111111111';
const settings = { development: { channel_settings: {}, provider_settings: {}, is_sandbox: false } };
const configure = (over: Partial<{ name: string; channelType: 'in_app_feed' | 'email'; newChannelId: string }> = {}) => ({
  type: 'ConfigureChannel' as const,
  newChannelId: over.newChannelId ?? id,
  key: 'in-app',
  name: over.name ?? 'In-app',
  channelType: over.channelType ?? ('in_app_feed' as const),
  provider: 'knock-in-app',
  description: null,
  environmentSettings: settings,
  now,
});
const configured = (name = 'In-app') => ({
  type: 'ChannelConfigured' as const,
  data: {
    channel_id: id,
    key: 'in-app',
    name,
    type: 'in_app_feed' as const,
    provider: 'knock-in-app',
    description: null,
    environment_settings: settings,
    configured_at: now,
  },
});

describe('channel decider', () => {
  const spec = deciderSpec(channelDecider);

  it('configures a new channel with the given id', () => {
    spec.given([]).when(configure()).then([configured()]);
  });

  it('keeps the first id on later changes and records nothing when nothing changes', () => {
    spec
      .given([configured()])
      .when(configure({ name: 'Feed', newChannelId: '22222222-2222-4222-8222-222222222222' }))
      .then([configured('Feed')]);
    spec.given([configured()]).when(configure()).thenNothing();
  });

  it('refuses to change the type of an existing channel', () => {
    spec
      .given([configured()])
      .when(configure({ channelType: 'email' }))
      .thenThrows('channel_type_immutable');
  });

  it('archives once', () => {
    const archived = { type: 'ChannelArchived' as const, data: { channel_id: id, key: 'in-app', archived_at: now } };
    spec.given([configured()]).when({ type: 'ArchiveChannel', key: 'in-app', now }).then([archived]);
    spec.given([configured(), archived]).when({ type: 'ArchiveChannel', key: 'in-app', now }).thenNothing();
  });
});
