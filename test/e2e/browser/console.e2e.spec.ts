import Knock from '@knocklabs/node';
import { Browser, Page } from 'playwright-core';
import { readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { addMember, ERASURE_KEYS } from '@notify/application';
import { ConsoleSessionSigner } from '@notify/http';
import { launchChromium } from '../../support/browser';
import { messageOf } from '../../support/delivery';
import { finishedRuns } from '../../support/engine';
import { startTestApp, TestApp } from '../../support/test-app';

/**
 * Where the screenshot is written: the README's (docs/console.png) with UPDATE_SCREENSHOTS=1,
 * else a temporary file, so that a test run leaves the checkout as it was.
 */
const SCREENSHOT = process.env.UPDATE_SCREENSHOTS
  ? path.resolve(__dirname, '../../../docs/console.png')
  : path.join(os.tmpdir(), `notify-console-${process.pid}.png`);

/**
 * The operator console (ADR 0169) in headless Chromium, served by the api process from the built
 * assets (`npm run build` writes dist/console): sign in with the service token, find a user,
 * open one of its messages and the run's timeline, edit a workflow (the server's validation
 * answers as one types) and preview it, and watch an event arrive in the live tail of the log.
 */
describe('operator console in a browser', () => {
  let t: TestApp;
  let knock: Knock;
  let browser: Browser;
  let page: Page;
  /** Uncaught errors in the page and Content-Security-Policy refusals: there should be none. */
  const pageProblems: string[] = [];

  beforeAll(async () => {
    t = await startTestApp();
    knock = t.knock();
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1360, height: 860 } });
    page.on('pageerror', (error) => pageProblems.push(error.message));
    page.on('console', (message) => {
      if (/Content.Security.Policy/i.test(message.text())) pageProblems.push(message.text());
    });
    await knock.users.update('ada', { name: 'Ada Lovelace', email: 'ada@example.org' });
    const { workflow_run_id } = await knock.workflows.trigger('welcome', { recipients: ['ada'], data: { message: 'First light.' } });
    await finishedRuns(t, workflow_run_id);
    await messageOf(t, workflow_run_id, 'in_app_feed_1');
  });
  afterAll(async () => {
    await page?.close();
    await browser?.close();
    await t?.close();
  });

  it('is served at /console with its assets', async () => {
    const index = await fetch(`${t.url}/console/`);
    expect(index.status).toBe(200);
    expect(index.headers.get('content-type')).toContain('text/html');
    expect(index.headers.get('cache-control')).toBe('no-cache');
    expect(index.headers.get('content-security-policy')).toContain("connect-src 'self'");
    const html = await index.text();
    // Its icon is inline: browsers then ask for no /favicon.ico, which the service does not serve (headless Chromium never asks).
    expect(html).toMatch(/<link\s+rel="icon"\s+href="data:image\/svg\+xml,/);
    const script = /src="(\/console\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    expect(script).toBeDefined();
    const asset = await fetch(`${t.url}${script}`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toContain('immutable');
    await asset.arrayBuffer();
    const bare = await fetch(`${t.url}/console`);
    expect(bare.status).toBe(200);
    expect(await bare.text()).toBe(html);
    const missing = await fetch(`${t.url}/console/assets/missing.js`);
    expect(missing.status).toBe(404);
    await missing.arrayBuffer();
  });

  it('signs in, finds a user, opens a message and its run timeline', async () => {
    await page.goto(`${t.url}/console/`);
    await page.getByLabel('Service token').fill('svc_not-a-token');
    await page.getByRole('button', { name: 'Sign in' }).click();
    const refused = page.getByRole('alert').filter({ hasText: 'Sign-in failed' });
    await refused.waitFor();
    expect(await refused.textContent()).toContain('service token you provided is invalid');

    await page.getByLabel('Service token').fill(t.serviceToken);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Workflows', level: 2 }).waitFor();
    // The token is held in the tab's session storage only.
    expect(await page.evaluate('sessionStorage.getItem("notify-console-session")')).toContain(t.serviceToken);

    await page.getByRole('navigation', { name: 'Screens' }).getByRole('link', { name: 'Recipients' }).click();
    await page.getByLabel('User id').fill('ada');
    await page.getByRole('button', { name: 'Find user' }).click();
    await page.getByRole('heading', { name: 'Ada Lovelace' }).waitFor();

    // Preferences as a send merges them, layer by layer; the user's audiences.
    await page.getByRole('tab', { name: 'Preferences' }).click();
    await page.getByRole('heading', { name: 'Merged preferences (what a send decides by)' }).waitFor();
    await page.getByRole('button', { name: /The user's default set/ }).waitFor();
    await page.getByRole('tab', { name: 'Audiences' }).click();
    await page.getByText('Not in any audience.').waitFor();

    await page.getByRole('tab', { name: 'History' }).click();
    await page
      .getByRole('button', { name: /^UserIdentified on user-development-ada/ })
      .first()
      .waitFor();

    await page.getByRole('tab', { name: 'Messages' }).click();
    const messages = page.getByRole('table', { name: 'Messages' });
    await messages.getByRole('link', { name: 'welcome' }).waitFor();
    await messages.getByRole('row').nth(1).getByRole('link').first().click();
    await page.getByRole('heading', { name: /^Message / }).waitFor();
    await page.getByRole('link', { name: 'Open run timeline' }).click();

    await page.getByRole('heading', { name: /^Run / }).waitFor();
    const timeline = page.getByTestId('run-timeline');
    await timeline
      .getByText('First light.', { exact: false })
      .or(timeline.getByText(/triggered welcome/))
      .first()
      .waitFor();
    expect(await timeline.textContent()).toMatch(/triggered welcome/);
    await page.getByText('Verdict').waitFor();
    await page.screenshot({ path: SCREENSHOT });
    expect(readFileSync(SCREENSHOT).subarray(1, 4).toString()).toBe('PNG');
    if (!process.env.UPDATE_SCREENSHOTS) rmSync(SCREENSHOT);
  });

  it('edits a workflow with the server validating as one types, saves it and previews a step', async () => {
    await page.getByRole('navigation', { name: 'Screens' }).getByRole('link', { name: 'Workflows' }).click();
    await page.getByLabel('Search workflows').fill('welc');
    await page.getByRole('table', { name: 'Workflows' }).getByRole('link', { name: 'welcome' }).click();
    await page.getByRole('heading', { name: 'welcome', level: 2 }).waitFor();
    // The steps as a flow.
    await page.getByRole('list', { name: 'Steps' }).getByText('Send on channel in-app').waitFor();

    await page.getByRole('tab', { name: 'Edit' }).click();
    const editor = page.getByLabel('Workflow JSON');
    const workflow = JSON.parse(await editor.inputValue());
    expect(workflow.steps[0].ref).toBe('in_app_feed_1');

    // A step without a channel: the validate route answers 422 naming the field.
    const broken = structuredClone(workflow);
    delete broken.steps[0].channel_key;
    await editor.fill(JSON.stringify(broken, null, 2));
    const notValid = page.getByRole('alert').filter({ hasText: 'Not valid' });
    await notValid.waitFor();
    expect(await notValid.textContent()).toContain('steps.0.channel_key');
    // Nothing can be saved while the server lists problems.
    expect(await page.getByRole('button', { name: 'Save', exact: true }).isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'Save and commit' }).isDisabled()).toBe(true);

    // Every problem is listed, not only the first.
    const twice = structuredClone(broken);
    twice.name = 7;
    twice.steps[0].ref = '';
    await editor.fill(JSON.stringify(twice, null, 2));
    await notValid.filter({ hasText: 'workflow.name' }).waitFor();
    const listed = (await notValid.getByRole('listitem').allTextContents()).join('\n');
    expect(listed).toContain('workflow.name');
    expect(listed).toContain('steps.0.channel_key');
    expect(listed).toContain('steps.0.ref');

    workflow.name = 'Welcome (edited in the console)';
    workflow.steps[0].template.markdown_body = 'Hi {{ recipient.name }}, {{ data.message }}';
    await editor.fill(JSON.stringify(workflow, null, 2));
    await page.getByRole('status').filter({ hasText: 'The server accepts this workflow.' }).waitFor();
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page
      .getByRole('status')
      .filter({ hasText: /^Saved: sha/ })
      .waitFor();
    const saved = await t.mgmt().workflows.retrieve('welcome', { environment: 'development' });
    expect(saved.name).toBe('Welcome (edited in the console)');

    await page.getByRole('tab', { name: 'Preview' }).click();
    await page.getByLabel('Recipient (user id)').fill('ada');
    await page.getByLabel('Data').fill('{"message": "rendered in the console"}');
    await page.getByRole('button', { name: 'Render preview' }).click();
    const preview = page.getByTestId('preview');
    await preview.waitFor();
    expect(await preview.textContent()).toContain('Hi Ada Lovelace, rendered in the console');

    // A test run of the saved version, and its runs by its trigger's id.
    await page.getByRole('button', { name: 'Run a test (saved version)' }).click();
    const seeRuns = page.getByRole('link', { name: 'See its runs' });
    const workflowRunId = new URLSearchParams((await seeRuns.getAttribute('href'))!.split('?')[1]).get('workflow_run_id')!;
    await finishedRuns(t, workflowRunId);
    await seeRuns.click();
    const runs = page.getByRole('table', { name: 'Runs' });
    await runs.getByRole('cell', { name: 'rehearsal' }).waitFor();
    expect(await runs.getByRole('row').count()).toBe(2);
  });

  it('shows a new event arriving in the live tail of the log', async () => {
    await page.getByRole('navigation', { name: 'Screens' }).getByRole('link', { name: 'Event log' }).click();
    // Pushed over server-sent events, not polled.
    await page.getByTestId('tail-state').filter({ hasText: 'following (pushed)' }).waitFor();
    await knock.users.update('grace', { name: 'Grace Hopper' });
    await page.getByRole('button', { name: /^UserIdentified on user-development-grace/ }).waitFor();

    await page.getByRole('tab', { name: 'Projections' }).click();
    await page.getByRole('table', { name: 'Projections' }).waitFor();
    await page.getByRole('button', { name: 'Rebuild tags' }).click();
    await page
      .getByTestId('rebuild-tags')
      .filter({ hasText: /^done: (\d+) \/ \1 events/ })
      .waitFor();
  });

  it('opens every other screen without a failed request', async () => {
    const failed = page.getByRole('alert').filter({ hasText: /Could not load|Request failed/ });
    const visit = async (hash: string, ready: () => Promise<void>) => {
      await page.goto(`${t.url}/console/${hash}`);
      await ready();
      expect(await failed.count()).toBe(0);
    };
    await visit('#/runs?workflow=welcome', () => page.getByRole('table', { name: 'Runs' }).waitFor());
    await visit('#/messages', () => page.getByRole('table', { name: 'Messages' }).waitFor());
    await visit('#/recipients', () => page.getByRole('table', { name: 'Users' }).waitFor());
    await visit('#/settings', async () => {
      await page.getByRole('table', { name: 'Channels' }).getByText('in-app', { exact: true }).waitFor();
      await page.getByRole('table', { name: 'Environments' }).getByText('production', { exact: true }).waitFor();
      // The keys of the environment, the publishable one among them (by its kind; secrets are never shown).
      await page.getByRole('table', { name: 'API keys' }).getByText('publishable', { exact: true }).first().waitFor();
    });
    await visit('#/workflows/welcome', () => page.getByRole('tab', { name: 'Commits' }).waitFor());
    await page.getByRole('tab', { name: 'Changes' }).click();
    await page
      .getByText(/Nothing is committed yet|No changes|committed/)
      .first()
      .waitFor();
    await page.getByRole('tab', { name: 'Commits' }).click();
    await page.getByRole('button', { name: "Promote this workflow's commits" }).waitFor();
    expect(await failed.count()).toBe(0);
    expect(pageProblems).toEqual([]);
  });

  it('signs a member in with a one-time login link into an httpOnly session; a viewer may not rebuild', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('Service token').waitFor();
    const added = await addMember(
      t.store,
      t.app.get(ERASURE_KEYS),
      { email: 'support@example.com', role: 'support' },
      { environment: null, actor: 'test' },
    );
    await t.runtime.waitFor(added.append!.position, [{ type: 'MemberAdded', streamId: added.streamId }], 10_000);
    const { token } = t.app.get(ConsoleSessionSigner).loginLink(added.state.current!.memberId);
    await page.goto(`${t.url}/console/#/login/${token}`);
    await page.getByRole('heading', { name: 'Workflows', level: 2 }).waitFor();
    await page.getByText('support@example.com').waitFor();
    // The link is gone from the address bar; the session is a cookie no script can read.
    expect(page.url()).not.toContain(token);
    const [cookie] = (await page.context().cookies()).filter((c) => c.name === 'notify_console_session');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict' });
    expect(await page.evaluate('document.cookie')).not.toContain('notify_console_session');

    await page.getByRole('navigation', { name: 'Screens' }).getByRole('link', { name: 'Event log' }).click();
    await page.getByRole('tab', { name: 'Projections' }).click();
    expect(await page.getByRole('button', { name: 'Rebuild tags' }).isDisabled()).toBe(true);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('Service token').waitFor();
    expect((await page.context().cookies()).filter((c) => c.name === 'notify_console_session')).toEqual([]);
    expect(pageProblems).toEqual([]);
  });
});
