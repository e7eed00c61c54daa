import { Injectable } from '@nestjs/common';
import { templateResourcesFor } from '@notify/application';
import { isSealed, REDACTED } from '@notify/contracts';
import { ConfigResourceQueries } from '@notify/projections/config-resources';
import { UserQueries } from '@notify/projections/users';
import { VariableQueries } from '@notify/projections/variables';
import { TemplateContext, TemplateResources } from '@notify/templating';

type Ref = string | { id: string; collection: string };

export interface Audience {
  recipient: Ref;
  actor?: Ref | null;
  tenant?: string | null;
  data?: Record<string, unknown>;
  workflow?: { key: string; categories?: string[] | null } | null;
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
    const vars = Object.fromEntries(
      Object.entries(await this.variables.valuesFor(environment)).map(([k, v]) => [k, isSealed(v) ? REDACTED : v]),
    );
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
    return templateResourcesFor(this.resources, this.users, environment, tenant);
  }

  private async recipient(environment: string, ref: Ref): Promise<Record<string, unknown>> {
    if (typeof ref !== 'string') return { id: ref.id, collection: ref.collection };
    return ((await this.users.get(environment, ref)) as Record<string, unknown> | undefined) ?? { id: ref };
  }
}
