import KnockMgmt from '@knocklabs/mgmt';
import { Browser, Page } from 'playwright-core';
import { FeedPage, launchChromium, servePage } from '../../support/browser';
import { eventually } from '../../support/recipients';
import { startTestApp, TestApp } from '../../support/test-app';

/**
 * In-app guides as a person sees them: a page built with @knocklabs/react (KnockProvider with a
 * publishable key, KnockGuideProvider on a guide channel, the Banner component) in headless
 * Chromium, served from another origin than the service. The banner shows for the targeted user
 * only; guides activated, changed and archived in the service appear, change and go without a
 * reload (the guides:<channel_id> socket topic); a dismissal archives the guide in the service.
 */
describe('in-app guides in a browser', () => {
  let t: TestApp;
  let mgmt: KnockMgmt;
  let browser: Browser;
  let guidePage: FeedPage;
  const env = { environment: 'development' };
  const browserErrors: string[] = [];
  const pro = { all: [{ variable: 'recipient.plan', operator: 'equal_to', argument: 'pro' }] };

  const upsert = (key: string, title: string, extra: Record<string, unknown> = {}) =>
    mgmt.guides.upsert(key, {
      ...env,
      guide: {
        name: key,
        channel_key: 'guides',
        steps: [
          {
            ref: 'main',
            schema_key: 'banner',
            schema_semver: '1.0.0',
            schema_variant_key: 'default',
            values: { title, body: `<p>${title} body</p>`, dismissible: true },
          },
        ],
        ...extra,
      } as never,
    });
  const activate = (key: string) => mgmt.guides.activate(key, { ...env, status: true } as never);

  /** Opens the page for a user and waits until its guide client fetched and joined guides:<channel>. */
  const open = async (userId: string): Promise<Page> => {
    const page = await browser.newPage();
    page.on('pageerror', (e) => browserErrors.push(e.message));
    const joined = { done: false };
    page.on('websocket', (ws) =>
      ws.on('framereceived', ({ payload }) => {
        const text = String(payload);
        if (text.includes('"guides:') && text.includes('"phx_reply"') && text.includes('"ok"')) joined.done = true;
      }),
    );
    const fetched = page.waitForResponse((r) => r.url().includes(`/v1/users/${userId}/guides/`) && r.request().method() === 'GET');
    await page.goto(`${guidePage.url}?user=${userId}`);
    expect((await fetched).status()).toBe(200);
    await eventually(
      async () => joined.done,
      (done) => done,
      30_000,
    );
    return page;
  };
  const title = (page: Page) => page.locator('.knock-guide-banner__title').allInnerTexts();
  const showsTitle = (page: Page, text: string | null) =>
    page.waitForFunction(
      `(document.querySelector('.knock-guide-banner__title')?.textContent ?? null) === ${JSON.stringify(text)}`,
      undefined,
      { timeout: 15_000 },
    );

  beforeAll(async () => {
    t = await startTestApp();
    mgmt = t.mgmt();
    browser = await launchChromium();
    const channel = await t.http('PUT', '/v1/channels/guides', {
      key: t.serviceToken,
      body: { channel: { name: 'Guides', type: 'in_app_guide', provider: 'knock-guide', environment_settings: { development: {} } } },
    });
    await mgmt.messageTypes.upsert('banner', {
      ...env,
      message_type: {
        name: 'Banner',
        description: null,
        preview: '<div>{{ title }}</div>',
        variants: [
          {
            key: 'default',
            name: 'Default',
            fields: [
              { type: 'text', key: 'title', label: 'Title' },
              { type: 'markdown', key: 'body', label: 'Body' },
              { type: 'boolean', key: 'dismissible', label: 'Dismissible' },
            ],
          },
        ],
      } as never,
    });
    const knock = t.knock();
    await knock.users.update('gina', { name: 'Gina', plan: 'pro' } as never);
    await knock.users.update('hal', { name: 'Hal', plan: 'free' } as never);
    await upsert('pro-intro', 'Welcome, pro', { target_property_conditions: pro });
    await activate('pro-intro');
    guidePage = await servePage('guide-page', { host: t.url, publishableKey: t.env.publishableKey, channelId: channel.body.channel.id });
  });
  afterAll(async () => {
    await browser?.close();
    await guidePage?.close();
    await t?.close();
  });

  it('shows targeted banners, adds, changes and removes them live, and a dismissal archives the guide', async () => {
    const gina = await open('gina');
    const hal = await open('hal');
    let navigations = 0;
    for (const page of [gina, hal])
      page.on('framenavigated', (frame) => {
        if (frame === page.mainFrame()) navigations++;
      });
    await showsTitle(gina, 'Welcome, pro');
    expect(await title(hal)).toEqual([]); // not a pro
    // The banner marked its step seen in the service.
    await eventually(
      () => t.http('GET', '/v1/users/gina/guides/guides', { key: t.env.secretKey }),
      (r) => r.body.entries?.[0]?.steps?.[0]?.message?.seen_at != null,
      15_000,
    );

    // A second guide, for everyone: Hal sees it at once; Gina still sees the first (one banner at a time).
    await upsert('news', 'Release notes');
    await activate('news');
    await showsTitle(hal, 'Release notes');
    expect(await title(gina)).toEqual(['Welcome, pro']);

    // Changed in the service: the open page shows the new content.
    await upsert('news', 'Release notes, v2');
    await showsTitle(hal, 'Release notes, v2');

    // Gina dismisses her banner: the next guide takes its place, and the service archived the first.
    await gina.click('.knock-guide-banner__close');
    await showsTitle(gina, 'Release notes, v2');
    await eventually(
      () => t.http('GET', '/v1/users/gina/guides/guides', { key: t.env.secretKey }),
      (r) =>
        (r.body.ineligible_guides ?? []).some(
          (g: { key: string; reason: string }) => g.key === 'pro-intro' && g.reason === 'marked_as_archived',
        ),
      15_000,
    );
    expect(navigations).toBe(0); // nothing was reloaded

    // After a reload, the dismissed guide stays gone.
    await gina.reload();
    await showsTitle(gina, 'Release notes, v2');

    // Archived in the service: gone from the open pages.
    await mgmt.guides.archive('news');
    await showsTitle(hal, null);
    await showsTitle(gina, null);
    expect(browserErrors).toEqual([]);
  });
});
