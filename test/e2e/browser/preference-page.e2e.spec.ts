import Knock from '@knocklabs/node';
import { userStream } from '@notify/domain';
import { closedPort, startSmtpPeer, type SmtpPeer } from '@notify/testing/peers';
import { Browser } from 'playwright-core';
import { launchChromium } from '../../support/browser';
import { messageOf, messageWithStatus, putChannel, putWorkflow } from '../../support/delivery';
import { finishedRuns } from '../../support/engine';
import { startTestApp, TestApp } from '../../support/test-app';

/**
 * The hosted preference page and one-click unsubscribe end to end (ADR 0190): emails of a
 * categorised workflow carry `preferences_url` (rendered by the template) and the RFC 8058
 * headers, over a real SMTP server; the page is used in headless Chromium as a person would, by
 * the labels of its form; what it saves decides the next send.
 */
describe('preference page in a browser, and one-click unsubscribe', () => {
  let t: TestApp;
  let knock: Knock;
  let smtp: SmtpPeer;
  let browser: Browser;
  let publicUrl: string;

  const template = {
    subject: 'News for {{ recipient.name }}',
    html_body: '<p>Hello {{ recipient.name }}</p><p><a href="{{ preferences_url }}">Manage your notifications</a></p>',
    text_body: 'Hello {{ recipient.name }}. Preferences: {{ preferences_url }}',
    settings: {},
  };

  /** The mail sent to `address` in answer to one trigger, once the message is sent. */
  async function mailOf(address: string, user: string) {
    const { workflow_run_id } = await knock.workflows.trigger('news', { recipients: [user] });
    await messageWithStatus(t, (await messageOf(t, workflow_run_id, 'email')).id, ['sent']);
    const mails = smtp.messages.filter((m) => m.envelope.rcptTo.some((r) => r.address === address));
    return mails[mails.length - 1];
  }

  async function emailStepOfNextRun(user: string) {
    const { workflow_run_id } = await knock.workflows.trigger('news', { recipients: [user] });
    const [run] = await finishedRuns(t, workflow_run_id);
    return run.steps.email;
  }

  beforeAll(async () => {
    // Links in messages are absolute under PUBLIC_URL: the app listens where PUBLIC_URL says.
    const port = await closedPort();
    publicUrl = `http://127.0.0.1:${port}`;
    smtp = await startSmtpPeer({ user: 'mailer', pass: 'smtp-pass-preference-page' });
    t = await startTestApp({ env: { PORT: String(port), PUBLIC_URL: publicUrl } });
    knock = t.knock();
    browser = await launchChromium();
    await putChannel(t, 'mail', {
      type: 'email',
      provider: 'smtp',
      provider_settings: {
        host: '127.0.0.1',
        port: smtp.port,
        auth: { user: 'mailer', pass: 'smtp-pass-preference-page' },
        ignore_tls: true,
      },
      channel_settings: { from_address: 'news@acme.example' },
    });
    await putWorkflow(t, 'news', [{ type: 'channel', ref: 'email', channel_key: 'mail', template }], { categories: ['marketing'] });
    const center = await t.http('PUT', '/v1/preference_center?environment=development', {
      key: t.serviceToken,
      body: {
        config: {
          title: 'Your notifications',
          body: 'Choose what we send you.',
          rows: [
            {
              type: 'category',
              name: 'Marketing',
              description: 'News and offers',
              identifier: 'marketing',
              channel_types: ['email', 'in_app_feed'],
            },
            { type: 'commercial_subscribed', name: 'Commercial messages' },
          ],
        },
      },
    });
    expect(center.status).toBe(200);
    await knock.users.update('ada', { name: 'Ada', email: 'ada@example.org' });
    await knock.users.update('bob', { name: 'Bob', email: 'bob@example.org' });
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await smtp?.close();
  });

  it('emails of a categorised workflow carry the one-click headers; the POST opts the recipient out of that category', async () => {
    const mail = await mailOf('bob@example.org', 'bob');
    // The header lines as sent (mailparser folds List-* headers into one parsed `list` header).
    const header = (name: string) =>
      mail.parsed.headerLines
        .find((h) => h.key === name)
        ?.line.replace(/^[^:]+:\s*/, '')
        .replace(/\r?\n\s+/g, '');
    const listUnsubscribe = String(header('list-unsubscribe'));
    expect(listUnsubscribe).toMatch(new RegExp(`^<${publicUrl}/p/[\\w-]+\\.[\\w-]+\\.[\\w-]+/unsubscribe>$`));
    expect(header('list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
    expect(mail.parsed.html).toContain(`<a href="${publicUrl}/p/`);

    // What a mail provider does (RFC 8058): a POST of the one-click form, no cookies, no browser.
    const response = await fetch(listUnsubscribe.slice(1, -1), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    expect(response.status).toBe(200);
    expect(await knock.users.getPreferences('bob', 'default')).toMatchObject({
      categories: { marketing: { channel_types: { email: false } } },
    });
    expect(await emailStepOfNextRun('bob')).toMatchObject({
      status: 'skipped',
      reason: 'preference:channel_type_opted_out',
      output: { source: 'categories.marketing.channel_types.email' },
    });
  });

  it('the page from the email: untick email for the category, save, and the next email of that category is skipped', async () => {
    const mail = await mailOf('ada@example.org', 'ada');
    const preferencesUrl = /href="([^"]+\/p\/[^"]+)"/.exec(String(mail.parsed.html))![1];
    expect(preferencesUrl.startsWith(`${publicUrl}/p/`)).toBe(true);

    const page = await browser.newPage();
    try {
      const opened = await page.goto(preferencesUrl);
      expect(opened?.status()).toBe(200);
      await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Your notifications');
      const marketing = page.getByRole('group', { name: 'Marketing' });
      const email = marketing.getByRole('checkbox', { name: 'Email' });
      expect(await email.isChecked()).toBe(true);
      expect(await marketing.getByRole('checkbox', { name: 'In-app' }).isChecked()).toBe(true);
      await email.uncheck();
      await Promise.all([page.waitForNavigation(), page.getByRole('button', { name: 'Save preferences' }).click()]);
      await expect(page.getByRole('status').textContent()).resolves.toContain('saved');
      // The page shows what was saved.
      expect(await page.getByRole('group', { name: 'Marketing' }).getByRole('checkbox', { name: 'Email' }).isChecked()).toBe(false);
    } finally {
      await page.close();
    }

    expect(await knock.users.getPreferences('ada', 'default')).toMatchObject({
      categories: { marketing: { channel_types: { email: false, in_app_feed: true } } },
      commercial_subscribed: true,
    });
    expect(await emailStepOfNextRun('ada')).toMatchObject({
      status: 'skipped',
      reason: 'preference:channel_type_opted_out',
      output: { source: 'categories.marketing.channel_types.email' },
    });
  });

  it('a tampered or expired link shows an error page and writes nothing', async () => {
    const { url } = await knock.users.preferenceCenter.generateSignedURL('ada');
    const [head, payload, signature] = url.slice(url.lastIndexOf('/') + 1).split('.');
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
    const longer = Buffer.from(JSON.stringify({ ...claims, exp: (claims.exp as number) + 365 * 86_400 })).toString('base64url');
    const tampered = `${publicUrl}/p/${head}.${longer}.${signature}`;
    const before = (await t.store.readStream(userStream('development', 'ada'))).length;

    const page = await browser.newPage();
    try {
      const opened = await page.goto(tampered);
      expect(opened?.status()).toBe(403);
      await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('This link is not valid');
      await expect(page.getByRole('alert').isVisible()).resolves.toBe(true);
      expect(await page.getByRole('checkbox').count()).toBe(0);
      // A form posted to it anyway is refused too.
      const posted = await page.request.post(tampered, { form: { 'categories:marketing:email': 'on' } });
      expect(posted.status()).toBe(403);
    } finally {
      await page.close();
    }
    expect((await t.store.readStream(userStream('development', 'ada'))).length).toBe(before);
  });
});
