import { closedPort, leakedSecrets, startSilentTcpPeer, startSmtpPeer, type SmtpPeer } from '@notify/testing/peers';
import type { DeliveryFailure, DeliveryRequest, ProviderConfig } from '../types';
import { SmtpProvider } from './smtp.provider';

const user = 'mailer@example.com';
const pass = 'smtp-pass-Xq81z';

const request = (overrides: Partial<DeliveryRequest> = {}): DeliveryRequest => ({
  messageId: 'msg_2x7',
  environment: 'development',
  attempt: 1,
  idempotencyKey: 'msg_2x7',
  recipient: { id: 'ada', email: 'ada@example.org', name: 'Ada Lovelace' },
  content: {
    type: 'email',
    subject: 'Your report is ready',
    html_body: '<p>Hello <b>Ada</b></p>',
    text_body: 'Hello Ada',
    cc: 'charles@example.org',
    reply_to: 'support@example.com',
    headers: { 'X-Campaign': 'weekly' },
  },
  ...overrides,
});

describe('SmtpProvider against a real SMTP server', () => {
  const provider = new SmtpProvider();
  let peer: SmtpPeer;
  let config: ProviderConfig;

  beforeAll(async () => {
    peer = await startSmtpPeer({ user, pass });
  });
  afterAll(() => peer.close());
  beforeEach(() => {
    peer.messages.length = 0;
    peer.rejectRecipient = () => undefined;
    config = {
      provider: 'smtp',
      channelType: 'email',
      settings: {
        host: '127.0.0.1',
        port: peer.port,
        auth: { user, pass },
        from: 'Notify <no-reply@notify.example.com>',
        ignore_tls: true,
      },
    };
  });

  it('hands the message to the server with its addresses, subject, bodies and headers', async () => {
    const result = await provider.send(request(), config);

    expect(result).toMatchObject({ outcome: 'sent', providerMessageId: '<msg_2x7@notify.example.com>' });
    expect(peer.messages).toHaveLength(1);
    const [mail] = peer.messages;
    expect(mail.user).toBe(user);
    expect(mail.envelope.mailFrom && mail.envelope.mailFrom.address).toBe('no-reply@notify.example.com');
    expect(mail.envelope.rcptTo.map((r) => r.address).sort()).toEqual(['ada@example.org', 'charles@example.org']);
    expect(mail.parsed.from?.value).toEqual([{ address: 'no-reply@notify.example.com', name: 'Notify' }]);
    expect(mail.parsed.to).toMatchObject({ value: [{ address: 'ada@example.org', name: 'Ada Lovelace' }] });
    expect(mail.parsed.cc).toMatchObject({ value: [{ address: 'charles@example.org' }] });
    expect(mail.parsed.replyTo).toMatchObject({ value: [{ address: 'support@example.com' }] });
    expect(mail.parsed.subject).toBe('Your report is ready');
    expect(mail.parsed.text?.trim()).toBe('Hello Ada');
    expect(mail.parsed.html).toContain('<p>Hello <b>Ada</b></p>');
    expect(mail.parsed.messageId).toBe('<msg_2x7@notify.example.com>');
    expect(mail.parsed.headers.get('x-notify-idempotency-key')).toBe('msg_2x7');
    expect(mail.parsed.headers.get('x-campaign')).toBe('weekly');
  });

  it('logs the exchange without the password', async () => {
    const result = await provider.send(request(), config);

    expect(result.logs).toHaveLength(1);
    expect(result.logs[0]).toMatchObject({
      request: {
        method: 'SMTP',
        url: `smtp://127.0.0.1:${peer.port}`,
        headers: { subject: 'Your report is ready', 'message-id': '<msg_2x7@notify.example.com>' },
      },
      response: { status: 250 },
    });
    expect(leakedSecrets(result, [pass, Buffer.from(`\u0000${user}\u0000${pass}`).toString('base64')])).toEqual([]);
  });

  it('gives every attempt of one message the same Message-ID', async () => {
    await provider.send(request({ attempt: 1 }), config);
    await provider.send(request({ attempt: 2 }), config);
    const ids = peer.messages.map((m) => m.parsed.messageId);
    expect(ids).toEqual(['<msg_2x7@notify.example.com>', '<msg_2x7@notify.example.com>']);
  });

  it('uses the content sender over the configured one, and message_id_domain for the Message-ID', async () => {
    const content = { ...(request().content as object), from: 'billing@corp.example.net' } as DeliveryRequest['content'];
    const result = await provider.send(request({ content }), {
      ...config,
      settings: { ...config.settings, message_id_domain: 'ids.example.com' },
    });
    expect(result).toMatchObject({ outcome: 'sent', providerMessageId: '<msg_2x7@ids.example.com>' });
    expect(peer.messages[0].envelope.mailFrom && peer.messages[0].envelope.mailFrom.address).toBe('billing@corp.example.net');
  });

  it('fails permanently when the server refuses the login (535), without leaking the password', async () => {
    const wrong = 'wrong-pass-77aa';
    const result = await provider.send(request(), { ...config, settings: { ...config.settings, auth: { user, pass: wrong } } });
    expect(result).toMatchObject({ outcome: 'failed', retryable: false, code: 'smtp_535' });
    expect(peer.messages).toHaveLength(0);
    expect(leakedSecrets(result, [wrong])).toEqual([]);
  });

  it.each([
    [550, false],
    [553, false],
    [451, true],
    [452, true],
  ])('classifies a recipient refused with %i as retryable=%p', async (code, retryable) => {
    peer.rejectRecipient = () => ({ code, message: 'Recipient refused' });
    const result = await provider.send(request({ content: { type: 'email', subject: 's', text_body: 't' } }), config);
    expect(result).toMatchObject({ outcome: 'failed', retryable, code: `smtp_${code}` });
    expect(result.logs[0].response?.status).toBe(code);
    // A mailbox refused at RCPT TO is a hard bounce; a temporary refusal is not.
    expect((result as DeliveryFailure).bounced === true).toBe(!retryable);
  });

  it('does not call a refused login a bounce', async () => {
    const result = await provider.send(request(), { ...config, settings: { ...config.settings, auth: { user, pass: 'wrong-again-1' } } });
    expect(result).toMatchObject({ outcome: 'failed', code: 'smtp_535' });
    expect((result as DeliveryFailure).bounced).toBeUndefined();
  });

  it('gives up at the deadline on a server that never greets (retryable)', async () => {
    const silent = await startSilentTcpPeer();
    try {
      const result = await provider.send(request(), { ...config, settings: { ...config.settings, port: silent.port, timeout_ms: 300 } });
      expect(result).toMatchObject({ outcome: 'failed', retryable: true, code: 'timeout' });
      expect(result.logs[0].error).toMatch(/^timeout/);
    } finally {
      await silent.close();
    }
  });

  it('fails retryably when nobody listens', async () => {
    const result = await provider.send(request(), { ...config, settings: { ...config.settings, port: await closedPort() } });
    expect(result).toMatchObject({ outcome: 'failed', retryable: true, code: 'network_error' });
  });

  it('stops when the caller aborts', async () => {
    const silent = await startSilentTcpPeer();
    try {
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 100);
      const result = await provider.send(request(), { ...config, settings: { ...config.settings, port: silent.port } }, controller.signal);
      expect(result).toMatchObject({ outcome: 'failed', retryable: true, code: 'aborted' });
    } finally {
      await silent.close();
    }
  });
});
