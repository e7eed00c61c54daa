import { TemplateFailure } from './errors';
import { canonicalLocale } from './filters/intl';
import { loadOnce, type RenderState } from './render-state';

/**
 * Knock's translation lookup: `"namespace:path.to.key"`, tried in the locale's region form, then
 * its language, then the default locale (`fr-CA` -> `fr` -> `en`), key by key. A value that is an
 * object with `zero`/`one`/`other` (or any CLDR plural category) is chosen by `count`.
 */
export function localeChain(locale: string | null | undefined, defaultLocale: string): string[] {
  const chain: string[] = [];
  const add = (l: string | undefined) => {
    if (l && !chain.includes(l)) chain.push(l);
  };
  const canonical = canonicalLocale(locale);
  add(canonical);
  add(canonical?.split('-')[0]);
  add(canonicalLocale(defaultLocale) ?? defaultLocale);
  add((canonicalLocale(defaultLocale) ?? defaultLocale).split('-')[0]);
  return chain;
}

export function splitTranslationKey(raw: string): { namespace?: string; key: string } {
  const colon = raw.indexOf(':');
  if (colon <= 0) return { key: raw };
  return { namespace: raw.slice(0, colon), key: raw.slice(colon + 1) };
}

function lookupPath(table: Record<string, unknown>, key: string): unknown {
  if (Object.prototype.hasOwnProperty.call(table, key)) return table[key];
  let node: unknown = table;
  for (const part of key.split('.')) {
    if (!node || typeof node !== 'object' || !Object.prototype.hasOwnProperty.call(node, part)) return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  return node;
}

function pluralForm(entry: Record<string, unknown>, count: unknown, locale: string): unknown {
  const n = typeof count === 'number' ? count : Number(count);
  if (!Number.isFinite(n)) return entry.other;
  if (n === 0 && typeof entry.zero === 'string') return entry.zero;
  let category: string = n === 1 ? 'one' : 'other';
  try {
    category = new Intl.PluralRules(locale).select(n);
  } catch {
    // an unknown locale keeps the English rule
  }
  return typeof entry[category] === 'string' ? entry[category] : entry.other;
}

async function table(state: RenderState, locale: string, namespace: string | undefined) {
  const load = state.resources?.translation;
  if (!load) return undefined;
  const what = `translations for ${locale}${namespace ? `:${namespace}` : ''}`;
  const found = await loadOnce(state, `translation:${locale}:${namespace ?? ''}`, what, () =>
    load.call(state.resources, locale, namespace),
  );
  return found && typeof found === 'object' ? found : undefined;
}

/** The translation string for a key, or undefined when no locale of the chain has it. */
export async function findTranslation(state: RenderState, rawKey: string, count?: unknown): Promise<string | undefined> {
  const { namespace, key } = splitTranslationKey(rawKey);
  for (const locale of localeChain(state.locale, state.limits.defaultLocale)) {
    const entries = await table(state, locale, namespace);
    if (!entries) continue;
    let value = lookupPath(entries, key);
    if (value && typeof value === 'object' && count !== undefined) value = pluralForm(value as Record<string, unknown>, count, locale);
    if (typeof value === 'string') return value;
    if (value !== undefined && value !== null) {
      throw new TemplateFailure(
        'template_render',
        `translation "${rawKey}" in ${locale} is not a string${count === undefined ? ' (pass count: for plural forms)' : ''}`,
      );
    }
  }
  return undefined;
}

export async function requireTranslation(state: RenderState, rawKey: string, count?: unknown): Promise<string> {
  const found = await findTranslation(state, rawKey, count);
  if (found === undefined) {
    const tried = localeChain(state.locale, state.limits.defaultLocale).join(', ');
    throw new TemplateFailure('template_missing_translation', `no translation for "${rawKey}" (locales tried: ${tried})`);
  }
  return found;
}
