import KnockMgmt from '@knocklabs/mgmt';
import { commitLogStream } from '@notify/domain';
import { rebuildAndCompare } from '../../../../test/support/rebuild';
import { startTestApp, TestApp } from '../../../../test/support/test-app';

/** Changes are made in development, committed, and promoted to production, which serves the committed version. */
describe('commits and promotion', () => {
  let t: TestApp;
  let mgmt: KnockMgmt;
  const dev = { environment: 'development' };
  const prod = { environment: 'production' };
  const svc = (method: string, path: string, body?: unknown) => t.http(method, path, { key: t.serviceToken, body });
  const feed = (body: string) => ({
    name: 'Digest',
    steps: [{ type: 'channel', ref: 'feed', channel_key: 'in-app', template: { markdown_body: body } }],
  });

  beforeAll(async () => {
    t = await startTestApp();
    mgmt = t.mgmt();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('keeps changes uncommitted until committed, then promotes the committed version only', async () => {
    await mgmt.workflows.upsert('digest', { ...dev, workflow: feed('v1') as never });
    expect((await svc('GET', '/v1/workflows/digest?environment=development&hide_uncommitted_changes=true')).status).toBe(404);
    const uncommitted = await svc('GET', '/v1/workflows?environment=development&hide_uncommitted_changes=true');
    expect(uncommitted.body.entries.map((w: { key: string }) => w.key)).not.toContain('digest');

    await mgmt.commits.commitAll({ ...dev, commit_message: 'First digest' });
    const committed = await mgmt.workflows.retrieve('digest', { ...dev, hide_uncommitted_changes: true });
    expect(committed.steps[0]).toMatchObject({ template: { markdown_body: 'v1' } });

    // A later change stays uncommitted: the committed view still shows v1.
    await mgmt.workflows.upsert('digest', { ...dev, workflow: feed('v2') as never });
    expect((await mgmt.workflows.retrieve('digest', dev)).steps[0]).toMatchObject({ template: { markdown_body: 'v2' } });
    expect((await mgmt.workflows.retrieve('digest', { ...dev, hide_uncommitted_changes: true })).steps[0]).toMatchObject({
      template: { markdown_body: 'v1' },
    });

    // Production has nothing until a promotion, and then serves the committed v1.
    expect((await svc('GET', '/v1/workflows/digest?environment=production')).status).toBe(404);
    const unpromoted: string[] = [];
    for await (const c of mgmt.commits.list({ ...dev, promoted: false }))
      unpromoted.push(`${c.resource.type}:${c.resource.identifier}:${c.commit_message}`);
    expect(unpromoted).toContain('workflow:digest:First digest');
    await mgmt.commits.promoteAll({ to_environment: 'production' });
    const inProd = await mgmt.workflows.retrieve('digest', prod);
    expect(inProd).toMatchObject({ environment: 'production', valid: true, active: false });
    expect(inProd.steps[0]).toMatchObject({ template: { markdown_body: 'v1' } });

    // Activation is per environment: active in production, still inactive in development.
    await mgmt.workflows.activate('digest', { ...prod, status: true });
    expect((await mgmt.workflows.retrieve('digest', prod)).active).toBe(true);
    expect((await mgmt.workflows.retrieve('digest', dev)).active).toBe(false);

    // v2 reaches production only once committed and promoted.
    await svc('PUT', '/v1/commits?environment=development&commit_message=Second');
    const [latest] = (await svc('GET', '/v1/commits?environment=development&resource_type=workflow&resource_id=digest&promoted=false')).body
      .entries;
    expect(latest).toMatchObject({
      commit_message: 'Second',
      resource: { type: 'workflow', identifier: 'digest' },
      environment: 'development',
      author: { email: expect.stringMatching(/^service:/) },
    });
    const one = await mgmt.commits.promoteOne(latest.id);
    expect(one.commit).toMatchObject({ id: latest.id, promoted_at: expect.any(String) });
    expect((await mgmt.workflows.retrieve('digest', prod)).steps[0]).toMatchObject({ template: { markdown_body: 'v2' } });
    expect(await mgmt.commits.retrieve(latest.id)).toMatchObject({ id: latest.id, environment: 'development' });

    // The promoted content is in production's own log, so production can be rebuilt from it alone.
    const log = (await t.store.readStream(commitLogStream('production'))).filter(
      (e) => (e.data as { resource: { identifier: string } }).resource.identifier === 'digest',
    );
    expect(log.map((e) => e.type)).toEqual(['CommitPromoted', 'CommitPromoted']);
    expect(
      log.map((e) => (e.data as { content: { steps: { template: { markdown_body: string } }[] } }).content.steps[0].template.markdown_body),
    ).toEqual(['v1', 'v2']);
  });

  it('does not let production be edited directly, and refuses to commit invalid resources', async () => {
    const direct = await svc('PUT', '/v1/workflows/direct?environment=production', { workflow: feed('x') });
    expect(direct.status).toBe(400);
    expect(direct.body).toMatchObject({ code: 'environment_not_editable' });
    await svc('PUT', '/v1/workflows/invalid-one?environment=development', {
      workflow: { ...feed('x'), steps: [{ type: 'channel', ref: 'f', channel_key: 'missing', template: { markdown_body: 'x' } }] },
    });
    const commit = await svc('PUT', '/v1/commits?environment=development');
    expect(commit.status).toBe(422);
    expect(commit.body.errors).toEqual([expect.objectContaining({ field: 'workflow.invalid-one' })]);
    const commitWithUpsert = await svc('PUT', '/v1/workflows/invalid-two?environment=development&commit=true', {
      workflow: { ...feed('x'), steps: [{ type: 'channel', ref: 'f', channel_key: 'missing', template: { markdown_body: 'x' } }] },
    });
    expect(commitWithUpsert.status).toBe(422);
    expect((await svc('GET', '/v1/workflows/invalid-two?environment=development')).status).toBe(404);
  });

  it('commits on upsert with commit=true', async () => {
    const res = await svc('PUT', '/v1/partials/signature?environment=development&commit=true&commit_message=Sig', {
      partial: { name: 'Signature', type: 'text', content: 'Thanks' },
    });
    expect(res.status).toBe(200);
    const commits = await svc('GET', '/v1/commits?environment=development&resource_type=partial');
    expect(commits.body.entries).toEqual([
      expect.objectContaining({ commit_message: 'Sig', resource: { type: 'partial', identifier: 'signature' } }),
    ]);
  });

  it('commits and promotes an audience like the other resources', async () => {
    await mgmt.audiences.upsert('vip', { ...dev, audience: { type: 'static', name: 'VIP' } } as never);
    await mgmt.commits.commitAll({ ...dev, resource_type: 'audience', commit_message: 'VIPs' } as never);
    const [commit] = (await svc('GET', '/v1/commits?environment=development&resource_type=audience')).body.entries;
    expect(commit).toMatchObject({ commit_message: 'VIPs', resource: { type: 'audience', identifier: 'vip' }, promoted_at: null });
    await mgmt.commits.promoteAll({ to_environment: 'production', resource_type: 'audience' } as never);
    expect(await mgmt.audiences.retrieve('vip', prod)).toMatchObject({ key: 'vip', name: 'VIP', environment: 'production' });
  });

  it('rebuilds the configuration and commit read models from the log to exactly the live result', async () => {
    const { live, rebuilt } = await rebuildAndCompare(t, ['config-resources', 'commits']);
    expect(live.rm_config_resources.length).toBeGreaterThan(3);
    expect(live.rm_commits.length).toBeGreaterThan(2);
    expect(rebuilt).toEqual(live);
  });
});
