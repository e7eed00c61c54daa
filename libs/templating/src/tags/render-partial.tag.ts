import {
  Hash,
  LiquidError,
  Tag,
  evalToken,
  type Context,
  type Emitter,
  type Liquid,
  type Parser,
  type TagToken,
  type TopLevelToken,
  type ValueToken,
} from 'liquidjs';
import { TemplateFailure, tagPartial } from '../errors';
import { loadOnce, stateOf, type RenderState } from '../render-state';
import { toOutputString } from '../safe-html';

/**
 * `{% render "partial_key", name: value, ... %}` as Knock has it: the partial is looked up by key
 * through `TemplateResources` (never a file), sees only the parameters it is given, and may render
 * other partials up to `maxPartialDepth` levels. Knock's render takes no `with`/`for` modifiers.
 */
export class RenderPartialTag extends Tag {
  private readonly key: ValueToken;
  private readonly params: Hash;

  constructor(token: TagToken, remainTokens: TopLevelToken[], liquid: Liquid, _parser: Parser) {
    super(token, remainTokens, liquid);
    const key = this.tokenizer.readValue();
    if (!key) throw new Error('render needs a partial key, as in {% render "partial_key" %}');
    this.key = key;
    this.params = new Hash(this.tokenizer, liquid.options.keyValueSeparator);
    this.tokenizer.skipBlank();
    const bare = Object.entries(this.params.hash).find(([, value]) => value === undefined);
    if (bare || !this.tokenizer.end()) {
      throw new Error('render takes parameters as name: value pairs (the with and for modifiers are not supported)');
    }
  }

  *render(ctx: Context, emitter: Emitter): Generator<unknown, void, unknown> {
    const state = stateOf(ctx);
    const key = toOutputString(yield evalToken(this.key, ctx)).trim();
    if (!key) throw new TemplateFailure('template_render', 'render was given an empty partial key');
    if (state.partialDepth >= state.limits.maxPartialDepth) {
      throw new TemplateFailure(
        'template_limit',
        `partials are nested deeper than ${state.limits.maxPartialDepth} levels (does "${key}" render itself?)`,
      );
    }
    const content = (yield loadPartial(state, key)) as string;
    const templates = parsePartial(state, this.liquid, key, content);
    const params = (yield this.params.render(ctx)) as Record<string, unknown>;
    state.partialDepth++;
    try {
      yield this.liquid.renderer.renderTemplates(templates, ctx.spawn(params), emitter);
    } catch (error) {
      throw tagPartial(error, key);
    } finally {
      state.partialDepth--;
    }
  }
}

/** Syntax errors keep their position in the partial; others (size) are reported at the render tag. */
function parsePartial(state: RenderState, liquid: Liquid, key: string, content: string) {
  try {
    return state.parse(liquid, content);
  } catch (error) {
    if (LiquidError.is(error)) throw tagPartial(error, key);
    if (error instanceof TemplateFailure) throw new TemplateFailure(error.code, `partial "${key}": ${error.message}`);
    throw error;
  }
}

async function loadPartial(state: RenderState, key: string): Promise<string> {
  const resources = state.resources;
  const partial = resources ? await loadOnce(state, `partial:${key}`, `partial "${key}"`, () => resources.partial(key)) : undefined;
  if (!partial || typeof partial.content !== 'string') throw new TemplateFailure('template_missing_partial', `partial "${key}" not found`);
  return partial.content;
}
