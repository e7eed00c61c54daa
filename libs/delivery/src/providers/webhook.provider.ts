import type { Exchange, ProviderIo } from '../support/exchange';
import { isSuccess } from '../support/exchange';
import { stringSetting } from '../support/settings';
import type { DeliveryRequest, DeliveryResult, ProviderConfig, WebhookContent } from '../types';
import { SIGNATURE_HEADER, signWebhook } from '../webhook-signature';
import { BaseProvider } from './base.provider';

export interface WebhookProviderOptions extends ProviderIo {
  now?: () => number;
}

const METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * The webhook channel: the rendered content is the request (method, url, headers, query
 * params, body). Every request carries `x-notify-message-id`, `x-notify-idempotency-key` (the
 * same on every attempt: receivers deduplicate on it) and `x-notify-attempt`; with a
 * `signing_secret` setting it is also signed (see webhook-signature.ts). A 2xx answer is
 * `delivered`; redirects are not followed.
 */
export class WebhookProvider extends BaseProvider<WebhookContent> {
  readonly id = 'webhook';
  readonly channelType = 'http' as const;
  private readonly now: () => number;

  constructor(options: WebhookProviderOptions = {}) {
    super(options);
    this.now = options.now ?? Date.now;
  }

  protected async deliver(
    request: DeliveryRequest,
    content: WebhookContent,
    config: ProviderConfig,
    exchange: Exchange,
  ): Promise<DeliveryResult> {
    const method = String(content.method ?? 'POST').toUpperCase();
    if (!METHODS.has(method))
      return exchange.failed({ retryable: false, code: 'invalid_webhook_method', reason: `unsupported method ${content.method}` });
    let url: URL;
    try {
      url = new URL(content.url);
    } catch {
      return exchange.failed({ retryable: false, code: 'invalid_webhook_url', reason: `not a URL: ${content.url}` });
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      return exchange.failed({ retryable: false, code: 'invalid_webhook_url', reason: `not an http(s) URL: ${content.url}` });
    for (const [key, value] of Object.entries(content.query_params ?? {})) url.searchParams.append(key, value);

    const headers: Record<string, string> = { 'user-agent': 'notify-webhooks/1', ...content.headers };
    const hasBody = method !== 'GET' && method !== 'DELETE' && content.body !== undefined && content.body !== null;
    const body = !hasBody ? '' : typeof content.body === 'string' ? content.body : JSON.stringify(content.body);
    if (hasBody && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type'))
      headers['content-type'] = typeof content.body === 'string' ? 'text/plain; charset=utf-8' : 'application/json';
    headers['x-notify-message-id'] = request.messageId;
    headers['x-notify-idempotency-key'] = request.idempotencyKey;
    headers['x-notify-attempt'] = String(request.attempt);
    const secret = stringSetting(config.settings, 'signing_secret');
    if (secret) headers[SIGNATURE_HEADER] = signWebhook(secret, Math.floor(this.now() / 1000), body);

    const outcome = await exchange.http({ method, url: url.toString(), headers, ...(hasBody ? { text: body } : {}) });
    if (isSuccess(outcome)) return exchange.delivered();
    return exchange.failedFrom(outcome, (responseBody) =>
      typeof responseBody === 'string' && responseBody ? { reason: responseBody.slice(0, 200) } : {},
    );
  }
}
