import { flattenMessages, parsePo } from '@notify/contracts';
import { ConfigResourceQueries } from '@notify/projections/config-resources';
import { UserQueries } from '@notify/projections/users';
import { TemplateResources } from '@notify/templating';

/** Translations are stored per `<locale>[/<namespace>][@<tenant>]`. */
export const translationIdentifier = (locale: string, namespace?: string, tenant?: string) =>
  `${locale}${namespace ? `/${namespace}` : ''}${tenant ? `@${tenant}` : ''}`;

/** `a.b` keys back into nested objects, the shape the `t` filter reads. */
function nest(flat: Record<string, string>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(flat)) {
    const parts = key.split('.');
    let node = out;
    for (const part of parts.slice(0, -1))
      node = (node[part] = typeof node[part] === 'object' && node[part] ? node[part] : {}) as Record<string, unknown>;
    node[parts[parts.length - 1]] = value;
  }
  return out;
}

/**
 * Partials, layouts and translations (the tenant's first) of one environment, as templates
 * resolve them at render time. Used by previews and by the engine, so both render alike.
 */
export function templateResourcesFor(
  resources: ConfigResourceQueries,
  users: UserQueries,
  environment: string,
  tenant?: string | null,
): TemplateResources {
  return {
    partial: async (key) => {
      const p = await resources.get(environment, 'partial', key);
      return p && { content: p.content.content as string, type: p.content.type as 'html' | 'text' | 'markdown' | 'json' };
    },
    layout: async (key) => {
      const l = await resources.get(environment, 'email_layout', key);
      return l && (l.content as { html_layout: string; text_layout: string; footer_links?: { text: string; url: string }[] });
    },
    translation: async (locale, namespace) => {
      const found =
        (tenant && (await resources.get(environment, 'translation', translationIdentifier(locale, namespace, tenant)))) ||
        (await resources.get(environment, 'translation', translationIdentifier(locale, namespace)));
      if (!found) return undefined;
      const { format, content } = found.content as { format: 'json' | 'po'; content: string };
      return format === 'po' ? nest(parsePo(content).messages) : nest(flattenMessages(JSON.parse(content)));
    },
    user: async (id) => (await users.get(environment, id)) as Record<string, unknown> | undefined,
  };
}
