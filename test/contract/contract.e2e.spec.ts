/**
 * Contract test: every operation of the reference specs that the service implements answers a
 * body valid against the reference schema of that operation and status.
 *
 * - The reference: test/contract/reference.schemas.json, extracted from the public API spec
 *   (knock-api.openapi.json) and the management API spec (knock-mgmt-api.openapi.yml) by
 *   `node scripts/reference-schemas.mjs [<public.json> <mgmt.yml>]` (prose and vendor fields
 *   dropped; see the script's header and NOTICE.md here for sources and licences). The test reads
 *   only that file, never the specs.
 * - Implemented operations: the service's own route contracts (`allRoutes()` of libs/contracts),
 *   mapped to the reference by method and path (service-token routes to the management spec, the
 *   others to the public spec). A newly implemented operation without a case in cases.ts fails.
 * - Validation: ajv + ajv-formats (uuid, date-time, uri checked strictly), OpenAPI 3.0 `nullable`
 *   converted and $refs resolved (reference.ts).
 * - One app, one environment (the bootstrap `development`), one fixture made once (cases.ts).
 *
 * The summary (conformant operations out of each reference's total, and the operations not
 * implemented) is printed after the run.
 */
import { allRoutes, RouteContract } from '@notify/contracts';
import { startTestApp, TestApp } from '../support/test-app';
import { Case, Fixture, managementCases, publicCases } from './cases';
import { ApiName, ReferenceOperation, referenceOperations, referenceTotals, ResponseValidator, routeKey } from './reference';

const validator = new ResponseValidator();
const casesOf: Record<ApiName, Record<string, Case>> = { public: publicCases, management: managementCases };

/** Service-token routes belong to the management API, every other route to the public API. */
const apiOf = (route: RouteContract): ApiName => (route.auth === 'service' ? 'management' : 'public');

interface Implemented {
  route: RouteContract;
  op: ReferenceOperation;
}

function implementedOperations(): { implemented: Implemented[]; unimplemented: ReferenceOperation[]; extra: RouteContract[] } {
  const byKey = new Map<string, ReferenceOperation>();
  for (const api of ['public', 'management'] as const)
    for (const op of referenceOperations(api)) byKey.set(`${api} ${routeKey(op.method, op.path)}`, op);
  const implemented: Implemented[] = [];
  const extra: RouteContract[] = [];
  for (const route of allRoutes()) {
    const op = byKey.get(`${apiOf(route)} ${routeKey(route.method, route.path)}`);
    if (op) implemented.push({ route, op });
    else extra.push(route);
  }
  const done = new Set(implemented.map((i) => i.op));
  const unimplemented = [...byKey.values()].filter((op) => !done.has(op));
  return { implemented, unimplemented, extra };
}

const { implemented, unimplemented } = implementedOperations();
const caseKey = (op: ReferenceOperation) => `${op.method} ${op.path}`;
const results = new Map<ReferenceOperation, boolean>();

