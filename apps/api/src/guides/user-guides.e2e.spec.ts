import type KnockClient from '@knocklabs/client';
import type { KnockGuideClient } from '@knocklabs/client';
import Knock from '@knocklabs/node';
import KnockMgmt from '@knocklabs/mgmt';
import { Socket } from 'phoenix';
import { feedSocket, joinChannel } from '../../../../test/support/browser-access';
import { activeWorkflow, finishedRuns, messagesOf } from '../../../../test/support/engine';
import { eventually } from '../../../../test/support/recipients';
import { startTestApp, TestApp } from '../../../../test/support/test-app';

/** The guides a user is shown, and their engagement, through @knocklabs/node and @knocklabs/client's guide client. */
describe('user guides (public API)', () => {
  let t: TestApp;
  let knock: Knock;
  let mgmt: KnockMgmt;
  let channelId: string;
  const env = { environment: 'development' };
  const svc = (method: string, path: string, body?: unknown) => t.http(method, path, { key: t.serviceToken, body });
  const step = (ref: string, title: string) => ({
    ref,
    schema_key: 'banner',
    schema_semver: '1.0.0',
    schema_variant_key: 'default',
    values: { title },
  });
  const guide = async (key: string, extra: Record<string, unknown>, activate: Record<string, unknown> | null = { status: true }) => {
    await mgmt.guides.upsert(key, { ...env, guide: { name: key, channel_key: 'guides', steps: [step('intro', key)], ...extra } as never });
    if (activate) await mgmt.guides.activate(key, { ...env, ...activate } as never);
  };
  const pro = { all: [{ variable: 'recipient.plan', operator: 'equal_to', argument: 'pro' }] };
  const keysOf = (r: { entries: { key?: string }[] }) => r.entries.map((e) => e.key).sort();
  const reasons = (r: { ineligible_guides?: { key: string; reason: string }[] }) =>
    Object.fromEntries((r.ineligible_guides ?? []).map((g) => [g.key, g.reason]));

  beforeAll(async () => {
    t = await startTestApp();
    knock = t.knock();
    mgmt = t.mgmt();
    const channel = await svc('PUT', '/v1/channels/guides', {
      channel: { name: 'Guides', type: 'in_app_guide', provider: 'knock-guide', environment_settings: { development: {} } },
    });
    channelId = channel.body.channel.id;
    await mgmt.messageTypes.upsert('banner', {
      ...env,
      message_type: {
        name: 'Banner',
        description: null,
        preview: '<div>{{ title }}</div>',
        variants: [{ key: 'default', name: 'Default', fields: [{ type: 'text', key: 'title', label: 'Title' }] }],
      } as never,
    });
    await knock.users.update('ada', { name: 'Ada', plan: 'pro' } as never);
    await knock.users.update('bob', { name: 'Bob', plan: 'free' } as never);
    await knock.tenants.set('acme', { name: 'Acme', settings: {}, tier: 'gold' } as never);
    await mgmt.audiences.upsert('beta', { ...env, audience: { type: 'static', name: 'Beta' } } as never);
    await knock.audiences.addMembers('beta', { members: [{ user: { id: 'ada' } }] });
    await guide('welcome', {
      target_property_conditions: pro,
      activation_url_patterns: [{ directive: 'allow', pathname: '/dashboard/*' }],
    });
    await guide('beta-tour', { target_audience_key: 'beta' });
    await guide('draft', {}, null);
    await guide('later', {}, { from: '2999-01-01T00:00:00Z' });
    await guide('billing', { target_property_conditions: { all: [{ variable: 'data.page', operator: 'equal_to', argument: 'billing' }] } });
    await guide('gold', { target_property_conditions: { all: [{ variable: 'tenant.tier', operator: 'equal_to', argument: 'gold' }] } });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('shows each user the guides targeted at them, and the others with the reason', async () => {
    const ada = await knock.users.guides.getChannel('ada', channelId);
    expect(keysOf(ada)).toEqual(['beta-tour', 'welcome']);
    // Only archived guides are marked unless every guide is asked for: a client keeps its markers (ADR 0165).
    expect(ada.ineligible_guides).toEqual([]);
    const all = await knock.users.guides.getChannel('ada', channelId, { force_all_guides: 'true' } as never);
    expect(keysOf(all)).toEqual(['beta-tour', 'billing', 'draft', 'gold', 'later', 'welcome']);
    expect(all.entries.find((e) => e.key === 'draft')).toMatchObject({ active: false });
    expect(reasons(all)).toEqual({
      draft: 'guide_not_active',
      later: 'guide_not_active',
      billing: 'target_conditions_not_met',
      gold: 'target_conditions_not_met',
    });
    const welcome = ada.entries.find((e) => e.key === 'welcome')!;
    expect(welcome).toMatchObject({
      __typename: 'Guide',
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      channel_id: channelId,
      type: 'banner',
      active: true,
      activation_url_patterns: [{ directive: 'allow', pathname: '/dashboard/*' }],
      steps: [
        { ref: 'intro', schema_key: 'banner', content: { title: 'welcome' }, message: { id: null, seen_at: null, archived_at: null } },
      ],
    });

    const bob = await knock.users.guides.getChannel('bob', channelId, { force_all_guides: 'true' } as never);
    expect(keysOf(bob)).toHaveLength(6);
    expect(reasons(bob)).toMatchObject({ welcome: 'target_conditions_not_met', 'beta-tour': 'not_in_target_audience' });

    const withContext = await knock.users.guides.getChannel('bob', channelId, {
      tenant: 'acme',
      data: JSON.stringify({ page: 'billing' }),
    });
    expect(keysOf(withContext)).toEqual(['billing', 'gold']);
    expect(keysOf(await knock.users.guides.getChannel('ada', channelId, { type: 'modal' }))).toEqual([]);
  });

  it('answers activation_url_rules as configured, and refuses a guide with both rules and patterns', async () => {
    const rules = [{ directive: 'allow', variable: 'pathname', operator: 'contains', argument: '/settings' }];
    await guide('ruled', { activation_url_rules: rules });
    const ada = await knock.users.guides.getChannel('ada', channelId);
    expect(ada.entries.find((e) => e.key === 'ruled')).toMatchObject({ activation_url_rules: rules, activation_url_patterns: [] });
    const both = await svc('PUT', '/v1/guides/ruled?environment=development', {
      guide: {
        name: 'ruled',
        channel_key: 'guides',
        steps: [step('intro', 'x')],
        activation_url_rules: rules,
        activation_url_patterns: [{ pathname: '/a' }],
      },
    });
    expect(both.status).toBe(422);
    expect(both.body).toMatchObject({ code: 'invalid_params', errors: [expect.objectContaining({ field: 'guide.activation_url_rules' })] });
    await mgmt.guides.archive('ruled');
  });

  it('refuses a channel that is not a guide channel', async () => {
    const res = await t.http('GET', '/v1/users/ada/guides/in-app', { key: t.env.secretKey });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([expect.objectContaining({ field: 'channel_id' })]);
    expect((await t.http('GET', '/v1/users/ada/guides/nowhere', { key: t.env.secretKey })).status).toBe(422);
  });

  it('records seen, interacted and archived as events on the guide message, and unarchives', async () => {
    const welcome = (await knock.users.guides.getChannel('ada', channelId)).entries.find((e) => e.key === 'welcome')!;
    const base = { channel_id: channelId, guide_id: welcome.id!, guide_key: 'welcome', guide_step_ref: 'intro' };
    await knock.users.guides.markMessageAsSeen('ada', { ...base, content: { title: 'welcome' } });
    await knock.users.guides.markMessageAsInteracted('ada', { ...base, metadata: { button: 'go' } } as never);
    const seen = (await knock.users.guides.getChannel('ada', channelId)).entries.find((e) => e.key === 'welcome')!;
    const message = seen.steps![0].message!;
    expect(message).toMatchObject({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      seen_at: expect.any(String),
      interacted_at: expect.any(String),
    });

    // By message id, as the other client calls it.
    expect(await t.http('PUT', `/v1/users/ada/guides/messages/${message.id}/archived`, { key: t.env.secretKey, body: base })).toMatchObject(
      {
        status: 200,
        body: { status: 'ok' },
      },
    );
    const archived = await knock.users.guides.getChannel('ada', channelId);
    expect(keysOf(archived)).toEqual(['beta-tour']);
    expect(reasons(archived).welcome).toBe('marked_as_archived');

    const stored = await knock.messages.get(message.id!);
    expect(stored).toMatchObject({ channel_id: channelId, recipient: 'ada', seen_at: expect.any(String), archived_at: expect.any(String) });
    const types: string[] = [];
    for await (const e of knock.messages.listEvents(message.id!)) types.push(e.type);
    expect(types).toEqual(expect.arrayContaining(['message.seen', 'message.interacted', 'message.archived']));

    await knock.users.guides.unarchiveGuideMessage('ada', { guide_key: 'welcome' } as never);
    expect(keysOf(await knock.users.guides.getChannel('ada', channelId))).toEqual(['beta-tour', 'welcome']);
  });

  it('starts engagement afresh after a reset, keeping the old message', async () => {
    const before = (await knock.users.guides.getChannel('ada', channelId)).entries.find((e) => e.key === 'welcome')!;
    const oldId = before.steps![0].message!.id!;
    expect(oldId).toBeTruthy();
    await knock.users.guides.resetGuideEngagements('ada', { guide_key: 'welcome' });
    const after = (await knock.users.guides.getChannel('ada', channelId)).entries.find((e) => e.key === 'welcome')!;
    expect(after.steps![0].message).toMatchObject({ id: null, seen_at: null, interacted_at: null });
    expect((await knock.messages.get(oldId)).seen_at).toEqual(expect.any(String));
  });

  it('delivers a guide message from an in_app_guide workflow step, once', async () => {
    await activeWorkflow(t, 'onboard', {
      steps: [{ type: 'channel', ref: 'guide', channel_key: 'guides', channel_type: 'in_app_guide', guide_key: 'welcome' }],
    });
    const first = await knock.workflows.trigger('onboard', { recipients: ['ada'], data: { source: 'signup' } });
    const [run] = await finishedRuns(t, first.workflow_run_id);
    expect(run.types).toContain('RunCompleted');
    const welcome = (await knock.users.guides.getChannel('ada', channelId)).entries.find((e) => e.key === 'welcome')!;
    const id = welcome.steps![0].message!.id!;
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(await knock.messages.get(id)).toMatchObject({
      channel_id: channelId,
      recipient: 'ada',
      workflow: 'onboard',
      status: 'delivered',
      seen_at: null,
      data: { source: 'signup' },
    });

    // The user already has it: a second run delivers nothing new.
    const second = await knock.workflows.trigger('onboard', { recipients: ['ada'] });
    await finishedRuns(t, second.workflow_run_id);
    expect(await messagesOf(t, second.workflow_run_id)).toEqual([]);

    // Engagement lands on the delivered message.
    await knock.users.guides.markMessageAsSeen('ada', {
      channel_id: channelId,
      guide_id: welcome.id!,
      guide_key: 'welcome',
      guide_step_ref: 'intro',
      content: {},
    });
    expect((await knock.messages.get(id)).seen_at).toEqual(expect.any(String));
  });

  it('refuses engagement naming another guide id or a step the guide lacks', async () => {
    const base = { channel_id: channelId, guide_key: 'welcome', guide_step_ref: 'intro', content: {} };
    const wrongId = await t.http('PUT', '/v1/users/ada/guides/messages/seen', {
      key: t.env.secretKey,
      body: { ...base, guide_id: '00000000-0000-4000-8000-000000000000' },
    });
    expect(wrongId.status).toBe(422);
    const welcome = (await knock.users.guides.getChannel('ada', channelId)).entries.find((e) => e.key === 'welcome')!;
    const noStep = await t.http('PUT', '/v1/users/ada/guides/messages/seen', {
      key: t.env.secretKey,
      body: { ...base, guide_id: welcome.id, guide_step_ref: 'nope' },
    });
    expect(noStep.status).toBe(422);
  });

  it('tells a joined guides:<channel_id> topic when a guide is activated, changed or archived, for that user only', async () => {
    const socket: Socket = feedSocket(t, { api_key: t.env.publishableKey });
    socket.connect();
    try {
      const pushes: { who: string; event: string; key: string; eligible?: boolean; title?: unknown }[] = [];
      const join = async (who: string, params: Record<string, unknown>) => {
        const channel = socket.channel(`guides:${channelId}`, params);
        for (const event of ['guide.added', 'guide.updated', 'guide.removed'])
          channel.on(
            event,
            (p: { event: string; data: { guide: { key: string; steps?: { content: { title?: unknown } }[] }; eligible?: boolean } }) =>
              void pushes.push({
                who,
                event: p.event,
                key: p.data.guide.key,
                eligible: p.data.eligible,
                title: p.data.guide.steps?.[0].content.title,
              }),
          );
        return joinChannel(channel);
      };
      expect(await join('ada', { user_id: 'ada' })).toEqual({ status: 'ok', response: {} });
      // Bob on his own connection (a Phoenix socket joins a topic once).
      const bobSocket: Socket = feedSocket(t, { api_key: t.env.publishableKey });
      bobSocket.connect();
      try {
        const bobChannel = bobSocket.channel(`guides:${channelId}`, { user_id: 'bob' });
        for (const event of ['guide.added', 'guide.updated'])
          bobChannel.on(
            event,
            (p: { event: string; data: { guide: { key: string }; eligible?: boolean } }) =>
              void pushes.push({ who: 'bob', event: p.event, key: p.data.guide.key, eligible: p.data.eligible }),
          );
        expect(await joinChannel(bobChannel)).toEqual({ status: 'ok', response: {} });
        const waitFor = (pred: (p: (typeof pushes)[number]) => boolean) =>
          eventually(
            async () => pushes.filter(pred),
            (found) => found.length > 0,
            30_000,
          );

        await guide('live', { target_property_conditions: pro });
        await waitFor((p) => p.who === 'ada' && p.key === 'live' && p.event === 'guide.added');
        await mgmt.guides.upsert('live', {
          ...env,
          guide: { name: 'live', channel_key: 'guides', steps: [step('intro', 'changed')], target_property_conditions: pro } as never,
        });
        await waitFor((p) => p.key === 'live' && p.event === 'guide.updated' && p.title === 'changed');
        await mgmt.guides.archive('live');
        await waitFor((p) => p.key === 'live' && p.event === 'guide.removed');
        // Bob is not a pro: the guide was never his.
        expect(pushes.filter((p) => p.who === 'bob')).toEqual([]);
        expect(pushes.filter((p) => p.key === 'live').map((p) => p.event)).toEqual(['guide.added', 'guide.updated', 'guide.removed']);

        // Bob becomes a pro, and joins the beta audience: those guides are his now, and no longer when undone.
        await knock.users.update('bob', { plan: 'pro' } as never);
        await waitFor((p) => p.who === 'bob' && p.key === 'welcome' && p.event === 'guide.added');
        await knock.users.update('bob', { plan: 'free' } as never);
        await waitFor((p) => p.who === 'bob' && p.key === 'welcome' && p.event === 'guide.updated' && p.eligible === false);
        await knock.audiences.addMembers('beta', { members: [{ user: { id: 'bob' } }] });
        await waitFor((p) => p.who === 'bob' && p.key === 'beta-tour' && p.event === 'guide.added');
        await knock.audiences.removeMembers('beta', { members: [{ user: { id: 'bob' } }] } as never);
        await waitFor((p) => p.who === 'bob' && p.key === 'beta-tour' && p.eligible === false);
      } finally {
        bobSocket.disconnect();
      }

      // Not a guide channel, and another user than the token's: refused.
      const refused = await joinChannel(socket.channel('guides:in-app', { user_id: 'ada' }));
      expect(refused.status).toBe('error');
    } finally {
      socket.disconnect();
    }
  });

  describe("@knocklabs/client's guide client", () => {
    let Client: typeof KnockClient;
    let GuideClient: typeof KnockGuideClient;
    let client: KnockClient;
    let guides: KnockGuideClient;
    beforeAll(async () => {
      const mod = await import('@knocklabs/client');
      Client = mod.default;
      GuideClient = mod.KnockGuideClient;
    });
    afterAll(() => {
      guides?.cleanup();
      client?.teardown();
    });

    it('fetches the eligible guides and archives one, which stays archived', async () => {
      client = new Client(t.env.publishableKey, { host: t.url });
      client.authenticate('ada');
      guides = new GuideClient(client, channelId, {}, { trackLocationFromWindow: false, throttleCheckInterval: 0 });
      expect(await guides.fetch()).toEqual({ status: 'ok' });
      expect(Object.keys(guides.store.state.guides).sort()).toEqual(['beta-tour', 'welcome']);
      const tour = guides.store.state.guides['beta-tour'];
      await tour.steps[0].markAsArchived();
      // The client updates its state at once and calls the service without waiting: wait for the service.
      await eventually(
        async () => (await knock.users.guides.getChannel('ada', channelId)).ineligible_guides?.map((g) => g.key) ?? [],
        (keys) => keys.includes('beta-tour'),
        30_000,
      );
      expect(await guides.fetch({ force: true })).toEqual({ status: 'ok' });
      expect(Object.keys(guides.store.state.guides)).toEqual(['welcome']);
    });
  });

  it("tells a joined client when a guide's activation window opens and closes, with no change made then", async () => {
    const socket: Socket = feedSocket(t, { api_key: t.env.publishableKey });
    socket.connect();
    try {
      const pushes: { event: string; key: string; eligible?: boolean }[] = [];
      const channel = socket.channel(`guides:${channelId}`, { user_id: 'ada' });
      for (const event of ['guide.added', 'guide.updated', 'guide.removed'])
        channel.on(event, (p: { data: { guide: { key: string }; eligible?: boolean } }) => {
          if (p.data.guide.key === 'windowed') pushes.push({ event, key: p.data.guide.key, eligible: p.data.eligible });
        });
      expect(await joinChannel(channel)).toEqual({ status: 'ok', response: {} });
      await guide('windowed', { target_property_conditions: pro }, null);
      // The window lies ahead when it is set: only the clock opens and closes it.
      const from = new Date(Date.now() + 2_000).toISOString();
      const until = new Date(Date.now() + 4_000).toISOString();
      await mgmt.guides.activate('windowed', { ...env, from, until } as never);
      await eventually(
        async () => pushes,
        (p) => p.some((e) => e.event === 'guide.added'),
        30_000,
      );
      await eventually(
        async () => pushes,
        (p) => p.some((e) => e.event === 'guide.updated' && e.eligible === false),
        30_000,
      );
      expect(pushes.map((e) => e.event)).toEqual(['guide.added', 'guide.updated']);
      // Out of the channel again (the later tests list the channel's guides).
      await mgmt.guides.archive('windowed');
    } finally {
      socket.disconnect();
    }
  });

  it("tells a channel's first guide group as guide_group.added, and later changes as guide_group.updated", async () => {
    const other = await svc('PUT', '/v1/channels/guides-two', {
      channel: { name: 'Guides two', type: 'in_app_guide', provider: 'knock-guide', environment_settings: { development: {} } },
    });
    const socket: Socket = feedSocket(t, { api_key: t.env.publishableKey });
    socket.connect();
    try {
      const told: { event: string; sequence: string[] }[] = [];
      const channel = socket.channel(`guides:${other.body.channel.id}`, { user_id: 'ada' });
      for (const event of ['guide_group.added', 'guide_group.updated'])
        channel.on(
          event,
          (p: { data: { guide_group: { display_sequence: string[] } } }) =>
            void told.push({ event, sequence: p.data.guide_group.display_sequence }),
        );
      expect(await joinChannel(channel)).toEqual({ status: 'ok', response: {} });
      const upsert = async (key: string) => {
        await mgmt.guides.upsert(key, { ...env, guide: { name: key, channel_key: 'guides-two', steps: [step('intro', key)] } as never });
        await mgmt.guides.activate(key, { ...env, status: true } as never);
      };
      await upsert('first-on-two');
      await eventually(
        async () => told,
        (t) => t.length > 0,
        30_000,
      );
      expect(told[0]).toEqual({ event: 'guide_group.added', sequence: ['first-on-two'] });
      await upsert('second-on-two');
      await eventually(
        async () => told,
        (t) => t.some((e) => e.sequence.includes('second-on-two')),
        30_000,
      );
      expect(told.slice(1).map((e) => e.event)).toEqual(told.slice(1).map(() => 'guide_group.updated'));
    } finally {
      socket.disconnect();
    }
  });

  it('orders and throttles guides by the guide group, told live to a joined client', async () => {
    const socket: Socket = feedSocket(t, { api_key: t.env.publishableKey });
    socket.connect();
    try {
      const groups: { display_sequence: string[]; display_interval: number | null }[] = [];
      const channel = socket.channel(`guides:${channelId}`, { user_id: 'ada' });
      channel.on('guide_group.updated', (p: { data: { guide_group: (typeof groups)[number] } }) => void groups.push(p.data.guide_group));
      expect(await joinChannel(channel)).toEqual({ status: 'ok', response: {} });

      const group = { display_sequence: ['beta-tour'], display_sequence_unthrottled: ['welcome'], display_interval: 3600 };
      const put = await svc('PUT', '/v1/guide_groups/default?environment=development', { guide_group: group });
      expect(put.status).toBe(200);
      expect(put.body.guide_group).toMatchObject({ key: 'default', ...group, environment: 'development', updated_at: expect.any(String) });
      expect((await svc('GET', '/v1/guide_groups?environment=development')).body.entries).toEqual([put.body.guide_group]);

      const ada = await knock.users.guides.getChannel('ada', channelId);
      const [defaultGroup] = ada.guide_groups as { key: string; display_sequence: string[] }[];
      expect(defaultGroup).toMatchObject({
        __typename: 'GuideGroup',
        key: 'default',
        display_interval: 3600,
        display_sequence_unthrottled: ['welcome'],
      });
      // Ordered first as configured, then the others oldest first; every guide of the channel is listed.
      expect(defaultGroup.display_sequence).toEqual(['beta-tour', 'welcome', 'draft', 'later', 'billing', 'gold']);
      expect(ada.entries.find((e) => e.key === 'welcome')).toMatchObject({ bypass_global_group_limit: true });
      // Ada dismissed beta-tour (a throttled guide) earlier: the throttle window starts there.
      expect(ada.guide_group_display_logs).toEqual({ default: expect.any(String) });

      await eventually(
        async () => groups,
        (g) => g.length > 0,
        30_000,
      );
      expect(groups[0]).toMatchObject({ display_sequence: defaultGroup.display_sequence, display_interval: 3600 });

      // Bad input: unknown guides, another group, a negative interval; nothing is written.
      const unknown = await svc('PUT', '/v1/guide_groups/default?environment=development', {
        guide_group: { display_sequence: ['nope'], display_interval: 60 },
      });
      expect(unknown.status).toBe(422);
      expect(unknown.body).toMatchObject({
        code: 'invalid_params',
        errors: [expect.objectContaining({ field: 'guide_group.display_sequence.0' })],
      });
      expect((await svc('PUT', '/v1/guide_groups/other?environment=development', { guide_group: group })).status).toBe(422);
      expect((await svc('PUT', '/v1/guide_groups/default?environment=development', { guide_group: { display_interval: -1 } })).status).toBe(
        422,
      );
      expect((await svc('GET', '/v1/guide_groups/default?environment=development')).body.guide_group).toMatchObject(group);
    } finally {
      socket.disconnect();
    }
  });
});
