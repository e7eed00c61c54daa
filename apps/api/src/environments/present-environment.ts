import { EnvironmentT } from '@notify/contracts';
import { EnvironmentRecord } from '@notify/projections/environments';

/** The management API's view of an environment (`label_color` and PII hiding are not kept here). */
export function presentEnvironment(environment: EnvironmentRecord, lastCommitAt: Date | null): EnvironmentT {
  return {
    slug: environment.slug,
    name: environment.name,
    order: environment.order,
    owner: environment.owner,
    created_at: environment.createdAt.toISOString(),
    updated_at: environment.updatedAt.toISOString(),
    last_commit_at: lastCommitAt?.toISOString() ?? null,
    deleted_at: null,
    hide_pii_data: false,
    label_color: null,
  };
}
