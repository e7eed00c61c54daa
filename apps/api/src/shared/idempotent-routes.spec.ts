import { GUARDS_METADATA, ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouteContract } from '@notify/contracts';
import { ROUTE_CONTRACT } from '@notify/http';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { IdempotencyKeyGuard, idempotencyScopeFactory } from './idempotent-route';

function controllerFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? controllerFiles(p) : e.name.endsWith('.controller.ts') ? [p] : [];
  });
}

describe('idempotent routes', () => {
  // Every controller method of the api, with the contract it serves, its guards and whether it takes @Idempotency().
  const methods = controllerFiles(path.resolve(__dirname, '..')).flatMap((file) =>
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- every controller file, found on disk
    Object.values(require(file) as Record<string, unknown>)
      .filter((v): v is new (...a: never[]) => object => typeof v === 'function')
      .flatMap((controller) =>
        Object.getOwnPropertyNames(controller.prototype).flatMap((name) => {
          const handler = (controller.prototype as Record<string, unknown>)[name];
          const route =
            typeof handler === 'function' ? (Reflect.getMetadata(ROUTE_CONTRACT, handler) as RouteContract | undefined) : undefined;
          if (typeof handler !== 'function' || !route) return [];
          const guards = (Reflect.getMetadata(GUARDS_METADATA, handler) as unknown[] | undefined) ?? [];
          const args = Object.values(
            (Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, name) as Record<string, { factory?: unknown }> | undefined) ?? {},
          );
          return [{ at: `${controller.name}.${name}`, route, guards, scoped: args.some((a) => a.factory === idempotencyScopeFactory) }];
        }),
      ),
  );

  it('finds the api routes', () => {
    expect(methods.length).toBeGreaterThan(50);
    expect(
      methods
        .filter((m) => m.route.idempotent)
        .map((m) => m.at)
        .sort(),
    ).toEqual([
      'CancelWorkflowController.cancel',
      // The /v1/notify aliases of trigger and cancel take Idempotency-Key like them.
      'NotifyController.cancel',
      'NotifyController.notify',
      'TriggerWorkflowController.trigger',
    ]);
  });

  it('marks exactly the routes whose contract is idempotent, and their handlers take the key', () => {
    for (const m of methods)
      expect({ at: m.at, checked: m.guards.includes(IdempotencyKeyGuard), scoped: m.scoped }).toEqual({
        at: m.at,
        checked: m.route.idempotent === true,
        scoped: m.route.idempotent === true,
      });
  });
});
