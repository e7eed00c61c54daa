import {
  Tag,
  TypeGuards,
  type Context,
  type Emitter,
  type Liquid,
  type Parser,
  type TagToken,
  type Template,
  type TopLevelToken,
} from 'liquidjs';
import { TemplateFailure, toTemplateError } from '../errors';
import { stateOf } from '../render-state';
import { findTranslation } from '../translations';

/**
 * `{% t %}Default text, {{ recipient.name }}{% endt %}`: the text between the tags is its own
 * translation key. When the recipient's locale chain has a translation for it, that translation
 * renders in place (same scope, same escaping); otherwise the default text renders.
 */
export class TranslateTag extends Tag {
  private readonly templates: Template[] = [];
  private readonly key: string;

  constructor(token: TagToken, remainTokens: TopLevelToken[], liquid: Liquid, parser: Parser) {
    super(token, remainTokens, liquid);
    let end: TagToken | undefined;
    while (remainTokens.length) {
      const next = remainTokens.shift()!;
      if (TypeGuards.isTagToken(next) && next.name === 'endt') {
        end = next;
        break;
      }
      this.templates.push(parser.parseToken(next, remainTokens));
    }
    if (!end) throw new Error(`tag ${token.getText()} not closed`);
    this.key = token.input.slice(token.end, end.begin).trim();
  }

  *render(ctx: Context, emitter: Emitter): Generator<unknown, void, unknown> {
    const state = stateOf(ctx);
    const translated = (yield findTranslation(state, this.key)) as string | undefined;
    let templates = this.templates;
    if (translated !== undefined) {
      try {
        templates = state.parse(this.liquid, translated);
      } catch (error) {
        throw new TemplateFailure(
          'template_render',
          `translation "${this.key}" is not a valid template: ${toTemplateError(error).message}`,
        );
      }
    }
    yield this.liquid.renderer.renderTemplates(templates, ctx, emitter);
  }
}
