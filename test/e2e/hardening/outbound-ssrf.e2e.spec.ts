import { startHttpPeer, type Peer } from '@notify/testing/peers';
import { messageEvents, messageOf, messageWithStatus, putChannel, putWorkflow } from '../../support/delivery';
import { startTestApp, type TestApp } from '../../support/test-app';

/**
 * Issue 15, "SSRF through the webhook channel": a webhook whose URL comes from trigger data
 * reached 127.0.0.1 in many spellings, [::1], 0.0.0.0 and Postgres, and the answer was readable
 * through the message's delivery logs. With no allow-list every one of those is refused before a
 * byte is sent, and the message ends undelivered with the reason; with the address allow-listed
 * the same webhook is delivered, and what the logs keep of the answer is cut to the limit.
 */
const INTERNAL_SECRET = 'internal-only-3f9a1c';

async function webhookFromData(t: TestApp): Promise<void> {
  await putChannel(t, 'hooks', { type: 'http', provider: 'webhook' });
  await putWorkflow(t, 'data-hook', [
    {
      type: 'channel',
      ref: 'hook',
      channel_key: 'hooks',
      template: { url: '{{ data.target }}', method: 'post', body: '{"event": "ping"}' },
    },
  ]);
}

describe('outbound address policy over HTTP (webhook channel)', () => {
  let internal: Peer;
  let port: number;

  beforeAll(async () => {
    internal = await startHttpPeer(() => ({ status: 200, json: { internal: INTERNAL_SECRET, padding: 'p'.repeat(50_000) } }));
    port = Number(new URL(internal.url).port);
  });
  afterAll(() => internal.close());

  describe('with no allow-list', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startTestApp({ env: { OUTBOUND_ALLOWED_ADDRESSES: '' } });
      await webhookFromData(t);
    });
    afterAll(async () => t?.close());

    it('refuses every spelling of the local host, and Postgres, with a clear delivery failure', async () => {
      const targets = [
        `http://127.0.0.1:${port}/admin`,
        `http://2130706433:${port}/admin`,
        `http://0x7f000001:${port}/admin`,
        `http://0177.0.0.1:${port}/admin`,
        `http://127.1:${port}/admin`,
        `http://0x7f.0.0.1:${port}/admin`,
        `http://[::1]:${port}/admin`,
        `http://[::ffff:127.0.0.1]:${port}/admin`,
        `http://0.0.0.0:${port}/admin`,
        `http://localhost:${port}/admin`,
        'http://127.0.0.1:5432/',
      ];
      const knock = t.knock();
      const runs = await Promise.all(
        targets.map((target, i) => knock.workflows.trigger('data-hook', { recipients: [{ id: `ssrf-${i}` }], data: { target } })),
      );
      for (const [i, { workflow_run_id }] of runs.entries()) {
        const message = await messageWithStatus(t, (await messageOf(t, workflow_run_id, 'hook')).id, ['undelivered', 'delivered']);
        expect({ target: targets[i], status: message.status, attempts: message.attempts }).toEqual({
          target: targets[i],
          status: 'undelivered',
          attempts: 1,
        });
        const undelivered = (await messageEvents(t, message.id)).find((e) => e.type === 'message.undelivered');
        expect(undelivered?.data.reason).toMatch(
          /is a (loopback|unspecified) address; calls to non-public addresses are refused unless OUTBOUND_ALLOWED_ADDRESSES lists them/,
        );

        const logs = [];
        for await (const log of knock.messages.listDeliveryLogs(message.id)) logs.push(log);
        expect(logs).toHaveLength(1);
        expect(logs[0].response).toMatchObject({ body: { error: expect.stringMatching(/^address_not_allowed: /) } });
        expect(logs[0].response.status).toBeUndefined();
        expect(JSON.stringify(logs)).not.toContain(INTERNAL_SECRET);
      }
      expect(internal.requests).toEqual([]);
    });
  });

  describe('with the address allow-listed', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startTestApp({ env: { OUTBOUND_ALLOWED_ADDRESSES: '127.0.0.1', DELIVERY_LOG_MAX_BODY_BYTES: '1024' } });
      await webhookFromData(t);
    });
    afterAll(async () => t?.close());

    it('delivers, and the delivery log keeps at most DELIVERY_LOG_MAX_BODY_BYTES of the answer', async () => {
      const knock = t.knock();
      const { workflow_run_id } = await knock.workflows.trigger('data-hook', {
        recipients: [{ id: 'allowed' }],
        data: { target: `${internal.url}/hook` },
      });
      const message = await messageWithStatus(t, (await messageOf(t, workflow_run_id, 'hook')).id, ['delivered', 'undelivered']);
      expect(message.status).toBe('delivered');
      expect(internal.requests.map((r) => r.url)).toEqual(['/hook']);

      const logs = [];
      for await (const log of knock.messages.listDeliveryLogs(message.id)) logs.push(log);
      const body = logs[0].response.body as unknown as string;
      expect(typeof body).toBe('string');
      expect(body).toMatch(/… \(\d+ bytes, cut to 1024\)$/);
      expect(Buffer.byteLength(body.replace(/… \(\d+ bytes, cut to 1024\)$/, ''))).toBeLessThanOrEqual(1024);
      expect(body.startsWith(`{"internal":"${INTERNAL_SECRET}"`)).toBe(true);

      // 127.0.0.2 is loopback too and not on the list.
      const other = await knock.workflows.trigger('data-hook', {
        recipients: [{ id: 'not-listed' }],
        data: { target: `http://127.0.0.2:${port}/hook` },
      });
      const refused = await messageWithStatus(t, (await messageOf(t, other.workflow_run_id, 'hook')).id, ['undelivered', 'delivered']);
      expect(refused.status).toBe('undelivered');
    });
  });
});
