import { inSpan, providerCalls, SpanKind, SpanStatusCode } from '@notify/observability';
import { DiscordProvider } from './providers/discord.provider';
import { ExpoProvider } from './providers/expo.provider';
import { MailgunProvider } from './providers/mailgun.provider';
import { MattermostProvider } from './providers/mattermost.provider';
import { MessagebirdProvider } from './providers/messagebird.provider';
import { MsTeamsProvider, MsTeamsWebhookProvider } from './providers/ms-teams.provider';
import { OnesignalProvider } from './providers/onesignal.provider';
import { PostmarkProvider } from './providers/postmark.provider';
import { SendgridProvider } from './providers/sendgrid.provider';
import { SesProvider } from './providers/ses.provider';
import { SnsProvider } from './providers/sns.provider';
import { TelegramProvider } from './providers/telegram.provider';
import { VonageProvider } from './providers/vonage.provider';
import { ApnsProvider } from './providers/apns.provider';
import { FcmProvider } from './providers/fcm.provider';
import { InAppFeedProvider } from './providers/in-app-feed.provider';
import { ResendProvider } from './providers/resend.provider';
import { SlackWebhookProvider } from './providers/slack-webhook.provider';
import { SlackProvider } from './providers/slack.provider';
import { SmtpProvider } from './providers/smtp.provider';
import { TwilioProvider } from './providers/twilio.provider';
import { WebhookProvider } from './providers/webhook.provider';
import type { ProviderIo } from './support/exchange';
import type { ChannelType, DeliveryProvider, DeliveryRequest, DeliveryResult, ProviderConfig } from './types';

/** Providers by id: the one port the workflow engine delivers through. */
export class ProviderRegistry {
  private readonly providers = new Map<string, DeliveryProvider>();

  constructor(providers: Iterable<DeliveryProvider> = []) {
    for (const provider of providers) this.register(provider);
  }

  register(provider: DeliveryProvider): this {
    if (this.providers.has(provider.id)) throw new Error(`a delivery provider with id ${provider.id} is already registered`);
    this.providers.set(provider.id, provider);
    return this;
  }

  get(providerId: string): DeliveryProvider | undefined {
    return this.providers.get(providerId);
  }

  list(channelType?: ChannelType): DeliveryProvider[] {
    return [...this.providers.values()].filter((p) => channelType === undefined || p.channelType === channelType);
  }

  /** Problems with a channel's configuration: unknown provider, wrong channel type, unusable settings. */
  validate(config: ProviderConfig): string[] {
    const provider = this.providers.get(config.provider);
    if (!provider) return [`unknown provider ${config.provider}`];
    if (provider.channelType !== config.channelType)
      return [`provider ${provider.id} delivers ${provider.channelType}, not ${config.channelType}`];
    return provider.validateSettings?.(config.settings) ?? [];
  }

  /**
   * Problems with the settings of a known provider, by setting path; undefined when no built-in
   * provider has this id (channels may name providers this service does not deliver through).
   */
  settingsIssues(config: Pick<ProviderConfig, 'provider' | 'settings'>): { field: string; message: string }[] | undefined {
    const provider = this.providers.get(config.provider);
    if (!provider) return undefined;
    if (provider.settingsIssues) return provider.settingsIssues(config.settings);
    return (provider.validateSettings?.(config.settings) ?? []).map((message) => ({ field: '', message }));
  }

  /**
   * Sends through the provider `config.provider` names. An unknown provider or a channel type
   * mismatch is a permanent failure; no exception escapes.
   */
  async send(request: DeliveryRequest, config: ProviderConfig, signal?: AbortSignal): Promise<DeliveryResult> {
    const provider = this.providers.get(config.provider);
    if (!provider)
      return { outcome: 'failed', retryable: false, code: 'unknown_provider', reason: `unknown provider ${config.provider}`, logs: [] };
    if (provider.channelType !== config.channelType) {
      return {
        outcome: 'failed',
        retryable: false,
        code: 'invalid_settings',
        reason: `provider ${provider.id} delivers ${provider.channelType}, not ${config.channelType}`,
        logs: [],
      };
    }
    return inSpan(
      `provider ${provider.id}`,
      {
        kind: SpanKind.CLIENT,
        attributes: { 'notify.provider': provider.id, 'notify.channel_type': provider.channelType, 'notify.message_id': request.messageId },
      },
      async (span) => {
        const timer = providerCalls.startTimer({ provider: provider.id, channel_type: provider.channelType });
        try {
          const result = await provider.send(request, config, signal);
          timer({ outcome: result.outcome });
          span.setAttribute('notify.outcome', result.outcome);
          if (result.outcome === 'failed') span.setStatus({ code: SpanStatusCode.ERROR, message: result.reason });
          return result;
        } catch (error) {
          timer({ outcome: 'failed' });
          span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
          return {
            outcome: 'failed',
            retryable: false,
            code: 'provider_error',
            reason: error instanceof Error ? error.message : String(error),
            logs: [],
          };
        }
      },
    );
  }
}

export interface DefaultRegistryOptions extends ProviderIo {
  /** The clock for token lifetimes and webhook timestamps (tests move it). */
  now?: () => number;
}

/** Every built-in provider; see README.md for their ids and settings. */
export function createDefaultRegistry(options: DefaultRegistryOptions = {}): ProviderRegistry {
  return new ProviderRegistry([
    new InAppFeedProvider(options),
    new SmtpProvider(options),
    new ResendProvider(options),
    new TwilioProvider(options),
    new FcmProvider(options),
    new ApnsProvider(options),
    new SlackProvider(options),
    new SlackWebhookProvider(options),
    new WebhookProvider(options),
    new SesProvider(options),
    new SendgridProvider(options),
    new MailgunProvider(options),
    new PostmarkProvider(options),
    new VonageProvider(options),
    new MessagebirdProvider(options),
    new SnsProvider(options),
    new ExpoProvider(options),
    new OnesignalProvider(options),
    new DiscordProvider(options),
    new MattermostProvider(options),
    new TelegramProvider(options),
    new MsTeamsWebhookProvider(options),
    new MsTeamsProvider(options),
  ]);
}
