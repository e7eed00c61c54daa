import Knock from '@knocklabs/node';
import { startHttpPeer, startSmtpPeer, type Peer, type SmtpPeer } from '@notify/testing/peers';
import { twilioMessageCreated } from '@notify/testing/provider-peers';
import { messageOf, messageWithStatus, putChannel, putWorkflow, secretsAt } from '../../support/delivery';
import { settled } from '../../support/engine';
import { eventually } from '../../support/recipients';
import { startTestApp, TestApp } from '../../support/test-app';

/**
 * The right to be forgotten, checked the way an auditor would: a user's personal values go
 * through every path (profile, preferences, audience membership with inline identification,
 * inline identification in a trigger, rendered messages over in-app, email and SMS, delivery
 * logs), the user is deleted, and then every table of the database (the event log included) is
 * searched for each value. A rebuild of every read model afterwards brings none of it back.
 */
describe('erasing a user', () => {
  let t: TestApp;
  let knock: Knock;
  let smtp: SmtpPeer;
  let twilio: Peer;
  const user = 'erase-me';
  const personal = {
    email: 'grace.erasure@example.org',
    phone: '+15557654321',
    name: 'Grace Erasure-Hopper',
    secretProperty: 'favourite-colour-ultramarine-42',
    inlineEmail: 'grace.inline@example.org',
    triggerData: 'grace-trigger-payload-passport-X1234567',
  };

  beforeAll(async () => {
    smtp = await startSmtpPeer({ user: 'mailer', pass: 'smtp-pass-erasure-1' });
    twilio = await startHttpPeer(twilioMessageCreated);
    t = await startTestApp();
    knock = t.knock();
    await putChannel(t, 'mail', {
      type: 'email',
      provider: 'smtp',
      provider_settings: { host: '127.0.0.1', port: smtp.port, auth: { user: 'mailer', pass: 'smtp-pass-erasure-1' }, ignore_tls: true },
      channel_settings: { from_address: 'hello@acme.example' },
    });
    await putChannel(t, 'sms', {
      type: 'sms',
      provider: 'twilio',
      provider_settings: {
        account_sid: 'AC0123456789abcdef0123456789abcdef',
        auth_token: 'tw-erasure',
        from: '+15005550006',
        base_url: twilio.url,
      },
    });
    await putWorkflow(t, 'everything', [
      {
        type: 'channel',
        ref: 'feed',
        channel_key: 'in-app',
        template: { markdown_body: 'Hi {{ recipient.name }} ({{ recipient.favourite }})' },
      },
      {
        type: 'channel',
        ref: 'email',
        channel_key: 'mail',
        template: { subject: 'For {{ recipient.name }}', html_body: '<p>{{ recipient.email }} {{ data.note }}</p>', settings: {} },
      },
      {
        type: 'channel',
        ref: 'sms',
        channel_key: 'sms',
        template: { text_body: 'Hi {{ recipient.name }} at {{ recipient.phone_number }}' },
      },
    ]);
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
    await twilio?.close();
  });

  it('leaves none of their personal values anywhere in the database once they are deleted', async () => {
    await knock.users.update(user, {
      name: personal.name,
      email: personal.email,
      phone_number: personal.phone,
      favourite: personal.secretProperty,
    } as never);
    await knock.users.setPreferences(user, 'default', { channel_types: { sms: true, email: true } } as never);
    await t.http('POST', '/v1/audiences/erasure-test/members?create_audience=true', {
      body: { members: [{ user: { id: user, email: personal.inlineEmail } }] },
    });
    const { workflow_run_id } = await knock.workflows.trigger('everything', {
      recipients: [{ id: user, email: personal.email, name: personal.name } as never],
      // Trigger data of a single-user trigger is sealed for that user (ADR 0199): in the trigger,
      // the run and the message, and gone with the key.
      data: { note: 'your report is ready', passport: personal.triggerData },
    });
    await messageWithStatus(t, (await messageOf(t, workflow_run_id, 'email')).id, ['sent']);
    await messageWithStatus(t, (await messageOf(t, workflow_run_id, 'sms')).id, ['sent', 'delivered']);
    await settled(t);
    const values = Object.values(personal);
    // Before: the values are in read models (the log holds them sealed).
    expect((await secretsAt(t, values)).length).toBeGreaterThan(0);
    // The trigger data is readable (the message holds it) but sealed in the log: trigger, run and message.
    expect((await secretsAt(t, [personal.triggerData])).length).toBeGreaterThan(0);
    const clear = await t.sql(`SELECT event_type FROM es_events WHERE data::text LIKE $1`, [`%${personal.triggerData}%`]);
    expect(clear).toEqual([]);
    const run = await t.store.readStream(`workflow_run-development-${workflow_run_id}`);
    expect(run[0].data).toMatchObject({ data: { passport: personal.triggerData } });

    await knock.users.delete(user);
    await settled(t);
    expect(await secretsAt(t, values)).toEqual([]);
    const stream = await t.store.readStream(`user-development-${user}`);
    expect(stream.map((e) => e.type).slice(-2)).toEqual(['UserDeleted', 'UserErased']);
    expect(stream.find((e) => e.type === 'UserIdentified')?.data).toMatchObject({ properties: { $erased: true } });
    expect((await t.store.readStream(`workflow_run-development-${workflow_run_id}`))[0].data).toMatchObject({ data: { $erased: true } });

    // Every read model rebuilt from the log: the sealed fields stay unreadable, the erasure applies again.
    for (const { name } of await t.runtime.status()) await t.runtime.rebuild(name);
    expect(await secretsAt(t, values)).toEqual([]);
  });

  it('erases the users of a bulk delete too: UserErased on each, and the erasure reactor destroys their keys', async () => {
    const emails = ['bulk.one@example.org', 'bulk.two@example.org'];
    for (const [i, email] of emails.entries()) await knock.users.update(`bulk-${i}`, { email, name: `Bulk ${i}` });
    await knock.workflows.trigger('everything', { recipients: ['bulk-0', 'bulk-1'] });
    await settled(t);
    expect((await secretsAt(t, emails)).length).toBeGreaterThan(0);
    expect((await t.http('POST', '/v1/users/bulk/delete', { body: { user_ids: ['bulk-0', 'bulk-1'] } })).status).toBe(200);
    for (const i of [0, 1])
      await eventually(
        () => t.store.readStream(`user-development-bulk-${i}`),
        (events) => JSON.stringify(events.find((e) => e.type === 'UserIdentified')?.data ?? {}).includes('"$erased":true'),
      );
    await settled(t);
    expect(await secretsAt(t, emails)).toEqual([]);
  });
});
