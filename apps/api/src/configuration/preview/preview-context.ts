import { Injectable } from '@nestjs/common';
import { flattenMessages, isSealed, parsePo, REDACTED } from '@notify/contracts';
import { ConfigResourceQueries } from '@notify/projections/config-resources';
import { UserQueries } from '@notify/projections/users';
import { VariableQueries } from '@notify/projections/variables';
import { TemplateContext, TemplateResources } from '@notify/templating';
import { translationIdentifier } from '../shared/resource-kinds';

type Ref = string | { id: string; collection: string };

export interface Audience {
  recipient: Ref;
  actor?: Ref | null;
  tenant?: string | null;
  data?: Record<string, unknown>;
  workflow?: { key: string; categories?: string[] | null } | null;
}

/** `a.b` keys back into nested objects, the shape the `t` filter reads. */
function nest(flat: Record<string, string>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(flat)) {
    const parts = key.split('.');
    let node = out;
    for (const part of parts.slice(0, -1)) node = (node[part] = typeof node[part] === 'object' && node[part] ? node[part] : {}) as Record<string, unknown>;
    node[parts[parts.length - 1]] = value;
  }
  return out;
}

/**
 * What a preview renders with, from one environment's read models: users by id (objects and
 * tenants by reference only, their read models are not on this service yet), variables (secret
 * ones obfuscated), and partials, layouts and translations (the tenant's first).
 */
@Injectable()
export class PreviewContexts {
  constructor(
    private readonly users: UserQueries,
    private readonly variables: VariableQueries,
    private readonly resources: ConfigResourceQueries,
  ) {}

  async context(environment: string, audience: Audience): Promise<TemplateContext> {
    const vars = Object.fromEntries(Object.entries(await this.variables.valuesFor(environment)).map(([k, v]) => [k, isSealed(v) ? REDACTED : v]));
    return {
      recipient: await this.recipient(environment, audience.recipient),
      actor: audience.actor ? await this.recipient(environment, audience.actor) : null,
      tenant: audience.tenant ? { id: audience.tenant } : null,
      data: audience.data ?? {},
      vars,
      workflow: audience.workflow ? { key: audience.workflow.key, categories: audience.workflow.categories ?? [] } : null,
      timestamp: new Date().toISOString(),
    };
  }

  templateResources(environment: string, tenant?: string | null): TemplateResources {
    return {
      partial: async (key) => {
        const p = await this.resources.get(environment, 'partial', key);
        return p && { content: p.content.content as string, type: p.content.type as 'html' | 'text' | 'markdown' | 'json' };
      },
      layout: async (key) => {
        const l = await this.resources.get(environment, 'email_layout', key);
        return l && (l.content as { html_layout: string; text_layout: string; footer_links?: { text: string; url: string }[] });
      },
      translation: async (locale, namespace) => {
        const found =
          (tenant && (await this.resources.get(environment, 'translation', translationIdentifier(locale, namespace, tenant)))) ||
          (await this.resources.get(environment, 'translation', translationIdentifier(locale, namespace)));
        if (!found) return undefined;
        const { format, content } = found.content as { format: 'json' | 'po'; content: string };
        return format === 'po' ? nest(parsePo(content).messages) : nest(flattenMessages(JSON.parse(content)));
      },
      user: async (id) => (await this.users.get(environment, id)) as Record<string, unknown> | undefined,
    };
  }

  private async recipient(environment: string, ref: Ref): Promise<Record<string, unknown>> {
    if (typeof ref !== 'string') return { id: ref.id, collection: ref.collection };
    return ((await this.users.get(environment, ref)) as Record<string, unknown> | undefined) ?? { id: ref };
  }
}
