/** The variables a template can read. Knock's names, so that Knock templates render unchanged. */
export interface TemplateContext {
  recipient: Record<string, unknown> | null;
  actor: Record<string, unknown> | null;
  tenant: Record<string, unknown> | null;
  data: Record<string, unknown>;
  vars: Record<string, unknown>;
  workflow: { key: string; categories?: string[]; [k: string]: unknown } | null;
  /** Batch state; when absent they default to the length of `activities` / `actors`. */
  total_activities?: number;
  total_actors?: number;
  activities?: unknown[];
  actors?: unknown[];
  /** Default to `recipient.timezone` / `recipient.locale`. */
  timezone?: string | null;
  locale?: string | null;
  /** ISO-8601 time of the activity. The engine never reads the clock for it: the caller passes it. */
  timestamp?: string | null;
  /** The message being rendered (`id`, `inserted_at`, `updated_at`), when there is one. */
  current_message?: Record<string, unknown> | null;
  /** A signed link to the recipient's hosted preference page, when the service can make one (ADR 0190). */
  preferences_url?: string | null;
}

export type PartialType = 'html' | 'text' | 'markdown' | 'json';

export interface EmailLayout {
  html_layout: string;
  text_layout: string;
  footer_links?: { text: string; url: string }[];
}

/**
 * Everything a template can look up by key. The caller preloads or resolves lazily; the engine
 * caches each answer for the duration of one render. Per-tenant translations or partials are the
 * caller's choice: answer with the tenant's version when there is one.
 */
export interface TemplateResources {
  partial(key: string): Promise<{ content: string; type?: PartialType } | undefined>;
  layout?(key: string): Promise<EmailLayout | undefined>;
  /** The translation object (nested key -> string) of one locale and optional namespace. */
  translation?(locale: string, namespace?: string): Promise<Record<string, unknown> | undefined>;
  /** Knock's dynamic data filters (`user`, `object`, `tenant`, `subscriptions`). */
  user?(id: string): Promise<Record<string, unknown> | undefined>;
  object?(collection: string, id: string): Promise<Record<string, unknown> | undefined>;
  tenant?(id: string): Promise<Record<string, unknown> | undefined>;
  subscriptions?(userId: string): Promise<Record<string, unknown>[]>;
}

export type TemplateErrorCode =
  | 'template_syntax'
  | 'template_render'
  | 'template_limit'
  | 'template_missing_partial'
  | 'template_missing_layout'
  | 'template_missing_translation'
  | 'template_resource';

export interface TemplateError {
  code: TemplateErrorCode | string;
  message: string;
  line?: number;
  column?: number;
  /** Set when the error is inside a partial: `line`/`column` are then positions in that partial. */
  partial?: string;
  /** Which part failed, where there are several (`subject`, `html_body`, `html_layout`, a translation key, ...). */
  field?: string;
}

export type RenderResult = { ok: true; output: string } | { ok: false; error: TemplateError };

export type EmailRenderResult = { ok: true; subject: string; html: string; text: string } | { ok: false; error: TemplateError };

export interface EmailRenderInput {
  layoutKey?: string | null;
  html: string;
  /** When absent or empty, the text body is derived from the rendered HTML body. */
  text?: string | null;
  subject: string;
  /** Knock's "pre-content": rendered first, its output dropped, its `assign`s visible to body and layout. */
  precontent?: string | null;
}

export type EscapeMode = 'html' | 'none';

export interface RenderOptions {
  /** `html` escapes every `{{ }}` output (use `| raw` to opt out); `none` for text, SMS, push, chat. */
  escape?: EscapeMode;
}

/**
 * What renders templates at send time: the in-process `TemplateEngine`, or `IsolatedRenderer`,
 * which runs the same engine on worker threads under a hard time limit.
 */
export interface TemplateRenderer {
  render(source: string, context: TemplateContext, resources?: TemplateResources, options?: RenderOptions): Promise<RenderResult>;
  renderEmail(input: EmailRenderInput, context: TemplateContext, resources?: TemplateResources): Promise<EmailRenderResult>;
}
