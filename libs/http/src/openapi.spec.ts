import { allRoutes, API_VERSION } from '@notify/contracts';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { stringify } from 'yaml';
import { buildOpenApiDocument } from './openapi';

/** The committed API description must be what the contracts generate: API changes show in review. */
describe('committed OpenAPI document', () => {
  const generated = buildOpenApiDocument(allRoutes(), API_VERSION);
  const root = path.resolve(__dirname, '../../..');

  it('docs/openapi.json matches the route contracts (run `npm run openapi` after changing them)', () => {
    const committed = JSON.parse(readFileSync(path.join(root, 'docs/openapi.json'), 'utf8'));
    expect(committed).toEqual(JSON.parse(JSON.stringify(generated)));
  });

  it('docs/openapi.yaml matches too', () => {
    expect(readFileSync(path.join(root, 'docs/openapi.yaml'), 'utf8')).toBe(stringify(generated));
  });

  it('describes every route with an operation id, auth and, for /v1, a rate tier', () => {
    const operations = Object.entries(
      generated.paths as Record<string, Record<string, { operationId: string; 'x-auth': string; 'x-ratelimit-tier'?: number }>>,
    ).flatMap(([p, ops]) => Object.values(ops).map((op) => ({ path: p, ...op })));
    expect(operations.length).toBe(allRoutes().length);
    for (const op of operations) {
      expect(op.operationId).toBeTruthy();
      if (op.path.startsWith('/v1/')) expect(op['x-ratelimit-tier']).toBeGreaterThanOrEqual(1);
    }
  });
});
