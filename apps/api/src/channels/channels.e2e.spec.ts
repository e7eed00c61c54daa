import KnockMgmt from '@knocklabs/mgmt';
import { channelStream, variableStream } from '@notify/domain';
import { rebuildAndCompare } from '../../../../test/support/rebuild';
import { startTestApp, TestApp } from '../../../../test/support/test-app';

/** Channels, channel groups and variables: account-wide, with settings and values per environment. */
describe('channels, channel groups and variables (management API)', () => {
  let t: TestApp;
  let mgmt: KnockMgmt;
  const countEvents = async () => Number((await t.sql<{ c: string }>('SELECT count(*) AS c FROM es_events'))[0].c);
  const svc = (method: string, path: string, body?: unknown) => t.http(method, path, { key: t.serviceToken, body });
  const SECRET = 'SG.live-secret-value-0123456789';

  beforeAll(async () => {
    t = await startTestApp();
    mgmt = t.mgmt();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('configures a channel per environment, never returns its secrets and keeps them out of the log in clear', async () => {
    const res = await svc('PUT', '/v1/channels/sendgrid', {
      channel: {
        name: 'SendGrid',
        type: 'email',
        provider: 'sendgrid',
        environment_settings: {
          development: { provider_settings: { api_key: SECRET, from_address: 'hi@example.com' }, is_sandbox: true },
          production: { provider_settings: { api_key: '{{ vars.sendgrid_key }}' } },
        },
      },
    });
    expect(res.status).toBe(200);
    expect(res.body.channel).toMatchObject({
      key: 'sendgrid',
      type: 'email',
      provider: 'sendgrid',
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
    });
    expect(res.body.channel.environment_settings.development).toMatchObject({
      provider_settings: { api_key: '********', from_address: 'hi@example.com' },
      is_sandbox: true,
      is_valid: true,
    });
    expect(res.body.channel.environment_settings.production.provider_settings.api_key).toBe('{{ vars.sendgrid_key }}');
    expect(JSON.stringify((await t.store.readStream(channelStream('sendgrid'))).map((e) => e.data))).not.toContain(SECRET);
    expect(JSON.stringify(await t.sql('SELECT * FROM rm_channels'))).not.toContain(SECRET);
    expect((await t.sql<{ n: string }>(`SELECT count(*) AS n FROM es_events WHERE data::text LIKE '%' || $1 || '%'`, [SECRET]))[0].n).toBe(
      '0',
    );

    // Writing back what was read keeps the secret; changing the name records a new configuration.
    const read = await mgmt.channels.retrieve('sendgrid');
    expect((await svc('PUT', '/v1/channels/sendgrid', { channel: { ...read, name: 'SendGrid (marketing)' } })).status).toBe(200);
    const history = await t.store.readStream(channelStream('sendgrid'));
    expect(history).toHaveLength(2);
    const sealed = (e: (typeof history)[number]) =>
      (e.data as { environment_settings: { development: { provider_settings: { api_key: unknown } } } }).environment_settings.development
        .provider_settings.api_key;
    expect(sealed(history[1])).toEqual(sealed(history[0]));

    const keys: string[] = [];
    for await (const c of mgmt.channels.list()) keys.push(c.key);
    expect(keys).toEqual(['in-app', 'sendgrid']);
  });

  it('refuses to change a channel type or configure an unknown environment, writing nothing', async () => {
    const before = await countEvents();
    const retype = await svc('PUT', '/v1/channels/sendgrid', { channel: { name: 'x', type: 'sms', provider: 'twilio' } });
    expect(retype.status).toBe(422);
    expect(retype.body).toMatchObject({ code: 'channel_type_immutable' });
    const nowhere = await svc('PUT', '/v1/channels/other', {
      channel: { name: 'x', type: 'sms', provider: 'twilio', environment_settings: { staging: {} } },
    });
    expect(nowhere.status).toBe(422);
    expect(nowhere.body.errors).toEqual([expect.objectContaining({ field: 'channel.environment_settings.staging' })]);
    expect(await countEvents()).toBe(before);
  });

  it("validates a built-in provider's settings by its schema, naming the setting, and writes nothing", async () => {
    const before = await countEvents();
    const bad = await svc('PUT', '/v1/channels/ses', {
      channel: {
        name: 'SES',
        type: 'email',
        provider: 'ses',
        environment_settings: { development: { provider_settings: { access_key_id: 'AKIAEXAMPLE', region: 'mars', timeout_ms: 'soon' } } },
      },
    });
    expect(bad.status).toBe(422);
    expect(bad.body).toMatchObject({ code: 'invalid_params', status: 422 });
    const fields = (bad.body.errors as { field: string }[]).map((e) => e.field).sort();
    expect(fields).toEqual([
      'channel.environment_settings.development.provider_settings.region',
      'channel.environment_settings.development.provider_settings.secret_access_key',
      'channel.environment_settings.development.provider_settings.timeout_ms',
    ]);
    const wrongType = await svc('PUT', '/v1/channels/ses', { channel: { name: 'SES', type: 'sms', provider: 'ses' } });
    expect(wrongType.status).toBe(422);
    expect(wrongType.body.errors).toEqual([expect.objectContaining({ field: 'channel.provider' })]);
    expect(await countEvents()).toBe(before);

    const ok = await svc('PUT', '/v1/channels/ses', {
      channel: {
        name: 'SES',
        type: 'email',
        provider: 'ses',
        environment_settings: {
          development: {
            provider_settings: { access_key_id: 'AKIAEXAMPLE', secret_access_key: 'ses-secret-0123456789', region: 'eu-west-1' },
          },
          production: {},
        },
      },
    });
    expect(ok.status).toBe(200);
    expect(ok.body.channel.environment_settings.development).toMatchObject({
      provider_settings: { secret_access_key: '********', region: 'eu-west-1' },
      is_valid: true,
    });
    // An environment given no settings yet is kept, and read back as not valid.
    expect(ok.body.channel.environment_settings.production.is_valid).toBe(false);
    // The secret written back as its marker counts as given.
    const read = await mgmt.channels.retrieve('ses');
    expect((await svc('PUT', '/v1/channels/ses', { channel: { ...read, name: 'SES (eu)' } })).status).toBe(200);
  });

  it('lets a workflow step use a configured channel of the matching type', async () => {
    const step = {
      type: 'channel',
      ref: 'mail',
      channel_key: 'sendgrid',
      template: { subject: 'Hi', html_body: '<p>Hi {{ recipient.name }}</p>', settings: {} },
    };
    const ok = await svc('PUT', '/v1/workflows/mailer?environment=development', { workflow: { name: 'Mailer', steps: [step] } });
    expect(ok.body.workflow).toMatchObject({ valid: true, steps: [expect.objectContaining({ channel_type: 'email' })] });
    const wrong = await svc('PUT', '/v1/workflows/mailer-wrong?environment=development', {
      workflow: { name: 'Mailer', steps: [{ ...step, template: { markdown_body: 'x' } }] },
    });
    expect(wrong.body.workflow.valid).toBe(false);
  });

  it('upserts, reads and archives channel groups whose rules name channels of the group type', async () => {
    await svc('PUT', '/v1/channels/mailgun', {
      channel: { name: 'Mailgun', type: 'email', provider: 'mailgun', environment_settings: { development: {} } },
    });
    const { channel_group: group } = await mgmt.channelGroups.upsert('email-fallback', {
      channel_group: {
        name: 'Email with fallback',
        channel_type: 'email',
        operator: 'any',
        channel_rules: [
          { channel_key: 'sendgrid', rule_type: 'always' },
          { channel_key: 'mailgun', rule_type: 'if', variable: 'recipient.region', operator: 'equal_to', argument: 'eu' },
        ],
      },
    });
    expect(group).toMatchObject({
      key: 'email-fallback',
      channel_type: 'email',
      source: 'user',
      channel_rules: [
        expect.objectContaining({ index: 0, channel: expect.objectContaining({ key: 'sendgrid' }) }),
        expect.objectContaining({ index: 1, rule_type: 'if' }),
      ],
    });
    expect(await mgmt.channelGroups.retrieve('email-fallback')).toMatchObject({ key: 'email-fallback' });

    const before = await countEvents();
    const mismatch = await svc('PUT', '/v1/channel_groups/bad', {
      channel_group: { name: 'Bad', channel_type: 'sms', channel_rules: [{ channel_key: 'sendgrid', rule_type: 'always' }] },
    });
    expect(mismatch.status).toBe(422);
    expect(mismatch.body.errors).toEqual([
      expect.objectContaining({ field: 'channel_group.channel_rules.0.channel_key', type: 'mismatch' }),
    ]);
    expect(await countEvents()).toBe(before);

    const step = {
      type: 'channel',
      ref: 'mail',
      channel_group_key: 'email-fallback',
      template: { subject: 'Hi', html_body: 'x', settings: {} },
    };
    expect(
      (await svc('PUT', '/v1/workflows/grouped?environment=development', { workflow: { name: 'Grouped', steps: [step] } })).body.workflow
        .valid,
    ).toBe(true);

    expect((await svc('DELETE', '/v1/channel_groups/email-fallback')).status).toBe(204);
    expect((await svc('GET', '/v1/channel_groups/email-fallback')).status).toBe(404);
  });

  it('keeps variables per environment, with secret values sealed and obfuscated', async () => {
    const pub = await svc('PUT', '/v1/variables/app_url', {
      variable: { value: 'https://dev.example.com', environment_values: { production: 'https://example.com' } },
    });
    expect(pub.body.variable).toMatchObject({
      key: 'app_url',
      type: 'public',
      value: 'https://dev.example.com',
      environment_values: { production: 'https://example.com' },
    });
    await svc('PUT', '/v1/variables/sendgrid_key', { variable: { type: 'secret', value: SECRET } });

    const inProd = await svc('GET', '/v1/variables?environment=production');
    expect(inProd.body.entries).toEqual([
      expect.objectContaining({ key: 'app_url', value: 'https://example.com' }),
      expect.objectContaining({ key: 'sendgrid_key', type: 'secret', value: '********' }),
    ]);
    expect((await mgmt.variables.retrieve('app_url')).value).toBe('https://dev.example.com');
    expect(JSON.stringify((await t.store.readStream(variableStream('sendgrid_key'))).map((e) => e.data))).not.toContain(SECRET);
  });

  it('rebuilds channels, channel groups and variables from the log to exactly the live result', async () => {
    const { live, rebuilt } = await rebuildAndCompare(t, ['channels', 'channel-groups', 'variables']);
    expect(live.rm_variables.length).toBe(2);
    expect(rebuilt).toEqual(live);
  });
});
