import { toPromise } from 'liquidjs';
import { TemplateFailure, toTemplateError } from '../errors';
import { stateOf } from '../render-state';
import { toOutputString } from '../safe-html';
import { requireTranslation } from '../translations';
import { splitArgs } from './args';
import type { Filter } from './filter-types';

/**
 * `{{ "namespace:some.key" | t: name: actor.name, count: n }}`. The translation string is itself
 * Liquid, rendered with only the given parameters in scope. Its result is text: in an HTML body it
 * is escaped like any other output (`| raw` trusts it, parameters included).
 */
export const t: Filter = async function (value, ...args) {
  const state = stateOf(this.context);
  const key = toOutputString(value).trim();
  if (!key) throw new TemplateFailure('template_render', 'the t filter needs a translation key');
  const { named } = splitArgs(this.token, args);
  const text = await requireTranslation(state, key, named.count);
  if (!text.includes('{{') && !text.includes('{%')) return text;
  let templates;
  try {
    templates = state.parse(state.textLiquid, text);
  } catch (error) {
    throw new TemplateFailure('template_render', `translation "${key}" is not a valid template: ${toTemplateError(error).message}`);
  }
  const scope = Object.assign(Object.create(null), named) as Record<string, unknown>;
  return toPromise(state.textLiquid.renderer.renderTemplates(templates, this.context.spawn(scope)));
};
