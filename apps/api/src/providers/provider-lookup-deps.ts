import { Inject, Injectable } from '@nestjs/common';
import { EngineLookups, ProviderLookupDeps, RecipientDeps, SECRET_BOX, SecretBox, unsealValue } from '@notify/application';
import { MicrosoftTokens } from '@notify/delivery';
import { RequestContext } from '@notify/http';
import { ENGINE_LOOKUPS, OUTBOUND_HTTP, ReadYourWrites } from '@notify/platform';
import type { OutboundHttp } from '@notify/outbound';
import { ChannelDataQueries } from '@notify/projections/channel-data';
import { ChannelQueries } from '@notify/projections/channels';
import { updateRecipientAspects } from '../recipients/recipient-aspects';
import { RECIPIENT_DEPS } from '../recipients/recipient-read-models.module';
import { commandMetadata } from '../shared/command-metadata';

/** The lookups' ports over the read models, the secret box and the recipient commands, for one request. */
@Injectable()
export class ProviderLookupDepsFactory {
  /** Graph tokens for the whole process: a tenant's token serves every lookup until shortly before it expires. */
  private readonly graphTokens = new MicrosoftTokens();

  constructor(
    private readonly channels: ChannelQueries,
    private readonly channelData: ChannelDataQueries,
    @Inject(RECIPIENT_DEPS) private readonly recipients: RecipientDeps,
    @Inject(SECRET_BOX) private readonly box: SecretBox,
    @Inject(OUTBOUND_HTTP) private readonly outbound: OutboundHttp,
    private readonly consistency: ReadYourWrites,
    @Inject(ENGINE_LOOKUPS) private readonly lookups: EngineLookups,
  ) {}

  for(ctx: RequestContext): ProviderLookupDeps {
    return {
      outbound: this.outbound,
      graphTokens: this.graphTokens,
      vars: (environment) => this.lookups.vars(environment),
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
