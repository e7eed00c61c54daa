import { allRoutes, RouteContract } from '@notify/contracts';
import fc from 'fast-check';
import { request as httpRequest } from 'node:http';
import qs from 'qs';
import { fromJsonSchema, mutate, nestedValue, toJsonSchema } from '../../support/contract-arbitraries';
import { countEvents } from '../../support/recipients';
import { startTestApp, TestApp, TestEnvironment } from '../../support/test-app';

/**
 * Property-based fuzzing of every route in the contract registry, over real HTTP against the
 * in-process app: requests derived from each route's params, query and body schemas, valid-ish
 * and hostile (NUL, lone surrogates, deep nesting, huge strings, wrong types, null, arrays for
 * scalars, malformed URLs, other content types). For every request: never a 5xx; every 4xx in the
 * error shape; and a 4xx writes nothing (the log's event count is unchanged and no event carries
 * the request's id).
 *
 * Seeded and bounded: FUZZ_SEED replays a run (the seed is printed on failure), FUZZ_ROUTE limits
 * it to one operationId, FUZZ_RUNS sets the requests per route (default 4).
 */
const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : Math.floor(Math.random() * 0x7fffffff);
const RUNS = Number(process.env.FUZZ_RUNS ?? 4);
const ONLY = process.env.FUZZ_ROUTE;

interface FuzzRequest {
  method: string;
  path: string;
  query: string;
  contentType: string | null;
  body: string | undefined;
  auth: 'route' | 'none';
}

/** A path segment that is sent as it is (already encoded, or deliberately not valid). */
class Raw {
  constructor(readonly text: string) {}
  toString() {
    return `Raw(${this.text.slice(0, 40)})`;
  }
}

const hostileSegment = fc.constantFrom<unknown>(
  'a\u0000b',
  '\ud800',
  '..',
  '.',
  'a\u202eb',
  'a b',
  'x'.repeat(300),
  'x'.repeat(10_000),
  new Raw('%ZZ'),
  new Raw('%ED%A0%80'),
  new Raw('%C0%AE%C0%AE'),
  new Raw('%2E%2E'),
  new Raw('a%2Fb'),
  new Raw(''),
  42,
);

const hostileQuery = fc.constantFrom(
  'page_size[]=1',
  'page_size=1e1',
  'after=%ZZ',
  'after=a%00b',
  `after=${'x'.repeat(10_000)}`,
  'a[b][c][d][e][f][g][h]=1',
  'environment[]=x',
  `${'k'.repeat(3000)}=1`,
  'tenant=%ED%A0%80',
  'x=%00',
);

/** Raw bodies that no value would serialize to. */
const hostileBodyText = fc.constantFrom(
  '',
  'null',
  '{',
  '[1,2',
  '"just a string"',
  '{"a":1,}',
  `{"x":${'['.repeat(12_000)}${']'.repeat(12_000)}}`,
  `{"s":"${'x'.repeat(1_100_000)}"}`,
);

function encodeSegment(value: unknown): string {
  if (value instanceof Raw) return value.text;
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  try {
    return encodeURIComponent(text);
  } catch {
    // A lone surrogate cannot be encoded as UTF-8: send the bytes a careless client would.
    return text.replace(/[\s\S]/g, (c) => (/[\ud800-\udfff]/.test(c) ? '%ED%A0%80' : encodeURIComponent(c)));
  }
}

function encodeQuery(value: unknown): string {
  if (!value || typeof value !== 'object') return '';
  try {
    return qs.stringify(value, { arrayFormat: 'brackets' });
  } catch {
    return 'broken=%ED%A0%80';
  }
}

function requestArbitrary(route: RouteContract, environment: string): fc.Arbitrary<FuzzRequest> {
  const schemaValue = (schema: RouteContract['params']) => (schema ? fromJsonSchema(toJsonSchema(schema)) : fc.constant(undefined));
  const orMutated = (arb: fc.Arbitrary<unknown>) =>
    arb.chain((v) => fc.oneof({ weight: 3, arbitrary: fc.constant(v) }, { weight: 2, arbitrary: mutate(v) }));

  const params = schemaValue(route.params).chain((p) => {
    const names = [...route.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
    const base = (p ?? {}) as Record<string, unknown>;
    if (!names.length) return fc.constant(base);
    return fc.oneof(
      { weight: 3, arbitrary: fc.constant(base) },
      { weight: 2, arbitrary: fc.tuple(fc.constantFrom(...names), hostileSegment).map(([name, v]) => ({ ...base, [name]: v })) },
    );
  });

  const query = orMutated(schemaValue(route.query)).chain((q) => {
    const value = q && typeof q === 'object' && !Array.isArray(q) ? { ...(q as Record<string, unknown>) } : {};
    // Service routes work on the environment named in the query: mostly the fuzzed one.
    if (route.auth === 'service' && route.scope !== 'account') value.environment = environment;
    const text = encodeQuery(value);
    return fc.oneof(
      { weight: 4, arbitrary: fc.constant(text) },
      { weight: 1, arbitrary: hostileQuery.map((h) => (text ? `${text}&${h}` : h)) },
    );
  });

  const bodyValue = route.body
    ? orMutated(schemaValue(route.body))
    : fc.oneof({ weight: 4, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }) });
  const body = fc.oneof(
    { weight: 6, arbitrary: bodyValue.map((v) => (v === undefined ? undefined : JSON.stringify(v))) },
    { weight: 1, arbitrary: hostileBodyText },
    { weight: 1, arbitrary: fc.integer({ min: 60, max: 200 }).map((n) => JSON.stringify({ data: nestedValue(n) })) },
  );
  const contentType = fc.oneof(
    { weight: 12, arbitrary: fc.constant('application/json') },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        'text/plain',
        'application/xml',
        'application/x-www-form-urlencoded',
        'application/json; charset=utf-8',
        null,
      ),
    },
  );
  const method = fc.oneof(
    { weight: 30, arbitrary: fc.constant(route.method) },
    { weight: 1, arbitrary: fc.constantFrom('GET', 'PUT', 'POST', 'DELETE', 'PATCH') },
  );
  const auth = fc.oneof({ weight: 30, arbitrary: fc.constant('route' as const) }, { weight: 1, arbitrary: fc.constant('none' as const) });

  return fc
    .record({ params, query, body, contentType, method, auth })
    .map(({ params: p, query: q, body: b, contentType: ct, method: m, auth: a }) => ({
      method: m,
      path: route.path.replace(/\{([^}]+)\}/g, (_, name: string) => encodeSegment(p[name] ?? 'x')),
      query: q,
      contentType: b === undefined ? null : ct,
      body: b,
      auth: a,
    }));
}

