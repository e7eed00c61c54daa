import { createHmac, generateKeyPairSync, sign } from 'node:crypto';
import { selfSignedCertificate } from '@notify/testing';
import {
  defaultReceiptSources,
  mailgunSignature,
  ReceiptRequest,
  snsCertificateAllowed,
  snsStringToSign,
  svixSignature,
  twilioSignature,
} from './index';

const now = new Date('2026-11-26T08:00:00Z');
const nowSeconds = String(Math.floor(now.getTime() / 1000));
const sources = defaultReceiptSources();
const source = (id: string) => sources.get(id)!;

function request(body: unknown, headers: Record<string, string> = {}, extra: Partial<ReceiptRequest> = {}): ReceiptRequest {
  const rawBody = typeof body === 'string' ? body : JSON.stringify(body);
  return {
    rawBody,
    body: typeof body === 'string' ? JSON.parse(body) : body,
    headers,
    url: 'https://notify.test/v1/receipts/x',
    now,
    ...extra,
  };
}

describe('SendGrid receipts (ECDSA P-256 over timestamp + body)', () => {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const verificationKey = publicKey.export({ type: 'spki', format: 'der' }).toString('base64');
  const events = [
    { email: 'a@x.test', event: 'delivered', sg_event_id: 'e1', sg_message_id: 'MSG1.filter0001.1.0', timestamp: 1764144000 },
    { email: 'a@x.test', event: 'bounce', type: 'bounce', reason: '550 no such user', sg_event_id: 'e2', sg_message_id: 'MSG1.f' },
    { email: 'a@x.test', event: 'bounce', type: 'blocked', sg_event_id: 'e3', sg_message_id: 'MSG1.f' },
    { email: 'a@x.test', event: 'spamreport', sg_event_id: 'e4', sg_message_id: 'MSG1.f' },
    { email: 'a@x.test', event: 'open', sg_event_id: 'e5', sg_message_id: 'MSG1.f' },
    { email: 'a@x.test', event: 'click', url: 'https://x.test/a', sg_event_id: 'e6', sg_message_id: 'MSG1.f' },
    { email: 'a@x.test', event: 'processed', sg_event_id: 'e7', sg_message_id: 'MSG1.f' },
  ];
  const raw = JSON.stringify(events);
  const signed = (body: string, ts = nowSeconds) => ({
    'x-twilio-email-event-webhook-signature': sign('sha256', Buffer.from(ts + body), privateKey).toString('base64'),
    'x-twilio-email-event-webhook-timestamp': ts,
  });

  it('accepts a real signature and refuses a changed body, another key, an old timestamp', async () => {
    const settings = { webhook_verification_key: verificationKey };
    expect(await source('sendgrid').verify(request(raw, signed(raw)), settings, {})).toEqual({ ok: true });
    expect(await source('sendgrid').verify(request(raw.replace('a@x', 'b@x'), signed(raw)), settings, {})).toMatchObject({ ok: false });
    const other = generateKeyPairSync('ec', { namedCurve: 'prime256v1' })
      .publicKey.export({ type: 'spki', format: 'der' })
      .toString('base64');
    expect(await source('sendgrid').verify(request(raw, signed(raw)), { webhook_verification_key: other }, {})).toMatchObject({
      ok: false,
    });
    const old = String(Number(nowSeconds) - 3600);
    expect(await source('sendgrid').verify(request(raw, signed(raw, old)), settings, {})).toMatchObject({ ok: false });
    expect(await source('sendgrid').verify(request(raw, signed(raw)), {}, {})).toMatchObject({ ok: false });
  });

  it('maps events to receipts by the X-Message-Id prefix of sg_message_id', () => {
    const parsed = source('sendgrid').parse(request(raw));
    expect(parsed.ignored).toBe(1);
    expect(parsed.receipts.map((r) => [r.receiptId, r.providerMessageId, r.kind, r.bounceType, r.url])).toEqual([
      ['e1', 'MSG1', 'delivered', null, null],
      ['e2', 'MSG1', 'bounced', 'hard', null],
      ['e3', 'MSG1', 'bounced', 'soft', null],
      ['e4', 'MSG1', 'complained', null, null],
      ['e5', 'MSG1', 'opened', null, null],
      ['e6', 'MSG1', 'clicked', null, 'https://x.test/a'],
    ]);
    expect(parsed.receipts[1].reason).toBe('550 no such user');
  });
});

