import type { TenantBrandingT } from '@notify/contracts';
import type { PreferenceSetRequest } from '../preferences/preference-set';

export type TenantCommand =
  | {
      type: 'SetTenant';
      tenantId: string;
      /** `name` and custom properties; null removes one. */
      properties: Record<string, unknown>;
      /** Absent: settings unchanged. A key given as null clears that setting. */
      settings?: { branding?: TenantBrandingT | null; preference_set?: PreferenceSetRequest | null } | null;
      now: string;
    }
  | { type: 'DeleteTenant'; tenantId: string; now: string };
