import { toValue } from 'liquidjs';
import { TemplateFailure } from '../errors';
import { loadOnce, stateOf, type RenderState } from '../render-state';
import type { TemplateResources } from '../types';
import type { Filter, FilterThis } from './filter-types';

/**
 * Knock's dynamic data filters load users, objects, tenants and subscriptions while rendering.
 * The engine has no database: the caller answers through `TemplateResources`. A missing entity is
 * nil (Knock's behaviour); a caller that gives no resolver makes the filter an error.
 */
const SUBSCRIPTIONS_MAX = 25;

function resolver<K extends 'user' | 'object' | 'tenant' | 'subscriptions'>(
  self: FilterThis,
  name: K,
): { state: RenderState; fn: NonNullable<TemplateResources[K]> } {
  const state = stateOf(self.context);
  const fn = state.resources?.[name];
  if (!fn) throw new TemplateFailure('template_render', `the ${name} filter is not available here (no ${name} lookup was provided)`);
  return { state, fn: fn.bind(state.resources) as NonNullable<TemplateResources[K]> };
}

function id(value: unknown): string | undefined {
  const v = toValue(value);
  if (typeof v === 'number') return String(v);
  return typeof v === 'string' && v !== '' ? v : undefined;
}

export const user: Filter = async function (value) {
  const { state, fn } = resolver(this, 'user');
  const userId = id(value);
  if (!userId) return null;
  return (await loadOnce(state, `user:${userId}`, `user "${userId}"`, () => fn(userId))) ?? null;
};

export const object: Filter = async function (value, collection) {
  const { state, fn } = resolver(this, 'object');
  if (typeof collection !== 'string' || !collection) throw new TemplateFailure('template_render', 'the object filter needs a collection');
  const objectId = id(value);
  if (!objectId) return null;
  const key = `${collection}/${objectId}`;
  return (await loadOnce(state, `object:${key}`, `object "${key}"`, () => fn(collection, objectId))) ?? null;
};

export const tenant: Filter = async function (value) {
  const { state, fn } = resolver(this, 'tenant');
  const tenantId = id(value);
  if (!tenantId) return null;
  return (await loadOnce(state, `tenant:${tenantId}`, `tenant "${tenantId}"`, () => fn(tenantId))) ?? null;
};

export const subscriptions: Filter = async function (value) {
  const { state, fn } = resolver(this, 'subscriptions');
  const userId = id(value);
  if (!userId) return [];
  const list = await loadOnce(state, `subscriptions:${userId}`, `subscriptions of "${userId}"`, () => fn(userId));
  return Array.isArray(list) ? list.slice(0, SUBSCRIPTIONS_MAX) : [];
};
