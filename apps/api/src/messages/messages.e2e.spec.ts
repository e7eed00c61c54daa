import Knock from '@knocklabs/node';
import { startHttpPeer, type Peer } from '@notify/testing/peers';
import { messageOf, messageWithStatus, putChannel, putWorkflow } from '../../../../test/support/delivery';
import { countEvents, rejection } from '../../../../test/support/recipients';
import { eventually } from '../../../../test/support/runs';
import { startTestApp, TestApp } from '../../../../test/support/test-app';

const feedStep = (ref: string, body: string, over: Record<string, unknown> = {}) => ({
  type: 'channel',
  ref,
  channel_key: 'in-app',
  template: { markdown_body: body },
  ...over,
});

/** Messages API through the official client: listings and their filters, a message and its histories, engagement. */
describe('messages', () => {
  let t: TestApp;
  let knock: Knock;
  let receiver: Peer;
  let channelId: string;
  /** ada's in-app messages, oldest first. */
  const ada: { id: string; runId: string; recipientRunId: string }[] = [];
  let hookMessageId: string;
  let objectMessageId: string;
  let startedAt: string;

  const trigger = async (workflow: string, recipients: unknown[], extra: Record<string, unknown> = {}) => {
    const { workflow_run_id } = await knock.workflows.trigger(workflow, { recipients: recipients as never, ...extra });
    return workflow_run_id;
  };

  beforeAll(async () => {
    receiver = await startHttpPeer(() => ({ status: 202, json: { received: true } }));
    t = await startTestApp();
    knock = t.knock();
    await putChannel(t, 'hooks', { type: 'http', provider: 'webhook' });
    await putWorkflow(t, 'msg-alert', [feedStep('feed', 'Alert **{{ data.n }}** for {{ recipient.id }}')], { categories: ['alerts'] });
    await putWorkflow(t, 'msg-digest', [feedStep('feed', 'Digest')], { categories: ['digest'] });
    await putWorkflow(t, 'msg-hook', [
      { type: 'channel', ref: 'hook', channel_key: 'hooks', template: { url: `${receiver.url}/hook`, method: 'post', body: '{"n": 1}' } },
    ]);
    await knock.users.update('ada', { name: 'Ada' });
    await knock.users.update('bob', { name: 'Bob' });
    await knock.objects.set('projects', 'p1', { name: 'Project 1' });
    startedAt = new Date(Date.now() - 1000).toISOString();
    for (const [n, tenant] of [
      [1, null],
      [2, 'acme'],
      [3, null],
    ] as const) {
      const runId = await trigger('msg-alert', ['ada'], {
        data: { n, kind: n === 2 ? 'special' : 'plain' },
        ...(tenant ? { tenant } : {}),
      });
      const message = await eventually(
        async () => (await t.sql('SELECT id, run_id FROM rm_messages WHERE workflow_run_id = $1', [runId]))[0],
        60_000,
        'the alert message',
      );
      ada.push({ id: message.id, runId, recipientRunId: message.run_id });
    }
    const digestRun = await trigger('msg-digest', ['ada', 'bob']);
    await eventually(
      async () => (await t.sql('SELECT count(*)::int AS c FROM rm_messages WHERE workflow_run_id = $1', [digestRun]))[0].c === 2,
      60_000,
      'digest messages',
    );
    const digest = (
      await t.sql("SELECT id, run_id, channel_id FROM rm_messages WHERE workflow_run_id = $1 AND recipient_id = 'ada'", [digestRun])
    )[0];
    ada.push({ id: digest.id, runId: digestRun, recipientRunId: digest.run_id });
    channelId = digest.channel_id;
    const objectRun = await trigger('msg-digest', [{ id: 'p1', collection: 'projects' }]);
    objectMessageId = (
      await eventually(
        async () => (await t.sql('SELECT id FROM rm_messages WHERE workflow_run_id = $1', [objectRun]))[0],
        60_000,
        'object message',
      )
    ).id;
    const hookRun = await trigger('msg-hook', ['ada']);
    hookMessageId = (await messageWithStatus(t, (await messageOf(t, hookRun, 'hook')).id, ['delivered', 'sent'])).id;
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.close();
  });

  it('lists messages newest first, through every listing and page by page', async () => {
    const all = await knock.messages.list({ page_size: 50 });
    const ids = all.items.map((m) => m.id);
    expect(ids.slice(0, 2)).toEqual([hookMessageId, objectMessageId]);
    const inserted = all.items.map((m) => m.inserted_at);
    expect([...inserted].sort().reverse()).toEqual(inserted);
    const adaIds = (await knock.users.listMessages('ada')).items.map((m) => m.id);
    expect(adaIds).toEqual([hookMessageId, ...[...ada].reverse().map((m) => m.id)]);
    expect((await knock.objects.listMessages('projects', 'p1')).items.map((m) => m.id)).toEqual([objectMessageId]);

    const first = await knock.users.listMessages('ada', { page_size: 2 });
    expect(first.items.map((m) => m.id)).toEqual(adaIds.slice(0, 2));
    const second = await knock.users.listMessages('ada', { page_size: 2, after: first.page_info.after! });
    expect(second.items.map((m) => m.id)).toEqual(adaIds.slice(2, 4));
    const back = await knock.users.listMessages('ada', { page_size: 2, before: (second.page_info as { before?: string }).before! });
    expect(back.items.map((m) => m.id)).toEqual(adaIds.slice(0, 2));

    const message = all.items.find((m) => m.id === ada[1].id)!;
    expect(message).toMatchObject({
      __typename: 'Message',
      channel_id: channelId,
      channel: {
        id: channelId,
        key: 'in-app',
        name: expect.any(String),
        type: 'in_app_feed',
        provider: expect.any(String),
        created_at: expect.any(String),
        updated_at: expect.any(String),
      },
      recipient: 'ada',
      workflow: 'msg-alert',
      tenant: 'acme',
      status: 'delivered',
      engagement_statuses: [],
      data: { n: 2, kind: 'special' },
      source: {
        __typename: 'NotificationSource',
        key: 'msg-alert',
        categories: ['alerts'],
        workflow_run_id: ada[1].runId,
        workflow_recipient_run_id: ada[1].recipientRunId,
      },
    });
    expect(all.items.find((m) => m.id === objectMessageId)!.recipient).toEqual({ id: 'p1', collection: 'projects' });
    expect((await rejection(knock.users.listMessages('nobody'))).status).toBe(404);
  });

  it('filters by channel, status, engagement, ids, categories, source, tenant, runs, trigger data and time', async () => {
    const ids = async (query: Record<string, unknown>) => (await knock.messages.list(query as never)).items.map((m) => m.id).sort();
    const sorted = (...list: string[]) => [...list].sort();
    expect(await ids({ channel_id: channelId, source: 'msg-alert' })).toEqual(sorted(...ada.slice(0, 3).map((m) => m.id)));
    expect(await ids({ status: ['sent', 'delivered'], source: 'msg-hook' })).toEqual([hookMessageId]);
    expect(await ids({ status: ['bounced'] })).toEqual([]);
    expect(await ids({ message_ids: [ada[0].id, ada[2].id, 'not-a-uuid'] })).toEqual(sorted(ada[0].id, ada[2].id));
    expect(await ids({ workflow_categories: ['digest'] })).toHaveLength(3);
    expect(await ids({ tenant: 'acme' })).toEqual([ada[1].id]);
    expect(await ids({ workflow_run_id: ada[2].runId })).toEqual([ada[2].id]);
    expect(await ids({ workflow_recipient_run_id: ada[0].recipientRunId })).toEqual([ada[0].id]);
    expect(await ids({ trigger_data: JSON.stringify({ kind: 'special' }) })).toEqual([ada[1].id]);
    expect(await ids({ trigger_data: JSON.stringify({ n: 3, kind: 'plain' }) })).toEqual([ada[2].id]);
    expect(await ids({ inserted_at: { gte: startedAt }, source: 'msg-alert' })).toHaveLength(3);
    expect(await ids({ inserted_at: { lt: startedAt } })).toEqual([]);
    await knock.messages.markAsSeen(ada[0].id);
    expect(await ids({ engagement_status: ['seen'] })).toEqual([ada[0].id]);
    expect(await ids({ engagement_status: ['unseen'], source: 'msg-alert' })).toEqual(sorted(ada[1].id, ada[2].id));
    await knock.messages.markAsUnseen(ada[0].id);

    const before = await countEvents(t);
    const tooMany = await rejection(knock.messages.list({ message_ids: Array.from({ length: 51 }, (_, i) => `m${i}`) }));
    expect(tooMany.status).toBe(422);
    expect(tooMany.error).toMatchObject({ code: 'invalid_params', status: 422 });
    const badData = await t.http('GET', `/v1/messages?trigger_data=${encodeURIComponent('{"a": {"nested": 1}}')}`);
    expect(badData.status).toBe(422);
    expect(JSON.stringify(badData.body)).toContain('trigger_data');
    expect((await t.http('GET', '/v1/messages?trigger_data=notjson')).status).toBe(422);
    expect((await t.http('GET', '/v1/messages?status=lost')).status).toBe(422);
    expect((await t.http('GET', '/v1/messages?inserted_at.gte=yesterday')).status).toBe(422);
    expect(await countEvents(t)).toBe(before);
  });

  it('answers a message, its content (one or in a batch), events, delivery logs and activities', async () => {
    const message = await knock.messages.get(ada[1].id);
    expect(message).toMatchObject({ id: ada[1].id, recipient: 'ada', status: 'delivered' });
    const content = await knock.messages.getContent(ada[1].id);
    expect(content).toMatchObject({ __typename: 'MessageContent', message_id: ada[1].id, data: { __typename: 'MessageInAppFeedContent' } });
    expect((content.data as any).blocks[0]).toMatchObject({
      type: 'markdown',
      content: 'Alert **2** for ada',
      rendered: expect.stringContaining('<strong>2</strong>'),
    });
    const hookContent = await knock.messages.getContent(hookMessageId);
    expect(hookContent.data).toMatchObject({ url: `${receiver.url}/hook`, method: 'POST' });
    const batch = await knock.messages.batch.getContent({
      message_ids: [ada[0].id, hookMessageId, '00000000-0000-4000-8000-000000000000'],
    });
    expect(batch.map((c) => c.message_id)).toEqual([ada[0].id, hookMessageId]);
    expect((await rejection(knock.messages.get('00000000-0000-4000-8000-000000000000'))).status).toBe(404);
    expect((await rejection(knock.messages.getContent('nope'))).status).toBe(404);

    const events = await knock.messages.listEvents(ada[1].id);
    expect(events.items.map((e) => e.type)).toEqual(['message.delivered', 'message.created']);
    expect(events.items[0]).toMatchObject({ __typename: 'MessageEvent', recipient: 'ada' });

    const logs = await knock.messages.listDeliveryLogs(hookMessageId);
    expect(logs.items).toHaveLength(1);
    expect(logs.items[0]).toMatchObject({
      __typename: 'MessageDeliveryLog',
      service_name: 'webhook',
      request: { method: 'POST', path: '/hook' },
      response: { status: 202, body: { received: true } },
    });
    expect((await knock.messages.listDeliveryLogs(ada[0].id)).items).toEqual([]);

    const activities = await knock.messages.listActivities(ada[1].id);
    expect(activities.items).toHaveLength(1);
    expect(activities.items[0]).toMatchObject({
      __typename: 'Activity',
      data: { n: 2, kind: 'special' },
      recipient: { id: 'ada', name: 'Ada' },
    });
    expect((await knock.messages.listActivities(ada[1].id, { trigger_data: JSON.stringify({ kind: 'special' }) })).items).toHaveLength(1);
    expect((await knock.messages.listActivities(ada[1].id, { trigger_data: JSON.stringify({ kind: 'plain' }) })).items).toHaveLength(0);
  });

  it('records engagement as events: seen, read (also seen), unread, archived, interacted with metadata, and the alternate paths', async () => {
    const id = ada[2].id;
    expect((await knock.messages.markAsSeen(id)).engagement_statuses).toEqual(['seen']);
    const read = await knock.messages.markAsRead(id);
    expect(read.engagement_statuses).toEqual(['seen', 'read']);
    expect(read.read_at).not.toBeNull();
    expect((await knock.messages.markAsUnread(id)).engagement_statuses).toEqual(['seen']);
    await knock.messages.markAsRead(id);
    const unreadAlt = await t.http('DELETE', `/v1/messages/${id}/unread`);
    expect(unreadAlt.status).toBe(200);
    expect(unreadAlt.body.engagement_statuses).toEqual(['seen']);
    const unseenAlt = await t.http('DELETE', `/v1/messages/${id}/unseen`);
    expect(unseenAlt.body.engagement_statuses).toEqual([]);
    expect((await knock.messages.archive(id)).archived_at).not.toBeNull();
    expect((await knock.messages.unarchive(id)).archived_at).toBeNull();
    await knock.messages.archive(id);
    expect((await t.http('DELETE', `/v1/messages/${id}/unarchived`)).body.archived_at).toBeNull();
    const interacted = await knock.messages.markAsInteracted(id, { metadata: { button: 'primary' } });
    expect(interacted.engagement_statuses).toEqual(['seen', 'read', 'interacted']);
    // A repeated mark records nothing; each interaction is recorded.
    const streamTypes = async () => (await t.store.readStream(`message-development-${id}`)).map((e) => e.type);
    const before = await streamTypes();
    await knock.messages.markAsRead(id);
    expect(await streamTypes()).toEqual(before);

    const events = (await knock.messages.listEvents(id)).items;
    expect(events[0]).toMatchObject({ type: 'message.interacted', data: expect.objectContaining({ metadata: { button: 'primary' } }) });
    expect(events.map((e) => e.type)).toEqual(
      expect.arrayContaining([
        'message.seen',
        'message.read',
        'message.unread',
        'message.unseen',
        'message.archived',
        'message.unarchived',
        'message.interacted',
      ]),
    );
    expect((await rejection(knock.messages.markAsSeen('00000000-0000-4000-8000-000000000000'))).status).toBe(404);
    const bad = await t.http('PUT', `/v1/messages/${id}/interacted`, { body: { metadata: 'x' } });
    expect(bad.status).toBe(422);
  });

  it('changes messages in batches and answers them', async () => {
    const ids = [ada[0].id, ada[1].id];
    const read = await knock.messages.batch.markAsRead({ message_ids: [...ids, '00000000-0000-4000-8000-000000000000'] });
    expect(read.map((m) => m.id)).toEqual(ids);
    expect(read.every((m) => m.engagement_statuses.includes('read') && m.engagement_statuses.includes('seen'))).toBe(true);
    expect((await knock.messages.batch.markAsUnread({ message_ids: ids })).map((m) => m.read_at)).toEqual([null, null]);
    expect((await knock.messages.batch.markAsUnseen({ message_ids: ids })).map((m) => m.seen_at)).toEqual([null, null]);
    expect((await knock.messages.batch.markAsSeen({ message_ids: ids })).every((m) => m.seen_at)).toBe(true);
    expect((await knock.messages.batch.archive({ message_ids: ids })).every((m) => m.archived_at)).toBe(true);
    expect((await knock.messages.batch.unarchive({ message_ids: ids })).every((m) => m.archived_at === null)).toBe(true);
    const interacted = await knock.messages.batch.markAsInteracted({ message_ids: ids, metadata: { via: 'batch' } });
    expect(interacted.every((m) => m.engagement_statuses.includes('interacted'))).toBe(true);
    await knock.messages.batch.markAsUnread({ message_ids: ids });
    await knock.messages.batch.markAsUnseen({ message_ids: ids });

    const before = await countEvents(t);
    expect((await rejection(knock.messages.batch.markAsRead({ message_ids: Array.from({ length: 51 }, () => ada[0].id) }))).status).toBe(
      422,
    );
    expect((await rejection(knock.messages.batch.markAsRead({ message_ids: [] }))).status).toBe(422);
    expect((await t.http('POST', '/v1/messages/batch/read', { body: { message_ids: [ada[0].id], extra: 1 } })).status).toBe(422);
    expect(await countEvents(t)).toBe(before);
  });

  it('runs a channel-wide bulk action as a bulk operation over the matching messages', async () => {
    const operation = await knock.channels.bulk.updateMessageStatus(channelId, 'read', {
      recipient_ids: ['ada'],
      workflows: ['msg-alert'],
      archived: 'exclude',
    });
    expect(operation).toMatchObject({ __typename: 'BulkOperation', name: 'messages.read', estimated_total_rows: 3 });
    const done = await eventually(
      async () => {
        const op = await knock.bulkOperations.get(operation.id);
        return op.status === 'completed' ? op : undefined;
      },
      20_000,
      'the bulk operation',
    );
    expect(done).toMatchObject({ processed_rows: 3, success_count: 3, error_count: 0 });
    const alerts = (await knock.messages.list({ source: 'msg-alert' })).items;
    expect(alerts.every((m) => m.read_at !== null)).toBe(true);
    const digest = (await knock.users.listMessages('bob')).items;
    expect(digest[0].read_at).toBeNull();

    // user_ids (the browser client's name) and the archive alias.
    const archive = await t.http('POST', `/v1/channels/${channelId}/messages/bulk/archive`, { body: { user_ids: ['bob'] } });
    expect(archive.status).toBe(200);
    expect(archive.body).toMatchObject({ name: 'messages.archived', estimated_total_rows: 1 });
    await eventually(async () => (await knock.bulkOperations.get(archive.body.id)).status === 'completed', 60_000, 'the archive operation');
    expect((await knock.users.listMessages('bob')).items[0].archived_at).not.toBeNull();
    const before = await countEvents(t);
    expect((await t.http('POST', `/v1/channels/${channelId}/messages/bulk/explode`, { body: {} })).status).toBe(422);
    expect((await t.http('POST', `/v1/channels/${channelId}/messages/bulk/read`, { body: { engagement_status: 'maybe' } })).status).toBe(
      422,
    );
    expect((await t.http('POST', '/v1/channels/not-a-uuid/messages/bulk/read', { body: {} })).status).toBe(422);
    expect(await countEvents(t)).toBe(before);
  });
});
