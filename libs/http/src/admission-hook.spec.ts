import Fastify, { FastifyInstance } from 'fastify';
import { request as httpRequest } from 'node:http';
import { AddressInfo } from 'node:net';
import { AdmissionController, admitRequests } from './admission';

/** Resolves once `check` holds (polled); the state a test waits for, never a guessed delay. */
async function until(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 1000; i++) {
    if (check()) return;
    await new Promise((r) => setTimeout(r, 5));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** A handler that holds its place until the test lets it answer. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((r) => (open = r));
  let entered = 0;
  return {
    open,
    opened,
    get entered() {
      return entered;
    },
    enter: () => entered++,
  };
}

describe('admitRequests (the onRequest hook)', () => {
  let app: FastifyInstance;
  let url: string;
  let controller: AdmissionController;
  let held: ReturnType<typeof gate>;

  beforeEach(async () => {
    held = gate();
    controller = new AdmissionController({ maxInFlight: 1, maxQueued: 1, queueTimeoutMs: 10_000 });
    app = Fastify();
    admitRequests(app, controller);
    app.get('/healthz', async () => ({ status: 'ok' }));
    app.get('/held', async () => {
      held.enter();
      await held.opened;
      return { ok: true };
    });
    app.post('/upload', async () => ({ ok: true }));
    app.get('/fails', async () => {
      throw new Error('boom');
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  });
  afterEach(async () => {
    held.open();
    await app.close();
  });

  it('refuses beyond the bound at once with 503, retry-after and the error shape; health stays reachable', async () => {
    const first = fetch(`${url}/held`);
    await until(() => held.entered === 1, 'the first request to run');
    const second = fetch(`${url}/held`);
    await until(() => controller.stats().queued === 1, 'the second request to queue');

    const refused = await fetch(`${url}/held`);
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(await refused.json()).toEqual({ code: 'overloaded', message: expect.any(String), status: 503, type: 'api_error' });
    expect(held.entered).toBe(1); // the refused request never reached its handler

    expect((await fetch(`${url}/healthz`)).status).toBe(200);

    held.open();
    expect((await first).status).toBe(200);
    expect((await second).status).toBe(200);
    await until(() => controller.stats().inFlight === 0, 'every place to be given back');
    expect(controller.stats()).toMatchObject({ inFlight: 0, queued: 0, admitted: 2, refused: { queue_full: 1, queue_timeout: 0 } });
  });

  it('gives the place back after an error answer', async () => {
    expect((await fetch(`${url}/fails`)).status).toBe(500);
    await until(() => controller.stats().inFlight === 0, 'the place to be given back');
  });

  it('keeps the place of a request whose client left while its handler runs, until the handler is done', async () => {
    const req = httpRequest(`${url}/held`);
    req.on('error', () => undefined);
    req.end();
    await until(() => held.entered === 1, 'the handler to run');
    req.destroy();
    await until(() => req.socket?.destroyed ?? true, 'the client socket to close');
    // Still working for the client that left: the bound counts it.
    expect(controller.stats().inFlight).toBe(1);
    held.open();
    await until(() => controller.stats().inFlight === 0, 'the place to be given back');
  });

  it('frees the place of a client that leaves in the middle of its upload', async () => {
    const req = httpRequest(`${url}/upload`, { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': '1000' } });
    req.on('error', () => undefined);
    req.write('{"a":');
    await until(() => controller.stats().inFlight === 1, 'the upload to be admitted');
    req.destroy();
    await until(() => controller.stats().inFlight === 0, 'the place to be given back');
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
  });
});
