import { Context, Liquid, Output, TokenKind, toPromise, toValueSync, type Emitter, type Template } from 'liquidjs';
import { TemplateFailure, toTemplateError, toTemplateErrors } from './errors';
import { KNOCK_FILTERS } from './filters';
import { LimitedEmitter, guardFilters, installGuards } from './guards';
import { resolveLimits, type TemplateLimits } from './limits';
import { htmlToText } from './markdown';
import { IncludeTagDisabled, LayoutTagDisabled, NO_FILE_SYSTEM } from './no-file-system';
import { loadLayout, stateGlobals, type RenderState } from './render-state';
import { SafeHtml, escapeOutput } from './safe-html';
import { toScope } from './scope';
import { RenderPartialTag } from './tags/render-partial.tag';
import { TranslateTag } from './tags/translate.tag';
import type {
  EmailLayout,
  EmailRenderInput,
  EmailRenderResult,
  RenderOptions,
  RenderResult,
  TemplateContext,
  TemplateError,
  TemplateResources,
} from './types';

// Parsed templates are reused across renders; bounded by count and by total source size.
const PARSE_CACHE_ENTRIES = 500;
const PARSE_CACHE_CHARACTERS = 4_000_000;

/**
 * Filters whose work grows with their input alone (no loop of the template's making, no lookup, no
 * backtracking pattern): a template of text and outputs using only these does work in proportion
 * to its size and its data's, under the same limits, and can be rendered on the calling thread
 * (ADR 0191: `straightLine`). Left out on purpose: the data lookups and
 * `t` (resources), `from_markdown` (a parser), `strip_html` (a lazy-quantifier pattern), `intersect`
 * (quadratic), the collection sorters.
 */
const LINEAR_FILTERS = new Set([
  'abs',
  'append',
  'at_least',
  'at_most',
  'capitalize',
  'ceil',
  'currency',
  'date',
  'default',
  'divided_by',
  'downcase',
  'escape',
  'escape_once',
  'first',
  'floor',
  'format_date_in_locale',
  'format_datetime_in_locale',
  'format_number',
  'join',
  'json',
  'last',
  'lstrip',
  'minus',
  'modulo',
  'newline_to_br',
  'pluralize',
  'plus',
  'prepend',
  'remove',
  'remove_first',
  'replace',
  'replace_first',
  'round',
  'rounded_currency',
  'rstrip',
  'size',
  'slice',
  'split',
  'strip',
  'strip_newlines',
  'timezone',
  'times',
  'titlecase',
  'truncate',
  'truncatewords',
  'upcase',
  'url_decode',
  'url_encode',
]);
const STRAIGHT_LINE_MEMO = 2_000;
/** Values an output may name: variables, their properties, literals. A range (`(1..n)`) builds an array: not among them. */
const PLAIN_VALUES = new Set([TokenKind.PropertyAccess, TokenKind.Word, TokenKind.Quoted, TokenKind.Number, TokenKind.Literal]);

function plainValue(token: unknown): boolean {
  if (Array.isArray(token)) return plainValue(token[1]); // a keyword argument: [name, value]
  const t = token as { kind?: number; props?: unknown[] } | undefined;
  if (!t || t.kind === undefined || !PLAIN_VALUES.has(t.kind)) return false;
  return !t.props || t.props.every(plainValue);
}

function straightOutput(t: Template): boolean {
  if (!(t instanceof Output)) return false;
  const { initial, filters } = t.value;
  return initial.postfix.every(plainValue) && filters.every((f) => LINEAR_FILTERS.has(f.name) && f.args.every(plainValue));
}

function createLiquid(limits: TemplateLimits, options: { escapeHtml: boolean; collectErrors: boolean }): Liquid {
  const liquid = new Liquid({
    fs: NO_FILE_SYSTEM,
    root: [],
    partials: [],
    layouts: [],
    relativeReference: false,
    cache: false,
    strictFilters: true,
    strictVariables: false,
    ownPropertyOnly: true,
    timezoneOffset: 0,
    locale: 'en-US',
    outputEscape: options.escapeHtml ? escapeOutput : undefined,
    catchAllErrors: options.collectErrors,
    parseLimit: limits.maxTemplateSize,
    renderLimit: limits.renderTimeoutMs,
    memoryLimit: limits.maxMemory,
  });
  liquid.registerTag('include', IncludeTagDisabled);
  liquid.registerTag('layout', LayoutTagDisabled);
  liquid.registerTag('render', RenderPartialTag);
  liquid.registerTag('t', TranslateTag);
  for (const [name, filter] of Object.entries(KNOCK_FILTERS)) liquid.registerFilter(name, filter);
  installGuards(liquid);
  guardFilters(liquid);
  return liquid;
}

/**
 * Renders Knock-compatible Liquid templates. Pure: no file system, no database, no clock of its
 * own; partials, layouts and translations come from `TemplateResources`. Every failure, limits
 * included, comes back as a `TemplateError` value. One instance can serve concurrent renders.
 */
