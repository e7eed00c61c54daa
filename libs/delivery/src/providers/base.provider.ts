import type { z } from 'zod';
import { Exchange, type ProviderIo } from '../support/exchange';
import { Redactor } from '../support/redactor';
import { issueSentences, settingsIssues, type SettingsIssue } from '../support/settings-schema';
import type { ChannelType, DeliveryContent, DeliveryProvider, DeliveryRequest, DeliveryResult, ProviderConfig } from '../types';

/**
 * What every provider does around its own delivery: one exchange (deadline, logs, redaction),
 * content of the right channel, usable settings, and no exception escaping `send()`.
 */
export abstract class BaseProvider<C extends DeliveryContent> implements DeliveryProvider {
  abstract readonly id: string;
  abstract readonly channelType: ChannelType;

  constructor(private readonly io: ProviderIo = {}) {}

  async send(request: DeliveryRequest, config: ProviderConfig, signal?: AbortSignal): Promise<DeliveryResult> {
    const redactor = Redactor.forSettings(config.settings);
    const exchange = new Exchange(redactor, config, signal, this.io);
    if (request.content.type !== this.contentType()) {
      return exchange.failed({
        retryable: false,
        code: 'invalid_content',
        reason: `${this.id} delivers ${this.contentType()} content, not ${request.content.type}`,
      });
    }
    const problems = this.validateSettings(config.settings);
    if (problems.length)
      return exchange.failed({ retryable: false, code: 'invalid_settings', reason: `${this.id}: ${problems.join('; ')}` });
    try {
      return await this.deliver(request, request.content as C, config, exchange);
    } catch (error) {
      // A bug, not a provider answer: retrying could send twice, so it is permanent.
      return exchange.failed({ retryable: false, code: 'provider_error', reason: error instanceof Error ? error.message : String(error) });
    }
  }

  /** The provider's settings as a zod schema (every built-in provider has one); a provider without one validates by hand. */
  readonly settingsSchema?: z.ZodType;

  validateSettings(settings: Record<string, unknown>): string[] {
    return this.settingsSchema ? issueSentences(settingsIssues(this.settingsSchema, settings)) : [];
  }

  settingsIssues(settings: Record<string, unknown>): SettingsIssue[] {
    if (this.settingsSchema) return settingsIssues(this.settingsSchema, settings);
    return this.validateSettings(settings).map((message) => ({ field: '', message }));
  }

  /** The content type this provider's channel carries; the webhook channel's is `http`. */
  protected contentType(): ChannelType {
    return this.channelType;
  }

  protected abstract deliver(request: DeliveryRequest, content: C, config: ProviderConfig, exchange: Exchange): Promise<DeliveryResult>;
}
