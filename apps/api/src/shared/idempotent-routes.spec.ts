import { INTERCEPTORS_METADATA } from '@nestjs/common/constants';
import { RouteContract } from '@notify/contracts';
import { ROUTE_CONTRACT } from '@notify/http';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { IdempotencyInterceptor } from './idempotency.interceptor';

function controllerFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? controllerFiles(p) : e.name.endsWith('.controller.ts') ? [p] : [];
  });
}

describe('idempotent routes', () => {
  // Every controller method of the api, with the contract it serves and its interceptors.
  const methods = controllerFiles(path.resolve(__dirname, '..')).flatMap((file) =>
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- every controller file, found on disk
    Object.values(require(file) as Record<string, unknown>)
      .filter((v): v is new (...a: never[]) => object => typeof v === 'function')
      .flatMap((controller) =>
        Object.getOwnPropertyNames(controller.prototype).flatMap((name) => {
          const handler = (controller.prototype as Record<string, unknown>)[name];
          const route =
            typeof handler === 'function' ? (Reflect.getMetadata(ROUTE_CONTRACT, handler) as RouteContract | undefined) : undefined;
          const interceptors =
            typeof handler === 'function' ? ((Reflect.getMetadata(INTERCEPTORS_METADATA, handler) as unknown[] | undefined) ?? []) : [];
          return route ? [{ at: `${controller.name}.${name}`, route, interceptors }] : [];
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

  it('puts the idempotency interceptor on exactly the routes whose contract is idempotent', () => {
    for (const m of methods)
      expect({ at: m.at, intercepted: m.interceptors.includes(IdempotencyInterceptor) }).toEqual({
        at: m.at,
        intercepted: m.route.idempotent === true,
      });
  });
});
