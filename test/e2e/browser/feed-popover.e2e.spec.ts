import { Browser, Page } from 'playwright-core';
import { createSigningKey, inAppChannelId, setEnhancedSecurity, userToken } from '../../support/browser-access';
import { FeedPage, launchChromium, serveFeedPage } from '../../support/browser';
import { eventually } from '../../support/recipients';
import { startTestApp, TestApp } from '../../support/test-app';

/**
 * The in-app feed as a person sees it: a page built with @knocklabs/react (KnockProvider pointed
 * at the service with a publishable key and a signed user token, KnockFeedProvider, the bell and
 * the feed popover) in headless Chromium, with enhanced security mode on. The page is served from
 * another origin than the service, so every write it makes (the provider identifying its user
 * with PUT, the preferences it sets) passes a CORS preflight first.
 */
describe('in-app feed in a browser', () => {
  let t: TestApp;
  let browser: Browser;
  let feedPage: FeedPage;
  let page: Page;
  const userId = 'browser-ada';
  const browserErrors: string[] = [];
  const joinedFeed = { done: false };

  beforeAll(async () => {
    t = await startTestApp();
    browser = await launchChromium();
    const { privateKey } = await createSigningKey(t, 'development');
    await setEnhancedSecurity(t, 'development', true);
    const feedId = await inAppChannelId(t);
    feedPage = await serveFeedPage({
      host: t.url,
      publishableKey: t.env.publishableKey,
      userId,
      userName: 'Ada',
      userToken: await userToken(userId, privateKey),
      feedId,
    });
    // The guard caches the security policy for two seconds: wait until tokenless calls are refused.
    await eventually(
      () => t.http('GET', `/v1/users/${userId}`, { key: t.env.publishableKey }),
      (r) => r.status === 401,
      60_000,
    );
  });
  afterAll(async () => {
    await browser?.close();
    await feedPage?.close();
    await t?.close();
  });

  it('the badge counts a new message without a reload, the popover shows it rendered, and "mark all as read" clears the count here and in the service', async () => {
    page = await browser.newPage();
    page.on('pageerror', (e) => browserErrors.push(e.message));
    page.on('websocket', (ws) =>
      ws.on('framereceived', ({ payload }) => {
        if (String(payload).includes(`"feeds:`) && String(payload).includes('"phx_reply"') && String(payload).includes('"ok"'))
          joinedFeed.done = true;
      }),
    );
    let navigations = 0;
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame()) navigations++;
    });
    await page.goto(feedPage.url);
    await page.waitForSelector('.rnf-notification-icon-button');
    // The provider identified the user from the browser (the service knew nothing of Ada before).
    await eventually(
      () => t.http('GET', `/v1/users/${userId}`),
      (r) => r.status === 200 && r.body.name === 'Ada',
      60_000,
    );
    await eventually(
      async () => joinedFeed.done,
      (done) => done,
      60_000,
    ); // the socket joined feeds:<channel>:<user>
    expect(await page.locator('.rnf-unseen-badge__count').count()).toBe(0);

    await t.knock().workflows.trigger('welcome', { recipients: [userId], data: { message: 'Your build passed.' } });
    await page.waitForSelector('.rnf-unseen-badge__count', { timeout: 15_000 });
    expect(await page.textContent('.rnf-unseen-badge__count')).toBe('1');
    await t.knock().workflows.trigger('welcome', { recipients: [userId], data: { message: 'Second one.' } });
    await page.waitForFunction("document.querySelector('.rnf-unseen-badge__count')?.textContent === '2'", undefined, { timeout: 15_000 });
    expect(navigations).toBe(1); // no reload happened

    await page.click('.rnf-notification-icon-button');
    await page.waitForSelector('.rnf-notification-cell', { timeout: 15_000 });
    await page.waitForFunction("document.querySelectorAll('.rnf-notification-cell').length === 2", undefined, { timeout: 15_000 });
    const cells = await page.locator('.rnf-notification-cell__content').allInnerTexts();
    expect(cells).toEqual(['Hello Ada! Second one.', 'Hello Ada! Your build passed.']);
    expect(await page.innerHTML('.rnf-notification-cell__content >> nth=1')).toContain('<strong>Ada</strong>');
    // BROWSER_SCREENSHOT=/tmp/feed.png keeps a picture of the open popover.
    if (process.env.BROWSER_SCREENSHOT) await page.screenshot({ path: process.env.BROWSER_SCREENSHOT });

    await page.click('.rnf-mark-all-as-read');
    await page.waitForSelector('.rnf-unseen-badge__count', { state: 'detached', timeout: 15_000 });

    // The service agrees: every message of the user is read, and the feed's own counts say so.
    await eventually(
      () =>
        t.sql(
          "SELECT count(*)::int AS unread FROM rm_messages WHERE environment = 'development' AND recipient_id = $1 AND read_at IS NULL",
          [userId],
        ),
      (rows) => rows[0].unread === 0,
      15_000,
    );
    const feed = await t.http('GET', `/v1/users/${userId}/feeds/${await inAppChannelId(t)}`);
    expect(feed.status).toBe(200);
    expect(feed.body.meta).toMatchObject({ total_count: 2, unread_count: 0 });
    expect(feed.body.entries.every((e: { read_at: string | null }) => e.read_at !== null)).toBe(true);

    // A preference write from the page, through the client, with the publishable key.
    await page.click('#mute-email');
    await page.waitForFunction("document.querySelector('#mute-email-status')?.textContent !== ''", undefined, { timeout: 15_000 });
    expect(await page.textContent('#mute-email-status')).toBe('saved');
    expect((await t.http('GET', `/v1/users/${userId}/preferences/default`)).body).toMatchObject({ channel_types: { email: false } });
    expect(browserErrors).toEqual([]);
  });
});