describe('contract fuzzing', () => {
  let t: TestApp;
  let env: TestEnvironment;
  let counter = 0;
  const statuses = new Map<number, number>();

  beforeAll(async () => {
    t = await startTestApp();
    env = await t.newEnvironment();
  });
  afterAll(async () => {
    await t?.close();
  });

  /** The request as sent, byte for byte (fetch would normalise dot segments and refuse some bytes). */
  function send(req: FuzzRequest, headers: Record<string, string>): Promise<{ status: number; text: string }> {
    const url = new URL(t.url);
    return new Promise((resolve, reject) => {
      const r = httpRequest(
        {
          host: url.hostname,
          port: url.port,
          method: req.method,
          path: req.query ? `${req.path}?${req.query}` : req.path,
          headers,
          timeout: 30_000,
        },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          if (res.statusCode === 200 && String(res.headers['content-type']).startsWith('text/event-stream')) {
            // A stream that follows the log never ends by itself (GET /v1/events/tail): opened is answered.
            res.once('data', () => {
              resolve({ status: 200, text: '' });
              r.destroy();
            });
            return;
          }
          res.on('data', (chunk) => (text += chunk));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
        },
      );
      r.on('timeout', () => r.destroy(new Error('request timed out')));
      r.on('error', reject);
      r.end(req.body);
    });
  }

  async function waitForBulkOperation(id: string): Promise<void> {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const res = await t.http('GET', `/v1/bulk_operations/${id}`, { key: env.secretKey });
      if (res.status !== 200 || ['completed', 'failed'].includes(res.body.status)) return;
      if (Date.now() > deadline) throw new Error(`bulk operation ${id} did not finish`);
      await new Promise((r) => setTimeout(r, 25));
    }
  }

  async function check(route: RouteContract, req: FuzzRequest): Promise<void> {
    const requestId = `fuzz-${SEED}-${++counter}`;
    const headers: Record<string, string> = { 'x-request-id': requestId };
    if (req.auth === 'route' && route.auth !== 'none')
      headers.authorization = `Bearer ${route.auth === 'service' ? t.serviceToken : env.secretKey}`;
    if (req.contentType) headers['content-type'] = req.contentType;
    if (req.body !== undefined) headers['content-length'] = String(Buffer.byteLength(req.body));
    const before = await countEvents(t);
    const res = await send(req, headers);
    let body: any;
    try {
      body = res.text ? JSON.parse(res.text) : undefined;
    } catch {
      body = res.text;
    }
    statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
    const what = `${req.method} ${req.path.slice(0, 200)}?${req.query.slice(0, 200)} -> ${res.status} ${res.text.slice(0, 300)}`;
    expect([what, res.status < 500]).toEqual([what, true]);
    if (res.status >= 400) {
      expect([what, body]).toEqual([
        what,
        expect.objectContaining({ code: expect.any(String), message: expect.any(String), status: res.status, type: expect.any(String) }),
      ]);
      if (body.code === 'invalid_params') expect([what, Array.isArray(body.errors)]).toEqual([what, true]);
      const written = await t.sql<{ c: string }>(`SELECT count(*) AS c FROM es_events WHERE metadata->>'request_id' = $1`, [requestId]);
      expect([what, Number(written[0].c), await countEvents(t)]).toEqual([what, 0, before]);
    } else if (body?.__typename === 'BulkOperation' && typeof body.id === 'string') {
      // Accepted work that continues in the background: let it finish, so that it cannot be
      // taken for a write of a later refused request.
      await waitForBulkOperation(body.id);
    }
  }

  it(`never answers 5xx, always the error shape, nothing written on a 4xx (seed ${SEED})`, async () => {
    const routes = allRoutes();
    expect(routes.length).toBeGreaterThan(100);
    let requests = 0;
    for (const [index, route] of routes.entries()) {
      if (ONLY && route.operationId !== ONLY) continue;
      try {
        await fc.assert(
          fc.asyncProperty(requestArbitrary(route, env.slug), async (req) => {
            requests++;
            await check(route, req);
          }),
          { seed: SEED + index, numRuns: RUNS, interruptAfterTimeLimit: 60_000 },
        );
      } catch (error) {
        const cause = (error as Error & { cause?: Error }).cause;
        throw new Error(
          `Fuzzing ${route.operationId} (${route.method} ${route.path}) failed; replay with FUZZ_SEED=${SEED} FUZZ_ROUTE=${route.operationId}\n${(error as Error).message}\n${cause?.message ?? ''}`,
        );
      }
    }
    expect(requests).toBeGreaterThanOrEqual(ONLY ? RUNS : routes.length * RUNS);
    if (process.env.FUZZ_VERBOSE)
      console.log(`${requests} requests, statuses: ${JSON.stringify(Object.fromEntries([...statuses].sort()))}`);
  }, 600_000);
});
