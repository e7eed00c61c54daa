import { invalidParams, ResourceType } from '@notify/domain';
import { ResourceIds, translationIdentifier } from './resource-kinds';

/** The identity of a resource from its route: a key, or for translations locale, namespace and tenant. */
export function resourceIds(type: ResourceType, key: string, query: { namespace?: string; tenant?: string } = {}): ResourceIds {
  if (type === 'translation')
    return {
      identifier: translationIdentifier(key, query.namespace, query.tenant),
      key,
      locale_code: key,
      namespace: query.namespace,
      tenant: query.tenant,
    };
  return { identifier: key, key };
}

/** A body that names its resource must name the one in the path. */
export function assertSameKey(wrapper: string, ids: ResourceIds, body: Record<string, unknown>): void {
  const named = body.key ?? body.locale_code;
  if (named !== undefined && named !== ids.key)
    throw invalidParams([
      {
        field: `${wrapper}.${body.key !== undefined ? 'key' : 'locale_code'}`,
        message: `does not match the path (${ids.key})`,
        type: 'mismatch',
      },
    ]);
}
