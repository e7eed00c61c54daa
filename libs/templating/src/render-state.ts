import type { Context, Liquid, Template } from 'liquidjs';
import { TemplateFailure } from './errors';
import type { TemplateLimits } from './limits';
import type { EmailLayout, TemplateResources } from './types';

/**
 * Per-render state shared by the engine's tags and filters, partials included. It travels in the
 * liquidjs globals under a symbol key, which no template expression can name.
 */
export interface RenderState {
  readonly limits: TemplateLimits;
  readonly resources: TemplateResources | undefined;
  /** Locale of the context (explicit, else the recipient's), or null. */
  readonly locale: string | null;
  /** The engine's parser for translation strings and partial sources, with its own cache. */
  readonly parse: (liquid: Liquid, source: string) => Template[];
  /** The unescaped engine: translation strings interpolated by the `t` filter render with it. */
  readonly textLiquid: Liquid;
  loopIterations: number;
  partialDepth: number;
  readonly cache: Map<string, Promise<unknown>>;
}

const STATE = Symbol('templating.state');

export function stateGlobals(state: RenderState): object {
  return { [STATE]: state };
}

export function stateOf(ctx: Context): RenderState {
  const state = (ctx.globals as Record<symbol, RenderState | undefined>)[STATE];
  if (!state) throw new TemplateFailure('template_render', 'template rendered outside of the engine');
  return state;
}

export function maybeStateOf(ctx: Context): RenderState | undefined {
  return (ctx.globals as Record<symbol, RenderState | undefined> | undefined)?.[STATE];
}

/**
 * Loads a resource once per render. A resource that fails (database down, ...) is not a template
 * error: it is reported as `template_resource` so the caller can retry.
 */
export function loadOnce<T>(state: RenderState, cacheKey: string, what: string, load: () => Promise<T>): Promise<T> {
  let pending = state.cache.get(cacheKey) as Promise<T> | undefined;
  if (!pending) {
    pending = Promise.resolve()
      .then(load)
      .catch((error: unknown) => {
        const reason = error instanceof Error ? error.message : String(error);
        throw new TemplateFailure('template_resource', `loading ${what} failed: ${reason}`);
      });
    state.cache.set(cacheKey, pending);
  }
  return pending;
}

export async function loadLayout(state: RenderState, key: string): Promise<EmailLayout> {
  const resources = state.resources;
  const layout = resources?.layout
    ? await loadOnce(state, `layout:${key}`, `email layout "${key}"`, () => resources.layout!(key))
    : undefined;
  if (!layout) throw new TemplateFailure('template_missing_layout', `email layout "${key}" not found`);
  return layout;
}
