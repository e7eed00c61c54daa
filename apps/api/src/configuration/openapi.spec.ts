import { allRoutes } from '@notify/contracts';
import { buildOpenApiDocument } from '@notify/http';
import '@notify/contracts';

describe('OpenAPI document of the management API', () => {
  it('is generated from the route contracts, management routes included', () => {
    const doc = buildOpenApiDocument(allRoutes(), '1.0.0') as {
      paths: Record<string, Record<string, { operationId: string; 'x-auth': string }>>;
    };
    expect(doc.paths['/v1/workflows/{workflow_key}'].put).toMatchObject({ operationId: 'upsertWorkflow', 'x-auth': 'service' });
    expect(doc.paths['/v1/commits/promote'].put.operationId).toBe('promoteAllCommits');
    expect(doc.paths['/v1/channels/{channel_key}'].put.operationId).toBe('upsertChannel');
  });
});