export class TemplateEngine {
  readonly limits: TemplateLimits;
  private readonly htmlLiquid: Liquid;
  private readonly textLiquid: Liquid;
  private readonly checker: Liquid;
  private readonly parsed = new Map<Liquid, { entries: Map<string, Template[]>; characters: number }>();

  constructor(options?: Partial<TemplateLimits>) {
    this.limits = resolveLimits(options);
    this.htmlLiquid = createLiquid(this.limits, { escapeHtml: true, collectErrors: false });
    this.textLiquid = createLiquid(this.limits, { escapeHtml: false, collectErrors: false });
    this.checker = createLiquid(this.limits, { escapeHtml: false, collectErrors: true });
  }

  private readonly straight = new Map<string, boolean>();

  /**
   * Whether a template is only text and outputs whose filters are all linear (no tag: no loop,
   * branch, partial, translation or assignment): its render does no work beyond its size and its
   * data's, so the isolated renderer need not hand it to a thread. False for anything else,
   * templates that do not parse included. Remembered per source (a bounded memo).
   */
  straightLine(source: string): boolean {
    const known = this.straight.get(source);
    if (known !== undefined) return known;
    let answer: boolean;
    try {
      answer = this.parse(this.textLiquid, source).every((t) => t.token.kind === TokenKind.HTML || straightOutput(t));
    } catch {
      answer = false;
    }
    if (this.straight.size >= STRAIGHT_LINE_MEMO) this.straight.delete(this.straight.keys().next().value as string);
    this.straight.set(source, answer);
    return answer;
  }

  /** Parse-time problems: syntax, unknown tags and filters, size. Empty when the template is valid. */
  validate(source: string): TemplateError[] {
    if (typeof source !== 'string') return [{ code: 'template_syntax', message: 'template must be a string' }];
    const tooBig = this.sizeError(source);
    if (tooBig) return [tooBig];
    try {
      this.checker.parse(source);
      return [];
    } catch (error) {
      return toTemplateErrors(error);
    }
  }

