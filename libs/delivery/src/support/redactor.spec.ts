import { Redactor, REDACTED } from './redactor';

describe('Redactor', () => {
  const settings = {
    host: 'smtp.example.com',
    auth: { user: 'mailer-user', pass: 'hunter2-password' },
    api_key: 're_live_abcdef123456',
    service_account: JSON.stringify({
      client_email: 'fcm@p.iam.gserviceaccount.com',
      private_key: '-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n-----END PRIVATE KEY-----\n',
    }),
    from: 'Notify <no-reply@example.com>',
    port: 587,
  };
  const redactor = Redactor.forSettings(settings);

  it('collects secrets from nested settings and JSON strings, but not ordinary values', () => {
    const text = redactor.text(
      `pass=hunter2-password key=re_live_abcdef123456 user=mailer-user pk=MIIEvQIBADANBgkqhkiG9w0BAQEFAASC host=smtp.example.com`,
    );
    expect(text).toBe(`pass=${REDACTED} key=${REDACTED} user=${REDACTED} pk=${REDACTED} host=smtp.example.com`);
  });

  it('redacts credential headers by name, Basic auth included', () => {
    const headers = redactor.headers({
      Authorization: 'Basic bWFpbGVyOnNlY3JldA==',
      'X-Api-Key': 'k',
      'x-auth-token': 't',
      'content-type': 'application/json',
      'idempotency-key': 'msg-1',
    });
    expect(headers).toEqual({
      Authorization: REDACTED,
      'X-Api-Key': REDACTED,
      'x-auth-token': REDACTED,
      'content-type': 'application/json',
      'idempotency-key': 'msg-1',
    });
  });

  it('redacts secret-named body fields and known values, keeping device tokens', () => {
    const body = redactor.body({
      assertion: 'eyJ.x.y',
      access_token: 'ya29.zzz',
      message: { token: 'device-token-1', note: 'key re_live_abcdef123456' },
      list: [{ client_secret: 's3' }],
      headers: { 'X-Api-Key': 'k1', 'X-Entity': 'e' },
    });
    expect(body).toEqual({
      assertion: REDACTED,
      access_token: REDACTED,
      message: { token: 'device-token-1', note: `key ${REDACTED}` },
      list: [{ client_secret: REDACTED }],
      headers: { 'X-Api-Key': REDACTED, 'X-Entity': 'e' },
    });
  });

  it('redacts URL passwords, secret query parameters and known values in URLs', () => {
    const r = new Redactor().add('T0KENSEGMENT');
    expect(r.url('https://user:pw@hooks.example.com/services/T1/B2/T0KENSEGMENT?token=abc&x=1')).toBe(
      `https://user:${encodeURIComponent(REDACTED)}@hooks.example.com/services/T1/B2/${REDACTED}?token=${encodeURIComponent(REDACTED)}&x=1`,
    );
  });

  it('replaces the longer of two overlapping secrets whole', () => {
    const r = new Redactor().add('abcdef', 'abcdefghij');
    expect(r.text('x abcdefghij y abcdef')).toBe(`x ${REDACTED} y ${REDACTED}`);
  });

  it('ignores values too short to be secrets', () => {
    expect(new Redactor().add('on', '1234').text('on 1234')).toBe('on 1234');
  });
});