describe('the reference validator', () => {
  const op = (api: ApiName, method: string, path: string) => referenceOperations(api).find((o) => o.method === method && o.path === path)!;
  const user = { __typename: 'User', id: 'u1', updated_at: '2024-01-01T00:00:00Z', created_at: null, email: null, name: 'Ada' };

  it('accepts a valid body, null where the spec says nullable, and rejects what the spec forbids', () => {
    const getUser = op('public', 'GET', '/v1/users/{user_id}');
    expect(validator.validate(getUser, 200, user)).toEqual({ ok: true, problems: [] });
    expect(validator.validate(getUser, 200, { ...user, updated_at: '2024-01-01 00:00' }).ok).toBe(false);
    expect(validator.validate(getUser, 200, { ...user, id: null }).ok).toBe(false);
    expect(validator.validate(getUser, 200, { ...user, updated_at: undefined }).ok).toBe(false);
    expect(validator.check(getUser, 204, '', null).ok).toBe(false);
    expect(validator.check(op('public', 'DELETE', '/v1/users/{user_id}'), 204, '', null).ok).toBe(true);
    expect(validator.check(op('public', 'DELETE', '/v1/users/{user_id}'), 204, '{}', 'application/json').ok).toBe(false);
  });

  it("reads a union's branches past the generator's outer type, and nothing else", () => {
    const prefs = op('public', 'GET', '/v1/users/{user_id}/preferences/{id}');
    // PreferenceSetWorkflowCategorySetting: boolean | object, written under `type: object`.
    expect(validator.validate(prefs, 200, { id: 'default', workflows: { a: true, b: { channel_types: { email: false } } } })).toEqual({
      ok: true,
      problems: [],
    });
    expect(validator.validate(prefs, 200, { id: 'default', workflows: { a: 'yes' } }).ok).toBe(false);
    expect(validator.validate(prefs, 200, { id: 'default', workflows: null, categories: null, channel_types: null })).toEqual({
      ok: true,
      problems: [],
    });
    const activities = op('public', 'GET', '/v1/messages/{message_id}/activities');
    const activity = {
      __typename: 'Activity',
      id: 'a1',
      actor: null,
      recipient: { __typename: 'User', id: 'u1', updated_at: '2024-01-01T00:00:00Z' },
      data: null,
      inserted_at: '2024-01-01T00:00:00Z',
      updated_at: '2024-01-01T00:00:00Z',
    };
    const page = { page_info: { __typename: 'PageInfo', after: null, before: null, page_size: 50 } };
    expect(validator.validate(activities, 200, { items: [activity], ...page })).toEqual({ ok: true, problems: [] });
    expect(validator.validate(activities, 200, { items: [{ ...activity, actor: 'u2' }], ...page }).ok).toBe(false);
  });

  it('checks uuid and uri formats strictly', () => {
    const bulk = op('public', 'GET', '/v1/bulk_operations/{id}');
    const body = {
      __typename: 'BulkOperation',
      id: '8f1c1e6e-3b8e-4a8e-9a51-2f1f0e2b6a11',
      name: 'users.identify',
      status: 'completed',
      estimated_total_rows: 1,
      processed_rows: 1,
      success_count: 1,
      error_count: 0,
      error_items: [],
      progress_path: 'https://notify.example/v1/bulk_operations/8f1c1e6e-3b8e-4a8e-9a51-2f1f0e2b6a11',
      inserted_at: '2024-01-01T00:00:00Z',
      updated_at: '2024-01-01T00:00:00Z',
      started_at: null,
      completed_at: null,
      failed_at: null,
    };
    expect(validator.validate(bulk, 200, body)).toEqual({ ok: true, problems: [] });
    expect(validator.validate(bulk, 200, { ...body, progress_path: '/v1/bulk_operations/x' }).problems.join()).toContain('progress_path');
    expect(validator.validate(bulk, 200, { ...body, id: 'not-a-uuid' }).problems.join()).toContain('/id');
  });
});

describe('contract: responses match the reference schemas', () => {
  let t: TestApp;
  let f: Fixture;

  beforeAll(async () => {
    t = await startTestApp();
    f = new Fixture(t);
    await f.setUp();
  });
  afterAll(async () => {
    await f?.tearDown();
    await t?.close();
    report();
  });

  it('has a case for every implemented operation, and none for an operation it does not implement', () => {
    const missing = implemented
      .filter(({ op }) => !casesOf[op.api][caseKey(op)])
      .map(({ op, route }) => `${op.api}: ${caseKey(op)} (${route.operationId})`);
    expect(missing).toEqual([]);
    const keys = new Set(implemented.map(({ op }) => `${op.api} ${caseKey(op)}`));
    const stray = (['public', 'management'] as const).flatMap((api) =>
      Object.keys(casesOf[api])
        .filter((k) => !keys.has(`${api} ${k}`))
        .map((k) => `${api}: ${k}`),
    );
    expect(stray).toEqual([]);
  });

  it.each(implemented.map(({ op, route }) => [`${op.api} ${caseKey(op)} (${route.operationId})`, op] as const))('%s', async (_name, op) => {
    const run = casesOf[op.api][caseKey(op)];
    if (!run) throw new Error(`no case for ${caseKey(op)}`);
    const exchange = await run(f);
    const verdict = validator.check(op, exchange.status, exchange.text, exchange.contentType);
    results.set(op, verdict.ok);
    if (!verdict.ok) {
      const body = exchange.status >= 300 ? `\n  body: ${exchange.text.slice(0, 600)}` : '';
      throw new Error(
        `${exchange.request} answered ${exchange.status}, which does not match the reference:\n  ${verdict.problems.join('\n  ')}${body}`,
      );
    }
  });
});

function report(): void {
  const lines: string[] = [];
  for (const api of ['public', 'management'] as const) {
    const mine = implemented.filter((i) => i.op.api === api);
    const conformant = mine.filter((i) => results.get(i.op) === true).length;
    lines.push(`${api} API: ${conformant} of ${referenceTotals[api]} reference operations conform (${mine.length} implemented)`);
    const failing = mine.filter((i) => results.get(i.op) !== true).map((i) => `${caseKey(i.op)}`);
    if (failing.length) lines.push(`  not conformant: ${failing.join(', ')}`);
    const missing = unimplemented.filter((op) => op.api === api).map((op) => `${op.operationId} (${caseKey(op)})`);
    lines.push(`  not implemented (${missing.length}): ${missing.join(', ')}`);
  }
  process.stdout.write(`\nContract conformance\n${lines.join('\n')}\n`);
}