describe('Amazon SES receipts via SNS (RSA signature, certificate from an allowed origin)', () => {
  const { privateKey, pem } = selfSignedCertificate();
  const certUrl = 'https://sns.eu-west-1.amazonaws.com/SimpleNotificationService-abc.pem';
  const notification = (message: unknown, version = '2') => {
    const m: Record<string, unknown> = {
      Type: 'Notification',
      MessageId: 'sns-1',
      TopicArn: 'arn:aws:sns:eu-west-1:1:ses',
      Message: JSON.stringify(message),
      Timestamp: now.toISOString(),
      SignatureVersion: version,
      SigningCertURL: certUrl,
    };
    m.Signature = sign(version === '2' ? 'sha256' : 'sha1', Buffer.from(snsStringToSign(m)), privateKey).toString('base64');
    return m;
  };
  const bounce = {
    notificationType: 'Bounce',
    mail: { messageId: 'ses-msg-1', destination: ['a@x.test'] },
    bounce: {
      bounceType: 'Permanent',
      bounceSubType: 'General',
      bouncedRecipients: [{ emailAddress: 'a@x.test', diagnosticCode: 'smtp; 550' }],
    },
  };
  const fetched: string[] = [];
  const deps = {
    certificate: async (url: string) => {
      fetched.push(url);
      return pem;
    },
  };

  it('accepts SignatureVersion 1 and 2 signed with the certificate key, refuses a changed message or another topic', async () => {
    for (const version of ['1', '2']) {
      const m = notification(bounce, version);
      expect(await source('ses').verify(request(m), {}, deps)).toEqual({ ok: true });
      expect(await source('ses').verify(request({ ...m, Message: '{}' }), {}, deps)).toMatchObject({ ok: false });
    }
    expect(fetched[0]).toBe(certUrl);
    const m = notification(bounce);
    expect(await source('ses').verify(request(m), { sns_topic_arn: 'arn:aws:sns:eu-west-1:1:other' }, deps)).toMatchObject({ ok: false });
    const failing = { certificate: () => Promise.reject(new Error('not allowed')) };
    expect(await source('ses').verify(request(m), {}, failing)).toMatchObject({ ok: false });
  });

  it('allows certificate URLs only on the configured origins', () => {
    const origins = ['https://sns.*.amazonaws.com', 'http://127.0.0.1:*'];
    expect(snsCertificateAllowed(certUrl, origins)).toBe(true);
    expect(snsCertificateAllowed('http://127.0.0.1:4321/cert.pem', origins)).toBe(true);
    expect(snsCertificateAllowed('https://sns.eu-west-1.amazonaws.com.evil.test/c.pem', origins)).toBe(false);
    expect(snsCertificateAllowed('https://evil.test/sns.eu-west-1.amazonaws.com/c.pem', origins)).toBe(false);
    expect(snsCertificateAllowed('https://sns.eu-west-1.amazonaws.com/c.txt', origins)).toBe(false);
  });

  it('maps bounces, complaints, deliveries, opens and clicks', () => {
    const mail = { messageId: 'ses-msg-1', destination: ['a@x.test'] };
    const kinds = [
      bounce,
      { ...bounce, bounce: { ...bounce.bounce, bounceType: 'Transient' } },
      { notificationType: 'Complaint', mail, complaint: { complainedRecipients: [{ emailAddress: 'a@x.test' }] } },
      { notificationType: 'Delivery', mail, delivery: { timestamp: '2026-11-26T07:59:00Z' } },
      { eventType: 'Open', mail, open: {} },
      { eventType: 'Click', mail, click: { link: 'https://x.test/b' } },
    ].map((n) => source('ses').parse(request(notification(n))).receipts[0]);
    expect(kinds.map((r) => [r.providerMessageId, r.kind, r.bounceType])).toEqual([
      ['ses-msg-1', 'bounced', 'hard'],
      ['ses-msg-1', 'bounced', 'soft'],
      ['ses-msg-1', 'complained', null],
      ['ses-msg-1', 'delivered', null],
      ['ses-msg-1', 'opened', null],
      ['ses-msg-1', 'clicked', null],
    ]);
    expect(kinds[0]).toMatchObject({ receiptId: 'ses:sns-1', recipient: 'a@x.test', reason: 'Permanent: General: smtp; 550' });
    expect(kinds[3].occurredAt).toBe('2026-11-26T07:59:00.000Z');
    expect(kinds[5].url).toBe('https://x.test/b');
  });

  it('hands a subscription confirmation back to be confirmed', () => {
    const parsed = source('ses').parse(
      request({ Type: 'SubscriptionConfirmation', SubscribeURL: 'https://sns.eu-west-1.amazonaws.com/?Action=Confirm' }),
    );
    expect(parsed).toEqual({ receipts: [], ignored: 0, subscribeUrl: 'https://sns.eu-west-1.amazonaws.com/?Action=Confirm' });
  });
});

