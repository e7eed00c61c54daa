import Knock from '@knocklabs/node';
import { createServer, IncomingMessage, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { configureChannel } from '../../support/channels';
import { settled } from '../../support/engine';
import { activeWorkflow, eventually, feedStep } from '../../support/runs';
import { startTestApp, TestApp } from '../../support/test-app';

/** settings.sandbox_mode: messages are created not_sent and no provider is ever called. */
describe('sandbox mode', () => {
  let t: TestApp;
  let knock: Knock;
  let peer: Server;
  const received: { url: string; messageId: string }[] = [];

  const messagesOf = (workflowRunId: string) =>
    t.sql<{ id: string; channel_type: string; status: string; sandbox: boolean }>(
      'SELECT id, channel_type, status, sandbox FROM rm_messages WHERE workflow_run_id = $1 ORDER BY channel_type',
      [workflowRunId],
    );

  beforeAll(async () => {
    // A webhook receiver standing in for a provider: it records every request that reaches it.
    peer = createServer((req: IncomingMessage, res) => {
      received.push({ url: req.url ?? '', messageId: String(req.headers['x-notify-message-id'] ?? '') });
      req.resume();
      res.writeHead(200).end('ok');
    });
    await new Promise<void>((resolve) => peer.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(peer.address() as AddressInfo).port}/hook`;
    t = await startTestApp();
    knock = t.knock();
    const hook = await configureChannel(t, { type: 'http', provider: 'webhook', environments: ['development'] });
    await activeWorkflow(t, 'sandboxed', {
      steps: [
        feedStep('feed'),
        {
          type: 'channel',
          ref: 'hook',
          channel_key: hook.key,
          template: { url: `${url}?to={{ recipient.id }}`, method: 'post', body: '{"to":"{{ recipient.id }}"}' },
        },
      ],
    });
    await knock.users.update('ada', { name: 'Ada' });
  });
  afterAll(async () => {
    await t?.close();
    await new Promise((resolve) => peer?.close(resolve));
  });

  it('delivers normally without the setting (the receiver is reachable)', async () => {
    const { workflow_run_id } = await knock.workflows.trigger('sandboxed', { recipients: ['ada'] });
    const messages = await eventually(async () => {
      const rows = await messagesOf(workflow_run_id);
      return rows.length === 2 && rows.every((m) => m.status === 'delivered') ? rows : undefined;
    });
    expect(messages.map((m) => [m.channel_type, m.sandbox])).toEqual([
      ['http', false],
      ['in_app_feed', false],
    ]);
    expect(received.map((r) => r.messageId)).toContain(messages[0].id);
  });

  it('creates every message not_sent and never calls the provider', async () => {
    const before = received.length;
    const { workflow_run_id } = await knock.workflows.trigger('sandboxed', { recipients: ['ada'], settings: { sandbox_mode: true } });
    const messages = await eventually(async () => {
      const rows = await messagesOf(workflow_run_id);
      return rows.length === 2 ? rows : undefined;
    });
    expect(messages.map((m) => [m.channel_type, m.status, m.sandbox])).toEqual([
      ['http', 'not_sent', true],
      ['in_app_feed', 'not_sent', true],
    ]);
    // Once the worker has reacted to everything, a (wrong) delivery would be in the log.
    await settled(t);
    expect(received.length).toBe(before);
    for (const m of messages) {
      const types = (
        await t.sql<{ event_type: string }>('SELECT event_type FROM es_events WHERE stream_id = $1 ORDER BY global_position', [
          `message-development-${m.id}`,
        ])
      ).map((e) => e.event_type);
      expect(types).toEqual(['MessageCreated', 'MessageNotSent']);
    }
    const events = await t.sql("SELECT type, data FROM rm_message_events WHERE message_id = $1 AND type = 'message.not_sent'", [
      messages[0].id,
    ]);
    expect(events).toHaveLength(1);
    const run = (await knock.workflowRecipientRuns.list({ workflow: 'sandboxed', recipient: 'ada' })).items.find(
      (r) => r.workflow_run_id === workflow_run_id,
    )!;
    expect(run.status).toBe('completed');
  });
});
