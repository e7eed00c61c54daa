import KnockMgmt from '@knocklabs/mgmt';
import { workflowRunStream } from '@notify/domain';
import { rebuildAndCompare } from '../../../../test/support/rebuild';
import { eventually } from '../../../../test/support/runs';
import { startTestApp, TestApp } from '../../../../test/support/test-app';

/** Branches (ADR 0156): an isolated configuration space off development, rebased onto it and merged into it. */
describe('branches', () => {
  let t: TestApp;
  let mgmt: KnockMgmt;
  const dev = { environment: 'development' };
  const svc = (method: string, path: string, body?: unknown) => t.http(method, path, { key: t.serviceToken, body });
  const feed = (name: string, body: string) => ({
    workflow: { name, steps: [{ type: 'channel', ref: 'feed', channel_key: 'in-app', template: { markdown_body: body } }] },
  });
  /** The feed body of a workflow as GET answers it. */
  const bodyOf = (res: { body: { steps: { template: { markdown_body: string } }[] } }) => res.body.steps[0].template.markdown_body;

  beforeAll(async () => {
    t = await startTestApp();
    mgmt = t.mgmt();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('creates a branch with the committed configuration, edits and commits there, rebases and merges into development', async () => {
    expect((await svc('PUT', '/v1/workflows/welcome?environment=development&commit=true', feed('Welcome', 'v1'))).status).toBe(200);

    const created = await mgmt.branches.create('feat-1', dev);
    expect(created).toEqual({
      slug: 'feat-1',
      created_at: expect.any(String),
      updated_at: expect.any(String),
      deleted_at: null,
      last_commit_at: null,
    });
    expect(await mgmt.branches.retrieve('feat-1', dev)).toMatchObject({ slug: 'feat-1' });

    // The branch starts with development's committed version, and its edits stay in it.
    const inBranch = await svc('GET', '/v1/workflows/welcome?environment=development&branch=feat-1');
    expect(inBranch.status).toBe(200);
    expect(inBranch.body).toMatchObject({ environment: 'development', valid: true });
    expect((await svc('PUT', '/v1/workflows/welcome?environment=development&branch=feat-1', feed('Welcome', 'branch'))).status).toBe(200);
    expect(bodyOf(await svc('GET', '/v1/workflows/welcome?environment=development&branch=feat-1'))).toBe('branch');
    expect(bodyOf(await svc('GET', '/v1/workflows/welcome?environment=development'))).toBe('v1');
    await mgmt.commits.commitAll({ ...dev, branch: 'feat-1', commit_message: 'Branch copy' });
    const branchCommits: string[] = [];
    for await (const c of mgmt.commits.list({ ...dev, branch: 'feat-1' }))
      branchCommits.push(`${c.resource.identifier}:${c.commit_message}`);
    expect(branchCommits).toEqual(['welcome:Branch copy']);
    expect((await mgmt.branches.retrieve('feat-1', dev)).last_commit_at).toEqual(expect.any(String));

    // Development moves on: a rebase brings its new workflow and keeps the branch's own version of welcome.
    await svc('PUT', '/v1/workflows/digest?environment=development&commit=true', feed('Digest', 'd1'));
    expect((await svc('GET', '/v1/workflows/digest?environment=development&branch=feat-1')).status).toBe(404);
    const rebase = await svc('PUT', '/v1/branches/feat-1/rebase?environment=development');
    expect(rebase.status).toBe(200);
    expect(rebase.body.slug).toBe('feat-1');
    expect(bodyOf(await svc('GET', '/v1/workflows/digest?environment=development&branch=feat-1'))).toBe('d1');
    expect(bodyOf(await svc('GET', '/v1/workflows/welcome?environment=development&branch=feat-1'))).toBe('branch');

    // The merge (the Knock CLI's `branch merge`): development serves and has committed the branch's version.
    await mgmt.commits.promoteAll({ to_environment: 'development', branch: 'feat-1' });
    expect(bodyOf(await svc('GET', '/v1/workflows/welcome?environment=development&hide_uncommitted_changes=true'))).toBe('branch');
    // Development's own history knows the merged version: saving v1 again is a change.
    await svc('PUT', '/v1/workflows/welcome?environment=development', feed('Welcome', 'v1'));
    expect(bodyOf(await svc('GET', '/v1/workflows/welcome?environment=development'))).toBe('v1');

    const listed: string[] = [];
    for await (const b of mgmt.branches.list(dev)) listed.push(b.slug);
    expect(listed).toEqual(['feat-1']);

    await mgmt.branches.delete('feat-1', dev);
    const gone = await svc('GET', '/v1/branches/feat-1?environment=development');
    expect(gone.status).toBe(404);
    expect(gone.body.code).toBe('branch_not_found');
    expect((await svc('GET', '/v1/workflows/welcome?environment=development&branch=feat-1')).body.code).toBe('branch_not_found');

    // Made again, the branch is a new space with development's committed configuration.
    await mgmt.branches.create('feat-1', dev);
    expect(bodyOf(await svc('GET', '/v1/workflows/welcome?environment=development&branch=feat-1'))).toBe('branch');
    expect((await svc('GET', '/v1/commits?environment=development&branch=feat-1')).body.entries).toEqual([]);
  });

  it('refuses audience archiving and broadcast sends and schedules in a branch, as Knock does; the environment keeps its audience, nothing is sent', async () => {
    await svc('PUT', '/v1/audiences/beta?environment=development&commit=true', { audience: { type: 'static', name: 'Beta' } });
    await mgmt.branches.create('archiving', dev);
    const archived = await svc('DELETE', '/v1/audiences/beta?environment=development&branch=archiving');
    expect([archived.status, archived.body.code]).toEqual([400, 'branch_not_supported']);
    expect((await svc('GET', '/v1/audiences/beta?environment=development&branch=archiving')).status).toBe(200);
    const send = await svc('PUT', '/v1/broadcasts/news/send?environment=development&branch=archiving', {});
    expect([send.status, send.body.code]).toEqual([400, 'branch_not_supported']);
    expect(send.body).toMatchObject({ status: 400, type: expect.any(String), message: expect.stringContaining('branch') });

    // A broadcast saved in the branch (a draft is configuration) is still neither sent nor scheduled from it.
    const draft = { broadcast: { name: 'News', target_audience_key: 'beta', steps: feed('News', 'News').workflow.steps } };
    expect((await svc('PUT', '/v1/broadcasts/news?environment=development&branch=archiving', draft)).status).toBe(200);
    const sendSaved = await svc('PUT', '/v1/broadcasts/news/send?environment=development&branch=archiving', {});
    expect([sendSaved.status, sendSaved.body.code]).toEqual([400, 'branch_not_supported']);
    const later = new Date(Date.parse('2100-01-01T00:00:00Z')).toISOString();
    const scheduled = await svc('PUT', '/v1/broadcasts/news?environment=development&branch=archiving', {
      broadcast: { ...draft.broadcast, scheduled_at: later },
    });
    expect([scheduled.status, scheduled.body.code]).toEqual([400, 'branch_not_supported']);
    // Sources are not versioned and belong to the environment: not configured from a branch either.
    const source = await svc('PUT', '/v1/sources/app?environment=development&branch=archiving', {
      source: { name: 'App', environment_settings: { development: { mappings: [] } } },
    });
    expect([source.status, source.body.code]).toEqual([400, 'branch_not_supported']);
    const kept = await svc('GET', '/v1/broadcasts/news?environment=development&branch=archiving');
    expect(kept.body).toMatchObject({ key: 'news', status: 'draft' });
    expect(
      await t.sql("SELECT 1 FROM es_events WHERE event_type IN ('BroadcastScheduled', 'BroadcastSendStarted', 'BroadcastSent') LIMIT 1"),
    ).toEqual([]);
  });

  it("test-runs the branch's version of a workflow, in the environment's recipients and feeds (ADR 0226)", async () => {
    await svc('PUT', '/v1/workflows/tryout?environment=development&commit=true', feed('Tryout', 'from development'));
    await mgmt.branches.create('try-it', dev);
    await svc('PUT', '/v1/workflows/tryout?environment=development&branch=try-it', feed('Tryout', 'from the branch'));
    const run = await svc('PUT', '/v1/workflows/tryout/run?environment=development&branch=try-it', {
      recipients: [{ id: 'ada', name: 'Ada' }],
    });
    expect(run.status).toBe(200);
    const { workflow_run_id } = run.body as { workflow_run_id: string };
    const [triggered] = await t.store.readStream(workflowRunStream('development', workflow_run_id));
    expect(triggered.data).toMatchObject({ trigger_source: { type: 'test' }, workflow: { key: 'tryout' } });
    const content = await eventually(async () => {
      const rows = await t.sql<{ content: { blocks: { content: string }[] } }>(
        'SELECT content FROM rm_messages WHERE workflow_run_id = $1',
        [workflow_run_id],
      );
      return rows[0]?.content;
    });
    expect(content.blocks[0].content).toBe('from the branch');
    // Development still runs its own version.
    const main = await svc('PUT', '/v1/workflows/tryout/run?environment=development', { recipients: ['ada'] });
    const mainContent = await eventually(async () => {
      const rows = await t.sql<{ content: { blocks: { content: string }[] } }>(
        'SELECT content FROM rm_messages WHERE workflow_run_id = $1',
        [main.body.workflow_run_id],
      );
      return rows[0]?.content;
    });
    expect(mainContent.blocks[0].content).toBe('from development');
  });

  it('refuses bad slugs with 422 invalid_params, a second branch of one slug, and branches off a later environment', async () => {
    const bad = await svc('POST', '/v1/branches/not%20a%20slug?environment=development');
    expect(bad.status).toBe(422);
    expect(bad.body).toMatchObject({ code: 'invalid_params', errors: [expect.objectContaining({ field: 'branch_slug' })] });
    const badQuery = await svc('GET', '/v1/workflows?environment=development&branch=no!');
    expect(badQuery.status).toBe(422);
    expect(badQuery.body.errors.map((e: { field: string }) => e.field)).toContain('branch');

    expect((await svc('POST', '/v1/branches/twice?environment=development')).status).toBe(201);
    expect((await svc('POST', '/v1/branches/twice?environment=development')).status).toBe(409);
    expect((await svc('POST', '/v1/branches/later?environment=production')).status).toBe(400);
    expect((await svc('DELETE', '/v1/branches/never?environment=development')).status).toBe(404);
  });

  it('rebuilds the branches, configuration and commit read models from the log to exactly the live result', async () => {
    const { live, rebuilt } = await rebuildAndCompare(t, ['branches', 'config-resources', 'commits']);
    expect(live.rm_branches.length).toBeGreaterThan(1);
    expect(rebuilt).toEqual(live);
  });
});