describe('Postmark receipts (basic auth)', () => {
  const settings = { webhook_username: 'pm', webhook_password: 's3cret' };
  const auth = (user: string, pass: string) => ({ authorization: `Basic ${Buffer.from(`${user}:${pass}`).toString('base64')}` });

  it('accepts the configured credentials only', async () => {
    expect(await source('postmark').verify(request({}, auth('pm', 's3cret')), settings, {})).toEqual({ ok: true });
    expect(await source('postmark').verify(request({}, auth('pm', 'wrong')), settings, {})).toMatchObject({ ok: false });
    expect(await source('postmark').verify(request({}), settings, {})).toMatchObject({ ok: false });
  });

  it('maps record types; a hard bounce type is hard, a soft one soft; the same event has the same id', () => {
    const parse = (body: Record<string, unknown>) => source('postmark').parse(request(body)).receipts[0];
    const hard = parse({ RecordType: 'Bounce', ID: 42, Type: 'HardBounce', MessageID: 'pm-1', Email: 'a@x.test', Description: 'gone' });
    expect(hard).toMatchObject({
      kind: 'bounced',
      bounceType: 'hard',
      providerMessageId: 'pm-1',
      recipient: 'a@x.test',
      reason: 'HardBounce: gone',
    });
    expect(parse({ RecordType: 'Bounce', ID: 43, Type: 'SoftBounce', MessageID: 'pm-1' })).toMatchObject({ bounceType: 'soft' });
    expect(parse({ RecordType: 'Delivery', MessageID: 'pm-1', Recipient: 'a@x.test', DeliveredAt: '2026-11-26T07:00:00Z' })).toMatchObject({
      kind: 'delivered',
      occurredAt: '2026-11-26T07:00:00.000Z',
    });
    expect(parse({ RecordType: 'SpamComplaint', MessageID: 'pm-1' }).kind).toBe('complained');
    expect(parse({ RecordType: 'Click', MessageID: 'pm-1', OriginalLink: 'https://x.test' })).toMatchObject({
      kind: 'clicked',
      url: 'https://x.test',
    });
    expect(parse({ RecordType: 'Bounce', ID: 42, Type: 'HardBounce', MessageID: 'pm-1' }).receiptId).toBe(hard.receiptId);
    expect(source('postmark').parse(request({ RecordType: 'SubscriptionChange', MessageID: 'pm-1' })).ignored).toBe(1);
  });
});

describe('Mailgun receipts (HMAC-SHA256 of timestamp + token)', () => {
  const key = 'key-mailgun';
  const body = (eventData: Record<string, unknown>, signature?: string) => ({
    signature: { timestamp: nowSeconds, token: 'tok', signature: signature ?? mailgunSignature(key, nowSeconds, 'tok') },
    'event-data': eventData,
  });
  const failed = {
    id: 'mg-1',
    event: 'failed',
    severity: 'permanent',
    recipient: 'a@x.test',
    message: { headers: { 'message-id': 'abc@mg.test' } },
  };

  it('accepts a real signature and refuses a wrong one', async () => {
    expect(await source('mailgun').verify(request(body(failed)), { webhook_signing_key: key }, {})).toEqual({ ok: true });
    const forged = createHmac('sha256', 'other').update(`${nowSeconds}tok`).digest('hex');
    expect(await source('mailgun').verify(request(body(failed, forged)), { webhook_signing_key: key }, {})).toMatchObject({ ok: false });
  });

  it('maps failed (permanent: hard, temporary: soft), delivered, complained, opened, clicked', () => {
    const parse = (e: Record<string, unknown>) => source('mailgun').parse(request(body(e))).receipts[0];
    expect(parse(failed)).toMatchObject({ receiptId: 'mg-1', providerMessageId: 'abc@mg.test', kind: 'bounced', bounceType: 'hard' });
    expect(parse({ ...failed, severity: 'temporary' })).toMatchObject({ bounceType: 'soft' });
    expect(parse({ ...failed, event: 'delivered' }).kind).toBe('delivered');
    expect(parse({ ...failed, event: 'complained' }).kind).toBe('complained');
    expect(parse({ ...failed, event: 'clicked', url: 'https://x.test' })).toMatchObject({ kind: 'clicked', url: 'https://x.test' });
  });
});

