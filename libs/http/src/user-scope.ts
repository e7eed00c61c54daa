import { UserScope } from '@notify/contracts';

interface ScopedRequest {
  params?: unknown;
  query?: unknown;
  body?: unknown;
}

/** The user ids a request names in the places its route's userScope lists (strings or lists of strings). */
export function scopedUserIds(scope: UserScope, request: ScopedRequest): string[] {
  if (scope === 'handler') return [];
  const ids: string[] = [];
  const collect = (source: unknown, fields: string[] | undefined) => {
    if (!fields || typeof source !== 'object' || source === null) return;
    for (const field of fields) {
      const value = (source as Record<string, unknown>)[field];
      if (typeof value === 'string') ids.push(value);
      else if (Array.isArray(value)) ids.push(...value.map((v) => (typeof v === 'string' ? v : JSON.stringify(v))));
      else if (value !== undefined && value !== null) ids.push(JSON.stringify(value));
    }
  };
  collect(request.params, scope.params);
  collect(request.query, scope.query);
  collect(request.body, scope.body);
  return ids;
}
