import type { INestApplicationContext } from '@nestjs/common';
import { ModulesContainer } from '@nestjs/core';

const HOOKS = ['onModuleDestroy', 'beforeApplicationShutdown', 'onApplicationShutdown'] as const;

/**
 * Wraps the shutdown hooks of every provider of the application so that a shutdown that runs over
 * its bound can say which hooks it is still waiting for (`Class.hook`), instead of only that it
 * took too long. Call once, just before `app.close()`.
 */
export function trackShutdownHooks(app: INestApplicationContext): () => string[] {
  const pending = new Map<string, number>();
  const seen = new WeakSet<object>();
  let modules: ModulesContainer;
  try {
    modules = app.get(ModulesContainer);
  } catch {
    return () => [];
  }
  let next = 0;
  for (const module of modules.values())
    for (const wrapper of [...module.providers.values(), ...module.controllers.values()]) {
      const instance = wrapper.instance as Record<string, unknown> | null | undefined;
      if (!instance || typeof instance !== 'object' || seen.has(instance)) continue;
      seen.add(instance);
      for (const hook of HOOKS) {
        const original = instance[hook];
        if (typeof original !== 'function') continue;
        const name = `${instance.constructor?.name ?? String(wrapper.name)}.${hook}`;
        instance[hook] = async (...args: unknown[]) => {
          const key = `${name}#${next++}`;
          pending.set(key, Date.now());
          try {
            return await (original as (...a: unknown[]) => unknown).apply(instance, args);
          } finally {
            pending.delete(key);
          }
        };
      }
    }
  return () => [...pending.keys()].map((key) => key.replace(/#\d+$/, ''));
}
