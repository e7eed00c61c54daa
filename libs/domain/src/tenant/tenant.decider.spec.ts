import { deciderSpec } from '@notify/testing/decider-spec';
import { emptyPreferenceSet } from '../preferences/preference-set';
import { tenantDecider } from './tenant.decider';

const now = '2026-01-01T00:00:00.000Z';
const tenantSet = (
  properties: Record<string, unknown>,
  settings?: { branding: Record<string, unknown> | null; preference_set: Record<string, unknown> | null },
) => ({ type: 'TenantSet' as const, data: { tenant_id: 'acme', properties, ...(settings ? { settings } : {}), set_at: now } });

describe('tenant decider', () => {
  const spec = deciderSpec(tenantDecider);

  it('sets name, custom properties and settings; a repeat changes nothing', () => {
    const branding = { primary_color: '#000' };
    spec
      .given([])
      .when({
        type: 'SetTenant',
        tenantId: 'acme',
        properties: { name: 'Acme', plan: 'pro' },
        settings: { branding, preference_set: { channel_types: { sms: false } } },
        now,
      })
      .then([
        tenantSet({ name: 'Acme', plan: 'pro' }, { branding, preference_set: { ...emptyPreferenceSet(), channel_types: { sms: false } } }),
      ]);
    spec
      .given([tenantSet({ name: 'Acme' }, { branding, preference_set: null })])
      .when({ type: 'SetTenant', tenantId: 'acme', properties: { name: 'Acme' }, settings: { branding }, now })
      .thenNothing();
  });

  it('keeps settings that are not sent, clears those sent as null', () => {
    const before = tenantSet(
      { name: 'Acme' },
      { branding: { primary_color: '#000' }, preference_set: { ...emptyPreferenceSet(), workflows: { w: false } } },
    );
    spec
      .given([before])
      .when({ type: 'SetTenant', tenantId: 'acme', properties: {}, settings: { branding: null }, now })
      .then([tenantSet({}, { branding: null, preference_set: { ...emptyPreferenceSet(), workflows: { w: false } } })]);
  });

  it('deletes once', () => {
    spec
      .given([tenantSet({})])
      .when({ type: 'DeleteTenant', tenantId: 'acme', now })
      .then([{ type: 'TenantDeleted', data: { tenant_id: 'acme', deleted_at: now } }]);
    spec.given([]).when({ type: 'DeleteTenant', tenantId: 'acme', now }).thenNothing();
  });
});
