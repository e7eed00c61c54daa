import { REDACTED } from '@notify/contracts';
import { randomBytes } from 'node:crypto';
import { redactSettings, sealSettings, SecretBox, unsealValue } from './secret-box';

describe('SecretBox', () => {
  const box = new SecretBox(randomBytes(32));

  it('seals and opens a value, never keeping it in clear', () => {
    const sealed = box.seal('sg_live_0123456789');
    expect(JSON.stringify(sealed)).not.toContain('sg_live');
    expect(sealed.hint).toBe('6789');
    expect(box.open(sealed)).toBe('sg_live_0123456789');
    expect(() => new SecretBox(randomBytes(32)).open(sealed)).toThrow();
  });

  it('seals the credentials of every provider added for issue 21, and reads them back masked', () => {
    const settings = {
      secret_access_key: 'aws-secret-0123',
      session_token: 'aws-session-0123',
      server_token: 'postmark-0123',
      api_secret: 'vonage-0123',
      access_key: 'messagebird-0123',
      rest_api_key: 'onesignal-0123',
      bot_token: 'telegram-0123',
      app_password: 'teams-0123',
      access_token: 'expo-0123',
      region: 'eu-west-1',
      app_id: '9b1c2d3e-0000-4000-8000-00000000b07a',
      domain: 'mg.acme.example',
    };
    const read = redactSettings(sealSettings(box, settings));
    expect(read).toEqual({
      ...Object.fromEntries(Object.keys(settings).map((k) => [k, REDACTED])),
      region: 'eu-west-1',
      app_id: '9b1c2d3e-0000-4000-8000-00000000b07a',
      domain: 'mg.acme.example',
    });
  });

  it('seals credential-like settings only, keeps Liquid references, and keeps a secret sent back redacted', () => {
    const sealed = sealSettings(box, { api_key: 'abc123abc123', from_address: 'a@b.c', auth_token: '{{ vars.twilio_token }}' });
    expect(sealed.from_address).toBe('a@b.c');
    expect(sealed.auth_token).toBe('{{ vars.twilio_token }}');
    expect(box.open(sealed.api_key as never)).toBe('abc123abc123');
    expect(redactSettings(sealed)).toEqual({ api_key: REDACTED, from_address: 'a@b.c', auth_token: '{{ vars.twilio_token }}' });
    expect(sealSettings(box, { api_key: REDACTED }, sealed).api_key).toEqual(sealed.api_key);
  });

  it('seals nested credentials (SMTP auth, an FCM service account) and opens them again', () => {
    const settings = {
      host: 'smtp.example',
      auth: { user: 'mailer', pass: 'pw-0123456789' },
      service_account: { client_email: 'a@b.iam', private_key: 'PEM-0123456789' },
    };
    const sealed = sealSettings(box, settings);
    expect(JSON.stringify(sealed)).not.toContain('pw-0123456789');
    expect(JSON.stringify(sealed)).not.toContain('PEM-0123456789');
    expect(redactSettings(sealed)).toEqual({
      host: 'smtp.example',
      auth: { user: 'mailer', pass: REDACTED },
      service_account: { client_email: 'a@b.iam', private_key: REDACTED },
    });
    expect(unsealValue(box, sealed)).toEqual(settings);
    expect(sealSettings(box, { auth: { user: 'mailer', pass: REDACTED } }, sealed)).toEqual({ auth: sealed.auth });
    const asString = sealSettings(box, { service_account: JSON.stringify(settings.service_account) });
    expect(JSON.stringify(asString)).not.toContain('PEM-0123456789');
  });
});
