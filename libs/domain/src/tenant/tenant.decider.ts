import { applyPreferenceSetRequest, PreferenceSetData } from '../preferences/preference-set';
import { assertNever, Decider } from '../shared/decider';
import { changedProperties, mergeProperties } from '../user/user.decider';
import { TenantCommand } from './tenant.commands';
import { TenantEvent } from './tenant.events';
import { sameJson } from '../shared/same-json';

export interface TenantSettings {
  branding: Record<string, unknown> | null;
  preference_set: Record<string, unknown> | null;
}

export interface TenantState {
  exists: boolean;
  properties: Record<string, unknown>;
  settings: TenantSettings;
}

const initialState = (): TenantState => ({ exists: false, properties: {}, settings: { branding: null, preference_set: null } });

export const tenantDecider: Decider<TenantState, TenantCommand, TenantEvent> = {
  initialState,

  evolve(state, event) {
    switch (event.type) {
      case 'TenantSet':
        return {
          exists: true,
          properties: mergeProperties(state.exists ? state.properties : {}, event.data.properties),
          settings: event.data.settings ?? state.settings,
        };
      case 'TenantDeleted':
        return initialState();
      default:
        return assertNever(event);
    }
  },

  decide(command, state) {
    switch (command.type) {
      case 'SetTenant': {
        const changed = changedProperties(state.properties, command.properties);
        let settings: TenantSettings | undefined;
        if (command.settings !== undefined) {
          const given = command.settings ?? { branding: null, preference_set: null };
          const next: TenantSettings = { ...state.settings };
          if (given.branding !== undefined) next.branding = given.branding;
          if (given.preference_set !== undefined) {
            next.preference_set =
              given.preference_set === null
                ? null
                : applyPreferenceSetRequest(
                    (state.settings.preference_set as PreferenceSetData | null) ?? undefined,
                    given.preference_set,
                    'replace',
                  );
          }
          if (!sameJson(next, state.settings)) settings = next;
        }
        if (state.exists && Object.keys(changed).length === 0 && !settings) return [];
        return [
          {
            type: 'TenantSet',
            data: { tenant_id: command.tenantId, properties: changed, ...(settings ? { settings } : {}), set_at: command.now },
          },
        ];
      }
      case 'DeleteTenant':
        if (!state.exists) return [];
        return [{ type: 'TenantDeleted', data: { tenant_id: command.tenantId, deleted_at: command.now } }];
      default:
        return assertNever(command);
    }
  },
};
