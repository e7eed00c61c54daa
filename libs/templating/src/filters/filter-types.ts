import type { Context, Liquid } from 'liquidjs';

/** What liquidjs binds `this` to in a filter. */
export interface FilterThis {
  context: Context;
  token: { args: unknown[] };
  liquid: Liquid;
}

export type Filter = (this: FilterThis, value: unknown, ...args: unknown[]) => unknown;