  /** A layout's two parts, each valid and each with `{{ content }}`; every error names its field. */
  validateLayout(layout: Pick<EmailLayout, 'html_layout' | 'text_layout'>): TemplateError[] {
    const errors: TemplateError[] = [];
    for (const field of ['html_layout', 'text_layout'] as const) {
      const source = layout[field];
      const found = this.validate(source).map((e) => ({ ...e, field }));
      if (!found.length && !/\{\{-?\s*content\s*(\|[^}]*)?-?\}\}/.test(source)) {
        found.push({ code: 'template_syntax', message: 'a layout must output {{ content }}', field });
      }
      errors.push(...found);
    }
    return errors;
  }

  /** Every string of a translation object must be a valid template; errors name the key. */
  validateTranslation(content: Record<string, unknown>): TemplateError[] {
    const errors: TemplateError[] = [];
    const walk = (node: unknown, path: string) => {
      if (typeof node === 'string') errors.push(...this.validate(node).map((e) => ({ ...e, field: path })));
      else if (node && typeof node === 'object' && !Array.isArray(node)) {
        for (const [key, child] of Object.entries(node)) walk(child, path ? `${path}.${key}` : key);
      } else errors.push({ code: 'template_syntax', message: 'translation values must be strings or objects', field: path });
    };
    walk(content, '');
    return errors;
  }

  async render(source: string, context: TemplateContext, resources?: TemplateResources, options?: RenderOptions): Promise<RenderResult> {
    const liquid = options?.escape === 'html' ? this.htmlLiquid : this.textLiquid;
    try {
      const state = this.newState(context, resources);
      const templates = this.parse(liquid, source);
      // A straight-line template renders synchronously (ADR 0283): its filters are all synchronous
      // and it waits for nothing, so liquidjs's generators run to the end in one go, without a
      // promise per node and without the deadline's timer. The same limits apply.
      const output = this.straightLine(source)
        ? this.renderToSync(liquid, templates, this.rootContext(liquid, context, state, true))
        : await this.withDeadline(this.renderTo(liquid, templates, this.rootContext(liquid, context, state)));
      return { ok: true, output };
    } catch (error) {
      return { ok: false, error: toTemplateError(error) };
    }
  }

  /**
   * An email: the HTML body (escaped) and the text body (derived from the HTML when absent), each
   * wrapped in its layout's `{{ content }}`, and the subject on one line. `precontent` runs before
   * the body and its `assign`s are visible to body and layout. One set of limits covers the whole email.
   */
  async renderEmail(input: EmailRenderInput, context: TemplateContext, resources?: TemplateResources): Promise<EmailRenderResult> {
    let field = 'subject';
    const at = (name: string) => (field = name);
    try {
      const state = this.newState(context, resources);
      return await this.withDeadline(
        (async (): Promise<EmailRenderResult> => {
          const html = this.htmlLiquid;
          const text = this.textLiquid;
          const root = this.rootContext(html, context, state);
          const scope = toScope(context);

          at('subject');
          const subject = await this.renderTo(text, this.parse(text, input.subject), root.spawn({ ...scope }));

          const htmlCtx = root.spawn({ ...scope });
          if (input.precontent) {
            at('precontent');
            await this.renderTo(html, this.parse(html, input.precontent), htmlCtx);
          }
          at('html_body');
          const htmlBody = await this.renderTo(html, this.parse(html, input.html), htmlCtx);

          const textCtx = root.spawn({ ...scope });
          if (input.precontent) await this.renderTo(text, this.parse(text, input.precontent), textCtx);
          at('text_body');
          const textBody = input.text ? await this.renderTo(text, this.parse(text, input.text), textCtx) : htmlToText(htmlBody);

          if (!input.layoutKey) return { ok: true, subject: oneLine(subject), html: htmlBody, text: textBody };

          at('layout');
          const layout = await loadLayout(state, input.layoutKey);
          const footer = layout.footer_links ?? [];
          at('html_layout');
          Object.assign(htmlCtx.bottom(), { content: new SafeHtml(htmlBody), footer_links: footer });
          const wrappedHtml = await this.renderTo(html, this.parse(html, layout.html_layout), htmlCtx);
          at('text_layout');
          Object.assign(textCtx.bottom(), { content: textBody, footer_links: footer });
          const wrappedText = await this.renderTo(text, this.parse(text, layout.text_layout), textCtx);
          return { ok: true, subject: oneLine(subject), html: wrappedHtml, text: wrappedText };
        })(),
      );
    } catch (error) {
      return { ok: false, error: { ...toTemplateError(error), field } };
    }
  }

  private newState(context: TemplateContext, resources: TemplateResources | undefined): RenderState {
    return {
      limits: this.limits,
      resources,
      locale: toScope(context).locale as string | null,
      parse: (liquid, source) => this.parse(liquid, source),
      textLiquid: this.textLiquid,
      loopIterations: 0,
      partialDepth: 0,
      cache: new Map(),
    };
  }

  private rootContext(liquid: Liquid, context: TemplateContext, state: RenderState, sync = false): Context {
    return new Context(toScope(context), liquid.options, { sync, globals: stateGlobals(state), ownPropertyOnly: true }, { liquid });
  }

  private async renderTo(liquid: Liquid, templates: Template[], ctx: Context): Promise<string> {
    const emitter: Emitter = new LimitedEmitter(this.limits.maxOutputSize);
    await toPromise(liquid.renderer.renderTemplates(templates, ctx, emitter));
    return emitter.buffer;
  }

  private renderToSync(liquid: Liquid, templates: Template[], ctx: Context): string {
    const emitter: Emitter = new LimitedEmitter(this.limits.maxOutputSize);
    toValueSync(liquid.renderer.renderTemplates(templates, ctx, emitter));
    return emitter.buffer;
  }

  private sizeError(source: string): TemplateError | undefined {
    if (source.length <= this.limits.maxTemplateSize) return undefined;
    return { code: 'template_limit', message: `template is larger than the limit of ${this.limits.maxTemplateSize} characters` };
  }

  /** Parses once per source and engine flavour (a small LRU); parse errors are thrown. */
  private parse(liquid: Liquid, source: string): Template[] {
    if (typeof source !== 'string') throw new TemplateFailure('template_syntax', 'template must be a string');
    let cache = this.parsed.get(liquid);
    if (!cache) this.parsed.set(liquid, (cache = { entries: new Map(), characters: 0 }));
    const hit = cache.entries.get(source);
    if (hit) {
      cache.entries.delete(source);
      cache.entries.set(source, hit);
      return hit;
    }
    const tooBig = this.sizeError(source);
    if (tooBig) throw new TemplateFailure('template_limit', tooBig.message);
    const templates = liquid.parse(source);
    cache.entries.set(source, templates);
    cache.characters += source.length;
    while (cache.entries.size > PARSE_CACHE_ENTRIES || cache.characters > PARSE_CACHE_CHARACTERS) {
      const oldest = cache.entries.keys().next().value as string;
      cache.entries.delete(oldest);
      cache.characters -= oldest.length;
    }
    return templates;
  }

  /** liquidjs checks its time limit between nodes; this also bounds a lookup that never answers. */
  private async withDeadline<T>(work: Promise<T>): Promise<T> {
    work.catch(() => undefined);
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new TemplateFailure('template_limit', 'render time limit exceeded')), this.limits.renderTimeoutMs);
      timer.unref();
    });
    try {
      return await Promise.race([work, deadline]);
    } finally {
      clearTimeout(timer);
    }
  }
}

/** Subjects are a header: line breaks in them would break (or inject into) the message. */
function oneLine(subject: string): string {
  return subject.replace(/\s*[\r\n]+\s*/g, ' ').trim();
}
