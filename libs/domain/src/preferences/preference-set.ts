import type { PreferenceSetDataT, PreferenceSetRequestT } from '@notify/contracts';
import { sameJson } from '../shared/same-json';

export type PreferenceSetData = PreferenceSetDataT;
export type PreferenceSetRequest = PreferenceSetRequestT;
export type PersistenceStrategy = 'merge' | 'replace';

const KEYED = ['categories', 'workflows', 'channels', 'channel_types'] as const;
const FIELDS = ['categories', 'channel_types', 'channels', 'commercial_subscribed', 'workflows'] as const;

export const emptyPreferenceSet = (): PreferenceSetData => ({
  categories: null,
  channel_types: null,
  channels: null,
  commercial_subscribed: null,
  workflows: null,
});

/**
 * Applies a request to a stored set. `replace` makes the set exactly what was sent (absent
 * fields become null); `merge` keeps what was not sent and merges keyed fields key by key
 * (a key sent replaces that key's setting whole; a field sent as null is cleared).
 */
export function applyPreferenceSetRequest(
  current: PreferenceSetData | undefined,
  request: PreferenceSetRequest,
  fallback: PersistenceStrategy,
): PreferenceSetData {
  const strategy = request.__persistence_strategy__ ?? fallback;
  if (strategy === 'replace' || !current) {
    const next = emptyPreferenceSet();
    for (const field of FIELDS) if (request[field] !== undefined) (next as Record<string, unknown>)[field] = request[field];
    return next;
  }
  const next: PreferenceSetData = { ...current };
  for (const field of FIELDS) {
    const value = request[field];
    if (value === undefined) continue;
    if (value !== null && (KEYED as readonly string[]).includes(field)) {
      (next as Record<string, unknown>)[field] = {
        ...((current[field] as Record<string, unknown> | null) ?? {}),
        ...(value as Record<string, unknown>),
      };
    } else {
      (next as Record<string, unknown>)[field] = value;
    }
  }
  return next;
}

/**
 * Layers preference sets, least specific first (environment default, tenant default,
 * recipient default, recipient in the tenant). A more specific layer overrides a less specific
 * one setting by setting: per workflow, per category, per channel type, per channel, and
 * commercial_subscribed. A null or absent field inherits from the layers below.
 */
export function layerPreferenceSets(layers: readonly (PreferenceSetData | null | undefined)[]): PreferenceSetData {
  const out = emptyPreferenceSet();
  for (const layer of layers) {
    if (!layer) continue;
    for (const field of FIELDS) {
      const value = layer[field];
      if (value === null || value === undefined) continue;
      if ((KEYED as readonly string[]).includes(field)) {
        (out as Record<string, unknown>)[field] = {
          ...((out[field] as Record<string, unknown> | null) ?? {}),
          ...(value as Record<string, unknown>),
        };
      } else {
        (out as Record<string, unknown>)[field] = value;
      }
    }
  }
  return out;
}

export const samePreferenceSet = (a: PreferenceSetData | undefined, b: PreferenceSetData | undefined) => sameJson(a ?? null, b ?? null);
