import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { PreferenceSetT } from '@notify/contracts';
import { emptyPreferenceSet, layerPreferenceSets } from '@notify/domain';
import { PreferenceQueries } from '@notify/projections/preferences';
import { TenantQueries } from '@notify/projections/tenants';
import { RecipientExistence } from '../../recipients/recipient-exists';
import { GetPreferenceSetQuery } from './get-preference-set.query';

@QueryHandler(GetPreferenceSetQuery)
export class GetPreferenceSetHandler implements IQueryHandler<GetPreferenceSetQuery> {
  constructor(
    private readonly preferences: PreferenceQueries,
    private readonly tenants: TenantQueries,
    private readonly existence: RecipientExistence,
  ) {}

  async execute({ environment, recipient, preferenceSetId, tenant }: GetPreferenceSetQuery): Promise<PreferenceSetT> {
    await this.existence.assert(environment, recipient);
    const own = await this.preferences.get(environment, recipient, preferenceSetId);
    if (!tenant) return { id: preferenceSetId, ...(own ?? emptyPreferenceSet()) };
    // In a tenant: the tenant's default, then this set, then the recipient's set for the tenant
    // (a preference set whose id is the tenant id).
    const inTenant = preferenceSetId === 'default' ? await this.preferences.get(environment, recipient, tenant) : undefined;
    const tenantDefault = await this.tenants.defaultPreferenceSet(environment, tenant);
    return { id: preferenceSetId, ...layerPreferenceSets([tenantDefault, own, inTenant]) };
  }
}
