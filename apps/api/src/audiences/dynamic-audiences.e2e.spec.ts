import Knock from '@knocklabs/node';
import KnockMgmt from '@knocklabs/mgmt';
import { activeWorkflow, bodyOf, feed, finishedRuns, messagesOf, settled, uniqueKey } from '../../../../test/support/engine';
import { ensureFirstRunConfiguration, issueApiKey } from '@notify/application';
import { countEvents, eventually, rejection } from '../../../../test/support/recipients';
import { startTestApp, TestApp } from '../../../../test/support/test-app';

const DAY = 86_400_000;

/**
 * Dynamic audiences (issue 17, ADR 0138): members follow the segments as users are identified,
 * updated and deleted, and as the definition changes; conditions over the time (created within
 * 30 days) hold as time passes; `is_audience_member` sees them; members cannot be added by hand.
 */
describe('dynamic audiences through @knocklabs/mgmt and @knocklabs/node', () => {
  let t: TestApp;
  let knock: Knock;
  let mgmt: KnockMgmt;
  const environment = 'development';

  const upsert = (key: string, segments: unknown[]) =>
    mgmt.audiences.upsert(key, { environment, audience: { type: 'dynamic', name: key, segments } } as never);
  const members = async (key: string) => {
    await settled(t);
    return (await knock.audiences.listMembers(key)).entries.map((m) => m.user_id).sort();
  };

  beforeAll(async () => {
    t = await startTestApp();
    knock = t.knock();
    mgmt = t.mgmt();
  });
  afterAll(async () => t?.close());

  it('answers the definition with its segments, and lists the users its segments hold', async () => {
    const segments = [{ conditions: [{ property: 'recipient.plan', operator: 'equal_to', argument: 'pro' }] }];
    const upserted = await upsert('pros', segments);
    expect(upserted).toMatchObject({ audience: { key: 'pros', type: 'dynamic', segments, environment } });
    expect(await mgmt.audiences.retrieve('pros', { environment })).toMatchObject({ type: 'dynamic', segments });
    await knock.users.update('dyn-pro', { name: 'Pro', plan: 'pro' } as never);
    await knock.users.update('dyn-free', { name: 'Free', plan: 'free' } as never);
    expect(await members('pros')).toEqual(['dyn-pro']);
    const [entry] = (await knock.audiences.listMembers('pros')).entries;
    expect(entry).toMatchObject({ __typename: 'AudienceMember', user_id: 'dyn-pro', tenant: null, user: { id: 'dyn-pro', name: 'Pro' } });
  });

  it('follows the users: an update moves them in and out, a deleted user leaves', async () => {
    await knock.users.update('dyn-free', { plan: 'pro' } as never);
    expect(await members('pros')).toEqual(['dyn-free', 'dyn-pro']);
    await knock.users.update('dyn-pro', { plan: 'team' } as never);
    expect(await members('pros')).toEqual(['dyn-free']);
    await knock.users.delete('dyn-free');
    expect(await members('pros')).toEqual([]);
  });

  it('a changed definition re-evaluates every user, and a user added before the audience existed counts', async () => {
    await knock.users.update('dyn-early', { plan: 'team' } as never);
    await upsert('teams', [{ conditions: [{ property: 'recipient.plan', operator: 'equal_to', argument: 'team' }] }]);
    expect(await members('teams')).toEqual(['dyn-early', 'dyn-pro']);
    await upsert('teams', [
      {
        conditions: [
          { property: 'recipient.plan', operator: 'equal_to', argument: 'team' },
          { property: 'recipient.name', operator: 'exists' },
        ],
      },
    ]);
    expect(await members('teams')).toEqual(['dyn-pro']);
  });

  it('a segment over the time holds for users created in the last 30 days, by the time of the read', async () => {
    const now = Date.now();
    await upsert('recent', [{ conditions: [{ property: 'recipient.created_at', operator: 'greater_than', argument: '30_days_ago' }] }]);
    await knock.users.update('dyn-new', { created_at: new Date(now - 10 * DAY).toISOString() } as never);
    await knock.users.update('dyn-old', { created_at: new Date(now - 40 * DAY).toISOString() } as never);
    expect(await members('recent')).toEqual(['dyn-new']);
    // The stored window ends 30 days after creation: no re-evaluation needed as time passes.
    const [row] = await t.sql<{ member_until: Date | null }>(
      `SELECT member_until FROM rm_dynamic_audience_members WHERE environment = $1 AND audience_key = 'recent' AND user_id = 'dyn-new'`,
      [environment],
    );
    expect(row.member_until?.getTime()).toBe(Date.parse(new Date(now - 10 * DAY).toISOString()) + 30 * DAY);
  });

  it("a user's audiences answer when time alone ends a dynamic membership, across segments and the tenant's side", async () => {
    const now = Date.now();
    const created = new Date(now - 10 * DAY).toISOString();
    const [key, ends, user, tenant] = [uniqueKey('chained'), uniqueKey('trial-tenants'), uniqueKey('dyn-span'), uniqueKey('trial')];
    // Created within 30 days, or between 60 and 20 days ago: the second begins before the first ends.
    await upsert(key, [
      { conditions: [{ property: 'recipient.created_at', operator: 'greater_than', argument: '30_days_ago' }] },
      {
        conditions: [
          { property: 'recipient.created_at', operator: 'less_than', argument: '20_days_ago' },
          { property: 'recipient.created_at', operator: 'greater_than', argument: '60_days_ago' },
        ],
      },
    ]);
    const trialEnds = new Date(now + 5 * DAY).toISOString();
    await knock.tenants.set(tenant, { trial_ends_at: trialEnds } as never);
    await upsert(ends, [{ conditions: [{ property: 'tenant.trial_ends_at', operator: 'is_timestamp_on_or_after_now' }] }]);
    const before = Date.now();
    await knock.users.update(user, { created_at: created, plan: 'pro' } as never);
    await settled(t);
    const res = await t.http('GET', `/v1/users/${user}/audiences`);
    expect(res.status).toBe(200);
    const entry = (audience: string, tenantId: string | null = null) =>
      res.body.entries.find((e: { audience_key: string; tenant: string | null }) => e.audience_key === audience && e.tenant === tenantId);
    expect(entry(key)).toEqual({
      audience_key: key,
      kind: 'dynamic',
      tenant: null,
      added_at: expect.any(String),
      until: new Date(Date.parse(created) + 60 * DAY).toISOString(),
    });
    expect(Date.parse(entry(key).added_at)).toBeGreaterThanOrEqual(before - 1000);
    // The tenant side's window bounds the membership in that tenant; the user side is open.
    expect(entry(ends, tenant)).toMatchObject({ kind: 'dynamic', until: new Date(Date.parse(trialEnds) + 1).toISOString() });
    // A segment with no time condition holds on: open-ended.
    expect(entry('pros')).toMatchObject({ kind: 'dynamic', until: null });
  });

  it('is_audience_member in a branch sees dynamic members', async () => {
    const key = uniqueKey('dyn-branch');
    await upsert('vips', [{ conditions: [{ property: 'recipient.vip', operator: 'equal_to', argument: 'true' }] }]);
    await knock.users.update('dyn-vip', { vip: true } as never);
    await knock.users.update('dyn-plain', { vip: false } as never);
    await settled(t);
    await activeWorkflow(t, key, {
      steps: [
        {
          type: 'branch',
          ref: 'route',
          branches: [
            {
              name: 'vip',
              conditions: { all: [{ variable: 'recipient', operator: 'is_audience_member', argument: 'vips' }] },
              steps: [feed('vip', 'VIP')],
            },
            { name: 'default', steps: [feed('plain', 'PLAIN')] },
          ],
        },
      ],
    });
    const { workflow_run_id } = await knock.workflows.trigger(key, { recipients: ['dyn-vip', 'dyn-plain'] });
    await finishedRuns(t, workflow_run_id, 2);
    expect((await messagesOf(t, workflow_run_id)).map((m) => `${m.recipient_id}:${bodyOf(m)}`).sort()).toEqual([
      'dyn-plain:PLAIN',
      'dyn-vip:VIP',
    ]);
  });

  it('conditions on the tenant: members within the tenants that meet them, kept current as tenants change (ADR 0202)', async () => {
    const [pro, free] = [uniqueKey('tpro'), uniqueKey('tfree')];
    const [admin, member] = [uniqueKey('tadmin'), uniqueKey('tmember')];
    await knock.tenants.set(pro, { name: 'Pro', plan: 'pro' } as never);
    await knock.tenants.set(free, { name: 'Free', plan: 'free' } as never);
    await knock.users.update(admin, { role: 'admin' } as never);
    await knock.users.update(member, { role: 'member' } as never);
    const key = uniqueKey('pro-admins');
    await upsert(key, [
      {
        conditions: [
          { property: 'tenant.plan', operator: 'equal_to', argument: 'pro' },
          { property: 'recipient.role', operator: 'equal_to', argument: 'admin' },
        ],
      },
    ]);
    const pairs = async () => {
      await settled(t);
      return (await knock.audiences.listMembers(key)).entries.map((m) => `${m.user_id}@${m.tenant}`).sort();
    };
    expect(await pairs()).toEqual([`${admin}@${pro}`]);
    // The tenant changes, not the user: the projection follows it.
    await knock.tenants.set(free, { plan: 'pro' } as never);
    expect(await pairs()).toEqual([`${admin}@${free}`, `${admin}@${pro}`].sort());
    await knock.tenants.delete(pro);
    expect(await pairs()).toEqual([`${admin}@${free}`]);

    // is_audience_member asks in the run's tenant: a member in `free`, not in a run without tenant.
    const workflow = uniqueKey('tenant-branch');
    await activeWorkflow(t, workflow, {
      steps: [
        {
          type: 'branch',
          ref: 'route',
          branches: [
            {
              name: 'in',
              conditions: { all: [{ variable: 'recipient', operator: 'is_audience_member', argument: key }] },
              steps: [feed('in', 'IN')],
            },
            { name: 'default', steps: [feed('out', 'OUT')] },
          ],
        },
      ],
    });
    const inTenant = (await knock.workflows.trigger(workflow, { recipients: [admin, member], tenant: free })).workflow_run_id!;
    const noTenant = (await knock.workflows.trigger(workflow, { recipients: [admin] })).workflow_run_id!;
    await finishedRuns(t, inTenant, 2);
    await finishedRuns(t, noTenant, 1);
    expect((await messagesOf(t, inTenant)).map((m) => `${m.recipient_id}:${bodyOf(m)}`).sort()).toEqual(
      [`${admin}:IN`, `${member}:OUT`].sort(),
    );
    expect((await messagesOf(t, noTenant)).map((m) => bodyOf(m))).toEqual(['OUT']);
  });

  it('a run in a tenant never set: conditions see the tenant as its id alone (ADR 0232)', async () => {
    const ghost = uniqueKey('ghost');
    const admin = uniqueKey('gadmin');
    await knock.users.update(admin, { role: 'admin' } as never);
    // Tenant conditions of a dynamic audience: one on a property the tenant lacks, one on its id.
    const [unplanned, byId] = [uniqueKey('unplanned'), uniqueKey('by-id')];
    await upsert(unplanned, [
      {
        conditions: [
          { property: 'tenant.plan', operator: 'not_exists' },
          { property: 'recipient.role', operator: 'equal_to', argument: 'admin' },
        ],
      },
    ]);
    await upsert(byId, [{ conditions: [{ property: 'tenant.id', operator: 'equal_to', argument: ghost }] }]);
    await settled(t);
    const when = (variable: string, operator: string, argument?: string) => ({
      all: [{ variable, operator, ...(argument === undefined ? {} : { argument }) }],
    });
    const workflow = uniqueKey('ghost-tenant');
    await activeWorkflow(t, workflow, {
      steps: [
        feed('id', 'ID', { conditions: when('tenant.id', 'equal_to', ghost) }),
        feed('plan', 'PLAN', { conditions: when('tenant.plan', 'exists') }),
        feed('no-plan', 'NO PLAN', { conditions: when('tenant.plan', 'not_exists') }),
        feed('pro', 'PRO', { conditions: when('tenant.plan', 'equal_to', 'pro') }),
        feed('unplanned', 'UNPLANNED', { conditions: when('recipient', 'is_audience_member', unplanned) }),
        feed('by-id', 'BY ID', { conditions: when('recipient', 'is_audience_member', byId) }),
      ],
    });
    const run = (await knock.workflows.trigger(workflow, { recipients: [admin], tenant: ghost })).workflow_run_id!;
    await finishedRuns(t, run, 1);
    const bodies = (await messagesOf(t, run)).map((m) => bodyOf(m)).sort();
    expect(bodies).toEqual(['BY ID', 'ID', 'NO PLAN', 'UNPLANNED']);
    // Still never set: the tenants API does not know it.
    expect((await rejection(knock.tenants.get(ghost))).status).toBe(404);
  });

  it('a promoted audience is defined in the target environment: members API, dynamic members and broadcasts work there', async () => {
    const prod = 'production';
    const issued = await issueApiKey(t.store, { environment: prod, kind: 'secret' }, { environment: prod, actor: 'test' });
    const prodKnock = t.knock(issued.key);
    // Production's settings of the in-app channel (as its first run writes them).
    await ensureFirstRunConfiguration(t.store, prod, { actor: 'test' });
    await eventually(
      () => t.http('GET', '/v1/users/nobody', { key: issued.key }),
      (r) => r.status !== 401,
    );
    const [staticKey, dynamicKey] = [uniqueKey('promoted-static'), uniqueKey('promoted-dyn')];
    await mgmt.audiences.upsert(staticKey, { environment, audience: { type: 'static', name: 'Promoted' } } as never);
    await upsert(dynamicKey, [{ conditions: [{ property: 'recipient.plan', operator: 'equal_to', argument: 'gold' }] }]);
    await mgmt.commits.commitAll({ environment, commit_message: 'audiences' });
    await mgmt.commits.promoteAll({ to_environment: prod });

    // Static: members are added without create_audience and listed; a broadcast there reaches them.
    const member = uniqueKey('pm');
    await prodKnock.audiences.addMembers(staticKey, { members: [{ user: { id: member, name: 'M' } }] });
    await settled(t);
    expect((await prodKnock.audiences.listMembers(staticKey)).entries.map((m) => m.user_id)).toEqual([member]);
    const broadcast = uniqueKey('prod-bc');
    const draft = await mgmt.broadcasts.upsert(broadcast, {
      environment: prod,
      broadcast: { name: 'Prod', target_audience_key: staticKey, steps: [feed('feed', 'Hi')] },
    } as never);
    expect(draft).toMatchObject({ broadcast: { valid: true } });
    await mgmt.broadcasts.send(broadcast, { environment: prod });
    const sent = await eventually(
      () => mgmt.broadcasts.retrieve(broadcast, { environment: prod }) as Promise<any>,
      (b) => b.send_status === 'sent' && b.counts.messages === 1,
    );
    expect(sent.counts.recipients).toBe(1);

    // Dynamic: its members are production's users that meet it; adding by hand is refused.
    const gold = uniqueKey('gold');
    await prodKnock.users.update(gold, { plan: 'gold' } as never);
    await settled(t);
    expect((await prodKnock.audiences.listMembers(dynamicKey)).entries.map((m) => m.user_id)).toEqual([gold]);
    expect((await rejection(prodKnock.audiences.addMembers(dynamicKey, { members: [{ user: { id: gold } }] }))).status).toBe(422);

    // Archived (in every environment): gone in production too, and its dynamic members with it.
    await mgmt.audiences.archive(dynamicKey, { environment } as never);
    expect((await rejection(prodKnock.audiences.listMembers(dynamicKey))).status).toBe(404);
    await settled(t);
    expect(await t.sql('SELECT 1 FROM rm_dynamic_audience_members WHERE audience_key = $1', [dynamicKey])).toEqual([]);
  });

  it('refuses members added or removed by hand, writing nothing', async () => {
    await settled(t);
    const before = await countEvents(t);
    const added = await rejection(knock.audiences.addMembers('pros', { members: [{ user: { id: 'dyn-manual', name: 'Manual' } }] }));
    expect(added.status).toBe(422);
    expect(added.error).toMatchObject({ code: 'invalid_params', errors: [expect.objectContaining({ field: 'audience_key' })] });
    const removed = await rejection(knock.audiences.removeMembers('pros', { members: [{ user: { id: 'dyn-pro' } }] }));
    expect(removed.status).toBe(422);
    expect(await countEvents(t)).toBe(before);
  });

  it.each([
    ['an unknown operator', { property: 'recipient.plan', operator: 'resembles', argument: 'pro' }, 'operator'],
    ['a malformed property path', { property: 'plan..x', operator: 'equal_to', argument: 'pro' }, 'property'],
    ['a property outside the user', { property: 'data.plan', operator: 'equal_to', argument: 'pro' }, 'property'],
    ['membership of another audience', { property: 'recipient', operator: 'is_audience_member', argument: 'pros' }, 'operator'],
    ['a missing argument', { property: 'recipient.plan', operator: 'equal_to' }, 'argument'],
    [
      'an unreadable relative time',
      { property: 'recipient.created_at', operator: 'greater_than', argument: 'banana_days_ago' },
      'argument',
    ],
    [
      'an unreadable relative time as a bound',
      { property: 'recipient.trial_ends_at', operator: 'is_timestamp_between', argument: 'now, 2 weeks from now' },
      'argument',
    ],
  ])('refuses a segment with %s (422 naming the field)', async (_what, condition, field) => {
    const refused = await rejection(upsert('bad-segment', [{ conditions: [condition] }]));
    expect(refused.status).toBe(422);
    expect(refused.error.code).toBe('invalid_params');
    expect(refused.error.errors.map((p: { field: string }) => p.field)).toContainEqual(
      expect.stringMatching(new RegExp(`segments\\.0\\.conditions\\.0\\.${field}$`)),
    );
    expect(await rejection(mgmt.audiences.retrieve('bad-segment', { environment }))).toMatchObject({ status: 404 });
  });

  it('validates relative times as an upsert does, and takes text that only looks like one where no time is read (ADR 0265)', async () => {
    const validate = (segments: unknown[]) =>
      mgmt.audiences.validate('checked', { environment, audience: { type: 'dynamic', name: 'Checked', segments } } as never);
    const refused = await rejection(
      validate([{ conditions: [{ property: 'recipient.created_at', operator: 'less_than', argument: '3 months ago' }] }]),
    );
    expect(refused.status).toBe(422);
    expect(refused.error).toMatchObject({
      code: 'invalid_params',
      errors: [{ field: 'audience.segments.0.conditions.0.argument', message: expect.stringContaining('"3 months ago"') }],
    });
    const valid = [{ conditions: [{ property: 'recipient.created_at', operator: 'less_than', argument: '-3 days' }] }];
    expect(await validate(valid)).toMatchObject({ audience: { key: 'checked', segments: valid } });
    const text = [{ conditions: [{ property: 'recipient.plan', operator: 'equal_to', argument: 'banana_days_ago' }] }];
    expect(await upsert('text-like-time', text)).toMatchObject({ audience: { segments: text } });
  });
});