describe('Resend receipts (Svix signature)', () => {
  const secret = `whsec_${Buffer.from('resend-test-secret').toString('base64')}`;
  const event = {
    type: 'email.bounced',
    created_at: '2026-11-26T07:58:00Z',
    data: { email_id: 're-1', to: ['a@x.test'], bounce: { type: 'Permanent', message: 'no mailbox' } },
  };
  const raw = JSON.stringify(event);
  const headers = (sig: string) => ({ 'svix-id': 'msg_1', 'svix-timestamp': nowSeconds, 'svix-signature': sig });

  it('accepts any matching v1 signature of id.timestamp.body, refuses others', async () => {
    const good = svixSignature(secret, 'msg_1', nowSeconds, raw);
    expect(await source('resend').verify(request(raw, headers(`v1,bogus ${good}`)), { webhook_secret: secret }, {})).toEqual({ ok: true });
    expect(await source('resend').verify(request(raw, headers('v1,bogus')), { webhook_secret: secret }, {})).toMatchObject({ ok: false });
    expect(await source('resend').verify(request(`${raw} `, headers(good)), { webhook_secret: secret }, {})).toMatchObject({ ok: false });
  });

  it('maps email.* events; the svix id is the receipt id', () => {
    const parse = (e: Record<string, unknown>) => source('resend').parse(request(e, { 'svix-id': 'msg_1' })).receipts[0];
    expect(parse(event)).toMatchObject({
      receiptId: 'msg_1',
      providerMessageId: 're-1',
      kind: 'bounced',
      bounceType: 'hard',
      reason: 'no mailbox',
    });
    expect(parse({ ...event, type: 'email.delivered' }).kind).toBe('delivered');
    expect(parse({ ...event, type: 'email.complained' }).kind).toBe('complained');
    expect(parse({ ...event, type: 'email.opened' }).kind).toBe('opened');
    expect(parse({ ...event, type: 'email.clicked', data: { ...event.data, click: { link: 'https://x.test' } } }).url).toBe(
      'https://x.test',
    );
  });
});

describe('Twilio status callbacks (X-Twilio-Signature, HMAC-SHA1 over URL and sorted params)', () => {
  const url = 'https://notify.test/v1/receipts/production/sms/twilio';
  const params = { MessageSid: 'SM1', MessageStatus: 'undelivered', ErrorCode: '30003', To: '+15550001' };

  it('matches the documented algorithm and refuses another URL or changed params', async () => {
    const expected = createHmac('sha1', 'tok')
      .update(`${url}ErrorCode30003MessageSidSM1MessageStatusundeliveredTo+15550001`)
      .digest('base64');
    expect(twilioSignature('tok', url, params)).toBe(expected);
    const signed = { 'x-twilio-signature': expected };
    expect(await source('twilio').verify(request(params, signed, { url }), { auth_token: 'tok' }, {})).toEqual({ ok: true });
    expect(await source('twilio').verify(request(params, signed, { url: `${url}?x=1` }), { auth_token: 'tok' }, {})).toMatchObject({
      ok: false,
    });
    expect(await source('twilio').verify(request({ ...params, To: '+1' }, signed, { url }), { auth_token: 'tok' }, {})).toMatchObject({
      ok: false,
    });
  });

  it('maps delivered, undelivered/failed (with the error code) and ignores progress statuses', () => {
    const parse = (p: Record<string, string>) => source('twilio').parse(request(p));
    expect(parse(params).receipts[0]).toMatchObject({ receiptId: 'SM1:undelivered', kind: 'failed', reason: 'twilio error 30003' });
    expect(parse({ ...params, MessageStatus: 'delivered' }).receipts[0].kind).toBe('delivered');
    expect(parse({ ...params, MessageStatus: 'sent' })).toEqual({ receipts: [], ignored: 1 });
  });
});
