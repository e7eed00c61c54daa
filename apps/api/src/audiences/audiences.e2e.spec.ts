import Knock from '@knocklabs/node';
import { contentSha } from '@notify/application';
import { activeWorkflow, bodyOf, feed, finishedRuns, messagesOf, uniqueKey } from '../../../../test/support/engine';
import { rejection } from '../../../../test/support/recipients';
import { startTestApp, TestApp, TestEnvironment } from '../../../../test/support/test-app';

const memberIds = (entries: { user_id: string; tenant?: string | null }[]) => entries.map((m) => `${m.user_id}/${m.tenant ?? '-'}`).sort();

describe('audience members through @knocklabs/node', () => {
  let t: TestApp;
  let env: TestEnvironment;
  let knock: Knock;

  beforeAll(async () => {
    t = await startTestApp();
    env = await t.newEnvironment();
    knock = t.knock(env.secretKey);
  });
  afterAll(async () => t?.close());

  it('refuses members for an unknown audience without create_audience, writing nothing', async () => {
    const refused = await rejection(knock.audiences.addMembers('nobody-here', { members: [{ user: { id: 'ghost' } }] }));
    expect(refused.status).toBe(404);
    expect(refused.error).toMatchObject({ code: 'resource_missing', status: 404 });
    expect(await rejection(knock.users.get('ghost'))).toMatchObject({ status: 404 });
    expect(await rejection(knock.audiences.listMembers('nobody-here'))).toMatchObject({ status: 404 });
    expect(await rejection(knock.audiences.removeMembers('nobody-here', { members: [{ user: { id: 'ghost' } }] }))).toMatchObject({
      status: 404,
    });
  });

  it('creates the audience on request, identifies users inline and lists members with user and tenant', async () => {
    await knock.audiences.addMembers(
      'beta',
      { members: [{ user: { id: 'ellie', name: 'Ellie', email: 'ellie@example.com' }, tenant: 'acme' }, { user: { id: 'alan' } }] },
      { query: { create_audience: true } },
    );
    expect(await knock.users.get('ellie')).toMatchObject({ name: 'Ellie', email: 'ellie@example.com' });
    const listed = await knock.audiences.listMembers('beta');
    expect(memberIds(listed.entries)).toEqual(['alan/-', 'ellie/acme']);
    const ellie = listed.entries.find((m) => m.user_id === 'ellie');
    expect(ellie).toMatchObject({ __typename: 'AudienceMember', tenant: 'acme', user: { id: 'ellie', name: 'Ellie' } });
    expect(Number.isNaN(Date.parse(ellie!.added_at))).toBe(false);
    // The audience exists now: adding without create_audience works, and a repeat changes nothing.
    await knock.audiences.addMembers('beta', { members: [{ user: { id: 'alan' } }, { user: { id: 'alan' }, tenant: 'acme' }] });
    expect(memberIds((await knock.audiences.listMembers('beta')).entries)).toEqual(['alan/-', 'alan/acme', 'ellie/acme']);
  });

  it('removes exactly the (user, tenant) pairs named, ignoring members it does not hold', async () => {
    await knock.audiences.addMembers(
      'removals',
      { members: [{ user: { id: 'r1' } }, { user: { id: 'r1' }, tenant: 't1' }, { user: { id: 'r2' } }] },
      { query: { create_audience: true } },
    );
    await knock.audiences.removeMembers('removals', {
      members: [{ user: { id: 'r1' }, tenant: 't1' }, { user: { id: 'r2' } }, { user: { id: 'never-added' } }],
    });
    expect(memberIds((await knock.audiences.listMembers('removals')).entries)).toEqual(['r1/-']);
  });

  it('pages members with cursors', async () => {
    const ids = ['p1', 'p2', 'p3', 'p4', 'p5'];
    await knock.audiences.addMembers('paged', { members: ids.map((id) => ({ user: { id } })) }, { query: { create_audience: true } });
    const seen: string[] = [];
    let after: string | null = null;
    do {
      const page: { status: number; body: { entries: { user_id: string }[]; page_info: { after: string | null } } } = await t.http(
        'GET',
        `/v1/audiences/paged/members?page_size=2${after ? `&after=${after}` : ''}`,
        { key: env.secretKey },
      );
      expect(page.status).toBe(200);
      expect(page.body.entries.length).toBeLessThanOrEqual(2);
      seen.push(...page.body.entries.map((m) => m.user_id));
      after = page.body.page_info.after;
    } while (after);
    expect(seen.sort()).toEqual(ids);
  });

  it('refuses more members than the bulk limit and malformed members with invalid_params', async () => {
    const tooMany = Array.from({ length: 1001 }, (_, i) => ({ user: { id: `bulk-${i}` } }));
    const refused = await rejection(knock.audiences.addMembers('beta', { members: tooMany }));
    expect(refused.status).toBe(422);
    expect(refused.error).toMatchObject({ code: 'invalid_params', errors: [expect.objectContaining({ field: 'members' })] });
    const noUser = await rejection(knock.audiences.addMembers('beta', { members: [{ tenant: 'acme' } as never] }));
    expect(noUser.status).toBe(422);
    expect(await rejection(knock.users.get('bulk-0'))).toMatchObject({ status: 404 });
    // A bad member after a good one: the whole call is refused before any user is written.
    const badChannel = await rejection(
      knock.audiences.addMembers('beta', {
        members: [
          { user: { id: 'first-fine' } },
          { user: { id: 'second-bad', channel_data: { '00000000-0000-4000-8000-000000000000': { tokens: ['x'] } } } },
        ],
      }),
    );
    expect(badChannel.status).toBe(422);
    expect(badChannel.error.errors[0].field).toMatch(/^members\.1\.user\.channel_data\./);
    expect(await rejection(knock.users.get('first-fine'))).toMatchObject({ status: 404 });
  });

  it('removes the memberships of a deleted user', async () => {
    await knock.audiences.addMembers(
      'leavers',
      { members: [{ user: { id: 'stay' } }, { user: { id: 'go' }, tenant: 'acme' }] },
      { query: { create_audience: true } },
    );
    await knock.users.delete('go');
    expect(memberIds((await knock.audiences.listMembers('leavers')).entries)).toEqual(['stay/-']);
    const rows = await t.sql<{ n: number }>('SELECT count(*)::int AS n FROM rm_audience_members WHERE user_id = $1', ['go']);
    expect(rows[0].n).toBe(0);
  });

  it("moves a merged user's memberships to the user it is merged into", async () => {
    await knock.audiences.addMembers(
      'mergers',
      { members: [{ user: { id: 'merge-from' }, tenant: 'acme' }, { user: { id: 'merge-into' } }] },
      { query: { create_audience: true } },
    );
    await knock.users.merge('merge-into', { from_user_id: 'merge-from' });
    expect(memberIds((await knock.audiences.listMembers('mergers')).entries)).toEqual(['merge-into/-', 'merge-into/acme']);
  });

  it('management API: a static audience upserted, got, listed and validated takes members without create_audience', async () => {
    const mgmt = t.mgmt();
    const environment = env.slug;
    const upserted = await mgmt.audiences.upsert('newsletter', {
      environment,
      audience: { type: 'static', name: 'Newsletter', description: 'Weekly' },
    } as never);
    expect(upserted).toMatchObject({
      audience: { key: 'newsletter', type: 'static', name: 'Newsletter', description: 'Weekly', environment },
    });
    expect(await mgmt.audiences.retrieve('newsletter', { environment })).toMatchObject({ key: 'newsletter', name: 'Newsletter' });
    const listed = await mgmt.audiences.list({ environment });
    expect(listed.entries.map((a) => a.key)).toContain('newsletter');
    const validated = await mgmt.audiences.validate('newsletter', { environment, audience: { type: 'static', name: 'Renamed' } } as never);
    expect(validated).toMatchObject({ audience: { name: 'Renamed' } });
    expect(await mgmt.audiences.retrieve('newsletter', { environment })).toMatchObject({ name: 'Newsletter' });
    await knock.audiences.addMembers('newsletter', { members: [{ user: { id: 'reader' } }] });
    expect(memberIds((await knock.audiences.listMembers('newsletter')).entries)).toEqual(['reader/-']);
    // A type other than static or dynamic is refused (dynamic audiences: dynamic-audiences.e2e.spec.ts).
    const unknownType = await rejection(
      mgmt.audiences.upsert('segment', { environment, audience: { type: 'computed', name: 'Pro' } } as never),
    );
    expect(unknownType.status).toBe(422);
    expect(unknownType.error).toMatchObject({ code: 'invalid_params' });
  });

  it('management API: an audience made by create_audience is a static audience until defined or archived', async () => {
    const mgmt = t.mgmt();
    const environment = env.slug;
    await knock.audiences.addMembers('walk-ins', { members: [{ user: { id: 'walker' } }] }, { query: { create_audience: true } });

    const content = { type: 'static', name: 'walk-ins', description: null };
    const shown = await mgmt.audiences.retrieve('walk-ins', { environment });
    expect(shown).toMatchObject({ key: 'walk-ins', ...content, environment, sha: contentSha(content) });
    expect(shown.created_at).toBe(shown.updated_at);
    // Not a version waiting for a commit: listed with uncommitted changes hidden too, once.
    for (const hide_uncommitted_changes of [false, true]) {
      const keys = (await mgmt.audiences.list({ environment, hide_uncommitted_changes })).entries.map((a) => a.key);
      expect(keys.filter((k) => k === 'walk-ins')).toHaveLength(1);
    }
    expect(await rejection(mgmt.audiences.retrieve('walk-ins', { environment: (await t.newEnvironment()).slug }))).toMatchObject({
      status: 404,
    });

    // Defined through the management API, the definition is what is shown, still once, members
    // kept, created when the members call created it; until it is committed, the committed view
    // shows the audience as it was.
    await mgmt.audiences.upsert('walk-ins', {
      environment,
      audience: { type: 'static', name: 'Walk-ins', description: 'Came by' },
    } as never);
    expect(await mgmt.audiences.retrieve('walk-ins', { environment })).toMatchObject({
      name: 'Walk-ins',
      description: 'Came by',
      created_at: shown.created_at,
    });
    expect(await mgmt.audiences.retrieve('walk-ins', { environment, hide_uncommitted_changes: true })).toMatchObject({
      name: 'walk-ins',
      sha: shown.sha,
    });
    const committedKeys = (await mgmt.audiences.list({ environment, hide_uncommitted_changes: true })).entries.map((a) => a.key);
    expect(committedKeys).toContain('walk-ins');
    const defined = (await mgmt.audiences.list({ environment })).entries.filter((a) => a.key === 'walk-ins');
    expect(defined).toEqual([expect.objectContaining({ name: 'Walk-ins' })]);
    expect(memberIds((await knock.audiences.listMembers('walk-ins')).entries)).toEqual(['walker/-']);

    // One made by a members call alone leaves the listings when archived.
    await knock.audiences.addMembers('drop-ins', { members: [{ user: { id: 'dropper' } }] }, { query: { create_audience: true } });
    expect((await mgmt.audiences.list({ environment })).entries.map((a) => a.key)).toContain('drop-ins');
    expect(await mgmt.audiences.archive('drop-ins', { environment })).toEqual({ result: 'success' });
    expect((await mgmt.audiences.list({ environment })).entries.map((a) => a.key)).not.toContain('drop-ins');
    expect(await rejection(mgmt.audiences.retrieve('drop-ins', { environment }))).toMatchObject({ status: 404 });
  });

  it('management API: archiving leaves the lists, answers 404 for members, and a later create starts empty', async () => {
    const mgmt = t.mgmt();
    const environment = env.slug;
    await mgmt.audiences.upsert('archived-news', { environment, audience: { type: 'static', name: 'Old news' } } as never);
    await knock.audiences.addMembers('archived-news', { members: [{ user: { id: 'old-reader' } }] });
    // The same key in another environment, created by a members call: archived too ("across all environments").
    const other = await t.newEnvironment();
    const otherKnock = t.knock(other.secretKey);
    await otherKnock.audiences.addMembers(
      'archived-news',
      { members: [{ user: { id: 'elsewhere' } }] },
      { query: { create_audience: true } },
    );

    expect(await mgmt.audiences.archive('archived-news', { environment })).toEqual({ result: 'success' });

    expect((await mgmt.audiences.list({ environment })).entries.map((a) => a.key)).not.toContain('archived-news');
    expect(await rejection(mgmt.audiences.retrieve('archived-news', { environment }))).toMatchObject({ status: 404 });
    const listing = await rejection(knock.audiences.listMembers('archived-news'));
    expect(listing.status).toBe(404);
    expect(listing.error).toMatchObject({ code: 'resource_missing', status: 404 });
    expect(await rejection(otherKnock.audiences.listMembers('archived-news'))).toMatchObject({ status: 404 });
    expect(await rejection(knock.audiences.addMembers('archived-news', { members: [{ user: { id: 'late' } }] }))).toMatchObject({
      status: 404,
    });
    const rows = await t.sql<{ n: number }>('SELECT count(*)::int AS n FROM rm_audience_members WHERE audience_key = $1', [
      'archived-news',
    ]);
    expect(rows[0].n).toBe(0);
    // Archived already (everywhere): a second archive finds nothing.
    const again = await rejection(mgmt.audiences.archive('archived-news', { environment }));
    expect(again.status).toBe(404);
    expect(again.error).toMatchObject({ code: 'resource_missing' });

    // Created again, it starts with no members; upserted again, it is listed again.
    await otherKnock.audiences.addMembers('archived-news', { members: [{ user: { id: 'fresh' } }] }, { query: { create_audience: true } });
    expect(memberIds((await otherKnock.audiences.listMembers('archived-news')).entries)).toEqual(['fresh/-']);
    await mgmt.audiences.upsert('archived-news', { environment, audience: { type: 'static', name: 'Old news' } } as never);
    expect((await mgmt.audiences.list({ environment })).entries.map((a) => a.key)).toContain('archived-news');
    expect((await knock.audiences.listMembers('archived-news')).entries).toEqual([]);
  });

  describe('is_audience_member in workflow conditions', () => {
    const member = (key: string) => ({ variable: 'recipient', operator: 'is_audience_member', argument: key });
    let dev: Knock;
    const route = uniqueKey('audience-branch');
    const gated = uniqueKey('audience-gated');

    beforeAll(async () => {
      dev = t.knock();
      await dev.audiences.addMembers(
        'vip',
        { members: [{ user: { id: 'aud-vip', name: 'Vip' } }, { user: { id: 'aud-acme', name: 'Acme' }, tenant: 'acme' }] },
        { query: { create_audience: true } },
      );
      await activeWorkflow(t, route, {
        steps: [
          {
            type: 'branch',
            ref: 'route',
            branches: [
              { name: 'vip', conditions: { all: [member('vip')] }, steps: [feed('vip', 'VIP')] },
              { name: 'default', steps: [feed('plain', 'PLAIN')] },
            ],
          },
          feed('not-vip', 'NOT VIP', {
            conditions: { all: [{ variable: 'recipient', operator: 'is_not_audience_member', argument: 'vip' }] },
          }),
        ],
      });
      await activeWorkflow(t, gated, { conditions: { all: [member('vip')] }, steps: [feed('only', 'ONLY')] });
    });

    const bodies = async (workflowRunId: string) => (await messagesOf(t, workflowRunId)).map(bodyOf).sort();

    it('a member takes the branch; a non-member takes the default and passes the step condition', async () => {
      const { workflow_run_id } = await dev.workflows.trigger(route, { recipients: ['aud-vip', { id: 'aud-plain' }] });
      const runs = await finishedRuns(t, workflow_run_id, 2);
      expect(runs.map((r) => r.steps.route.output).sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)))).toEqual([
        { branch: 'default' },
        { branch: 'vip' },
      ]);
      expect(await bodies(workflow_run_id)).toEqual(['NOT VIP', 'PLAIN', 'VIP']);
    });

    it("a tenant's membership counts only in runs of that tenant", async () => {
      const inAcme = await dev.workflows.trigger(route, { recipients: ['aud-acme'], tenant: 'acme' });
      await finishedRuns(t, inAcme.workflow_run_id);
      expect(await bodies(inAcme.workflow_run_id)).toEqual(['VIP']);
      const elsewhere = await dev.workflows.trigger(route, { recipients: ['aud-acme'] });
      await finishedRuns(t, elsewhere.workflow_run_id);
      expect(await bodies(elsewhere.workflow_run_id)).toEqual(['NOT VIP', 'PLAIN']);
    });

    it('workflow conditions halt the runs of non-members, and a member removed no longer passes', async () => {
      const first = await dev.workflows.trigger(gated, { recipients: ['aud-vip', 'aud-plain'] });
      const runs = await finishedRuns(t, first.workflow_run_id, 2);
      expect(runs.map((r) => r.completed?.reason ?? null).sort()).toEqual([null, 'workflow_conditions_not_met']);
      expect(await bodies(first.workflow_run_id)).toEqual(['ONLY']);
      await dev.audiences.removeMembers('vip', { members: [{ user: { id: 'aud-vip' } }] });
      const after = await dev.workflows.trigger(gated, { recipients: ['aud-vip'] });
      const [halted] = await finishedRuns(t, after.workflow_run_id);
      expect(halted.completed).toMatchObject({ outcome: 'halted', reason: 'workflow_conditions_not_met' });
    });
  });
});
