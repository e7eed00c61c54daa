import { Injectable } from '@nestjs/common';
import { ServedGuide } from '@notify/application';
import { invalidParams, resourceMissing } from '@notify/domain';
import { ChannelQueries } from '@notify/projections/channels';
import { ConfigResourceQueries, ResourceRecord } from '@notify/projections/config-resources';

export interface GuideChannel {
  id: string;
  key: string;
  type: string;
  provider: string;
}

/** The guides an environment serves on its guide channels, as the public API reads them. */
@Injectable()
export class ServedGuides {
  constructor(
    private readonly channels: ChannelQueries,
    private readonly resources: ConfigResourceQueries,
  ) {}

  /** A guide channel of the environment, by id (what the clients send) or key; anything else is bad input. */
  async channel(environment: string, idOrKey: string, field = 'channel_id'): Promise<GuideChannel> {
    const byId = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(idOrKey);
    const channel = await this.channels.findUsable(environment, byId ? { id: idOrKey } : { key: idOrKey });
    if (!channel) throw invalidParams([{ field, message: `no channel ${idOrKey} exists in this environment`, type: 'reference' }]);
    if (channel.type !== 'in_app_guide')
      throw invalidParams([{ field, message: `is a ${channel.type} channel, not an in_app_guide channel`, type: 'mismatch' }]);
    return { id: channel.id, key: channel.key, type: channel.type, provider: channel.provider };
  }

  /** Every guide of the channel, by key. */
  async onChannel(environment: string, channel: GuideChannel): Promise<ResourceRecord[]> {
    const out: ResourceRecord[] = [];
    let after: string | undefined;
    do {
      const page = await this.resources.list(environment, 'guide', { after, limit: 100 }, {}, { channel_key: channel.key });
      out.push(...page.entries);
      after = page.page_info.after ?? undefined;
    } while (after);
    return out;
  }

  /** One guide when it is on the channel. */
  async find(environment: string, channel: GuideChannel, key: string): Promise<ResourceRecord | undefined> {
    const record = await this.resources.get(environment, 'guide', key);
    return record && record.content.channel_key === channel.key ? record : undefined;
  }

  /** One guide, which must be on the channel. */
  async get(environment: string, channel: GuideChannel, key: string): Promise<{ record: ResourceRecord; guide: ServedGuide }> {
    const record = await this.resources.get(environment, 'guide', key);
    if (!record || record.content.channel_key !== channel.key) throw resourceMissing('guide');
    return { record, guide: servedGuide(record, channel) };
  }
}

export function servedGuide(record: ResourceRecord, channel: GuideChannel): ServedGuide {
  return { key: record.identifier, sha: record.sha, channel, steps: record.content.steps as ServedGuide['steps'] };
}
