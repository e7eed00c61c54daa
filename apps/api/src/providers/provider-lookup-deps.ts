import { Inject, Injectable } from '@nestjs/common';
import { ProviderLookupDeps, RecipientDeps, SECRET_BOX, SecretBox, unsealValue } from '@notify/application';
import { RequestContext } from '@notify/http';
import { OUTBOUND_HTTP, ReadYourWrites } from '@notify/platform';
import type { OutboundHttp } from '@notify/outbound';
import { ChannelDataQueries } from '@notify/projections/channel-data';
import { ChannelQueries } from '@notify/projections/channels';
import { updateRecipientAspects } from '../recipients/recipient-aspects';
import { RECIPIENT_DEPS } from '../recipients/recipient-read-models.module';
import { commandMetadata } from '../shared/command-metadata';

/** The lookups' ports over the read models, the secret box and the recipient commands, for one request. */
@Injectable()
export class ProviderLookupDepsFactory {
  constructor(
    private readonly channels: ChannelQueries,
    private readonly channelData: ChannelDataQueries,
    @Inject(RECIPIENT_DEPS) private readonly recipients: RecipientDeps,
    @Inject(SECRET_BOX) private readonly box: SecretBox,
    @Inject(OUTBOUND_HTTP) private readonly outbound: OutboundHttp,
    private readonly consistency: ReadYourWrites,
  ) {}

  for(ctx: RequestContext): ProviderLookupDeps {
    return {
      outbound: this.outbound,
      channel: async (environment, id) => {
        const found = await this.channels.findUsable(environment, { id });
        if (!found?.settings) return undefined;
        // As delivery reads them: channel settings under provider settings, secrets opened.
        const settings = unsealValue(this.box, { ...found.settings.channel_settings, ...found.settings.provider_settings }) as Record<
          string,
          unknown
        >;
        return { id: found.id, type: found.type, provider: found.provider, settings };
      },
      channelData: async (environment, recipient, channelId) => (await this.channelData.get(environment, recipient, channelId))?.data,
      setChannelData: async (environment, recipient, channel, data) => {
        const outcome = await updateRecipientAspects(
          this.recipients,
          environment,
          recipient,
          [
            {
              type: 'SetChannelData',
              channel: { id: channel.id, type: channel.type, provider: channel.provider },
              data,
              now: new Date().toISOString(),
            },
          ],
          commandMetadata(ctx),
        );
        await this.consistency.settle(outcome.append, outcome.events);
      },
    };
  }
}
