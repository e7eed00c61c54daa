/** The channel kinds a provider can deliver over; `http` is the webhook channel. */
export type ChannelType = 'in_app_feed' | 'email' | 'sms' | 'push' | 'chat' | 'http';

/** How one channel is set up in one environment, as handed to a provider. */
export interface ProviderConfig {
  provider: string;
  channelType: ChannelType;
  /** provider_settings (secrets included) and channel_settings, merged. */
  settings: Record<string, unknown>;
  /** Replaces the provider's public API origin (tests point it at local peers; also for proxies and regions). */
  baseUrl?: string;
  /** Per-request timeout; falls back to `settings.timeout_ms`, then 10 s. */
  timeoutMs?: number;
  /**
   * This service's delivery receipts endpoint for the channel and provider
   * (`<PUBLIC_URL>/v1/receipts/<environment>/<channel key>/<provider>`, ADR 0203), when the
   * service has a PUBLIC_URL: where a provider that takes a callback URL per message reports.
   */
  receiptsUrl?: string;
}

export interface EmailContent {
  type: 'email';
  subject: string;
  html_body?: string | null;
  text_body?: string | null;
  /** Overrides the provider's configured sender. */
  from?: string | null;
  reply_to?: string | null;
  cc?: string | string[] | null;
  bcc?: string | string[] | null;
  headers?: Record<string, string> | null;
}

export interface SmsContent {
  type: 'sms';
  body: string;
}

export interface PushContent {
  type: 'push';
  title: string;
  body: string;
  /** Custom key/values delivered to the app; FCM receives them as strings. */
  data?: Record<string, unknown> | null;
  /** A data-only (background) notification: no title or body is shown. */
  silent?: boolean;
}

export interface ChatContent {
  type: 'chat';
  markdown_body?: string | null;
  summary?: string | null;
  /** A full provider payload (e.g. Slack `blocks`); the provider adds the addressing fields. */
  json_body?: Record<string, unknown> | null;
}

export type WebhookMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface WebhookContent {
  type: 'http';
  method: WebhookMethod | Lowercase<WebhookMethod>;
  url: string;
  headers?: Record<string, string> | null;
  query_params?: Record<string, string> | null;
  /** A string is sent as it is; anything else as JSON. Ignored for GET and DELETE. */
  body?: unknown;
}

export interface InAppContent {
  type: 'in_app_feed';
  blocks: unknown[];
  data?: Record<string, unknown> | null;
}

export type DeliveryContent = EmailContent | SmsContent | PushContent | ChatContent | WebhookContent | InAppContent;

export interface DeliveryRecipient {
  id: string;
  email?: string | null;
  phone_number?: string | null;
  name?: string | null;
  [key: string]: unknown;
}

export interface DeliveryRequest {
  messageId: string;
  environment: string;
  /** 1-based. */
  attempt: number;
  /** Stable per message: the same on every attempt, so a provider that takes one deduplicates retries. */
  idempotencyKey: string;
  recipient: DeliveryRecipient;
  /** Tokens, devices or connections for push and chat. */
  channelData?: Record<string, unknown> | null;
  /** Rendered already. */
  content: DeliveryContent;
}

/** One exchange with a provider, secrets redacted. SMTP exchanges use method `SMTP`. */
export interface DeliveryLogEntry {
  request: { method: string; url: string; headers: Record<string, string>; body: unknown };
  response?: { status: number; headers: Record<string, string>; body: unknown };
  error?: string;
  duration_ms: number;
}

/** The fate of one device or connection when a message fans out to several. */
export interface DeliveryTargetResult {
  /** e.g. `token:<device token>` or `channel:<slack channel id>`. */
  target: string;
  outcome: 'sent' | 'failed';
  providerMessageId?: string;
  retryable?: boolean;
  reason?: string;
  code?: string;
}

export interface DeliverySuccess {
  /** In-app and webhook: `delivered`; the other channels: `sent` (handed to the provider). */
  outcome: 'delivered' | 'sent';
  providerMessageId?: string;
  /** Present when the message went to several targets; some of them may have failed. */
  targets?: DeliveryTargetResult[];
  /** Push tokens the provider reported as no longer valid; the caller may remove them from channel data. */
  invalidTokens?: string[];
  logs: DeliveryLogEntry[];
}

export interface DeliveryFailure {
  outcome: 'failed';
  retryable: boolean;
  reason: string;
  /** Stable, machine-readable: see README.md (`http_429`, `timeout`, `missing_recipient_email`, ...). */
  code?: string;
  /** The provider's Retry-After, when it gave one. */
  retryAfterMs?: number;
  /**
   * A hard bounce reported synchronously: the recipient's mail server refused the address
   * (SMTP 550, 551 or 553 in reply to RCPT TO). Bounces reported later (provider webhooks,
   * non-delivery reports) never reach `send()`.
   */
  bounced?: boolean;
  targets?: DeliveryTargetResult[];
  invalidTokens?: string[];
  logs: DeliveryLogEntry[];
}

export type DeliveryResult = DeliverySuccess | DeliveryFailure;

export interface DeliveryProvider {
  readonly id: string;
  readonly channelType: ChannelType;
  /** Never throws: every failure is a `failed` result, classified as retryable or permanent. */
  send(request: DeliveryRequest, config: ProviderConfig, signal?: AbortSignal): Promise<DeliveryResult>;
  /** Problems with the settings, as readable sentences; empty when they are usable. */
  validateSettings?(settings: Record<string, unknown>): string[];
  /** The same problems by setting path (`api_key`, `auth.pass`; empty when the provider cannot say which). */
  settingsIssues?(settings: Record<string, unknown>): { field: string; message: string }[];
}
