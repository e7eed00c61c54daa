import { randomBytes } from 'node:crypto';
import { LinkTracker, rewriteHrefs, rewriteTextUrls, trackContentLinks, withOpenPixel } from './link-tracking';

describe('link tracking', () => {
  const tracker = new LinkTracker(randomBytes(32), 'https://notify.example/');
  const link = { environment: 'development', messageId: '7d1c1b1e-8a57-4a3e-9d51-1c0de0000001', url: 'https://app.example/r?a=1&b=2' };

  it('makes a link under the public URL whose token verifies back to the message and target', () => {
    const url = tracker.urlFor(link);
    expect(url.startsWith('https://notify.example/v1/links/')).toBe(true);
    expect(tracker.verify(url.split('/v1/links/')[1])).toEqual(link);
  });

  it('refuses altered tokens and tokens made with another key', () => {
    const token = tracker.urlFor(link).split('/v1/links/')[1];
    const [payload, signature] = token.split('.');
    const forged = Buffer.from(JSON.stringify(['development', link.messageId, 'https://evil.example'])).toString('base64url');
    expect(tracker.verify(`${forged}.${signature}`)).toBeUndefined();
    expect(tracker.verify(`${payload}.${signature.slice(0, -1)}x`)).toBeUndefined();
    expect(tracker.verify(payload)).toBeUndefined();
    expect(tracker.verify(`${payload}.${signature}.extra`)).toBeUndefined();
    expect(new LinkTracker(randomBytes(32), 'https://notify.example').verify(token)).toBeUndefined();
  });

  it('rewrites absolute http(s) anchors only, decoding and re-encoding ampersands', () => {
    const html =
      '<p><a href="https://a.example/x?p=1&amp;q=2">x</a> <a class="b" href=\'http://b.example\'>b</a> <a href="mailto:x@y.z">m</a> <a href="/rel">r</a></p>';
    const seen: string[] = [];
    const out = rewriteHrefs(html, (url) => {
      seen.push(url);
      return `https://t.example/${seen.length}?k=v&w=z`;
    });
    expect(seen).toEqual(['https://a.example/x?p=1&q=2', 'http://b.example']);
    expect(out).toBe(
      '<p><a href="https://t.example/1?k=v&amp;w=z">x</a> <a class="b" href=\'https://t.example/2?k=v&amp;w=z\'>b</a> <a href="mailto:x@y.z">m</a> <a href="/rel">r</a></p>',
    );
  });

  it('rewrites the URLs of plain text, leaving sentence punctuation and brackets outside', () => {
    const seen: string[] = [];
    const out = rewriteTextUrls(
      'See https://a.example/x?p=1&q=2. Or (http://b.example/y), not ftp://c.example nor www.d.example!',
      (url) => {
        seen.push(url);
        return `<${seen.length}>`;
      },
    );
    expect(seen).toEqual(['https://a.example/x?p=1&q=2', 'http://b.example/y']);
    expect(out).toBe('See <1>. Or (<2>), not ftp://c.example nor www.d.example!');
  });

  it('tracks email HTML and text, in-app rendered blocks, button actions and action_url, and SMS bodies', () => {
    const to = (url: string) => `https://t.example/l?u=${url.length}`;
    const email = trackContentLinks(
      {
        channel_type: 'email',
        from: null,
        to: 'a@b.c',
        subject: 's',
        html_body: '<a href="https://x.example">x</a>',
        text_body: 'Go to https://x.example.',
      },
      to,
    );
    expect(email).toMatchObject({ html_body: '<a href="https://t.example/l?u=17">x</a>', text_body: 'Go to https://t.example/l?u=17.' });
    const feed = trackContentLinks(
      {
        channel_type: 'in_app_feed',
        blocks: [
          { type: 'markdown', name: 'body', content: '[x](https://x.example)', rendered: '<p><a href="https://x.example">x</a></p>' },
          {
            type: 'button_set',
            name: 'actions',
            buttons: [
              { name: 'primary', label: 'Go', action: 'https://x.example/go' },
              { name: 'secondary', label: 'Here', action: '/relative' },
            ],
          },
        ],
        action_url: 'https://x.example/open',
      },
      to,
    );
    expect(feed).toMatchObject({
      blocks: [
        { content: '[x](https://x.example)', rendered: '<p><a href="https://t.example/l?u=17">x</a></p>' },
        { buttons: [{ action: 'https://t.example/l?u=20' }, { action: '/relative' }] },
      ],
      action_url: 'https://t.example/l?u=22',
    });
    expect(trackContentLinks({ channel_type: 'in_app_feed', blocks: [], action_url: null }, to)).toMatchObject({ action_url: null });
    const sms = { channel_type: 'sms' as const, to: '+1', body: 'Your code: https://x.example/c?u=1.' };
    expect(trackContentLinks(sms, to)).toEqual({ ...sms, body: 'Your code: https://t.example/l?u=23.' });
  });
});

describe('per-channel tracking and the open pixel', () => {
  const tracker = new LinkTracker(randomBytes(32), 'https://notify.example/', false);

  it('a channel decides for itself; without a setting the service default holds', () => {
    expect(tracker.tracksLinks({})).toBe(false);
    expect(tracker.tracksLinks({ link_tracking: true })).toBe(true);
    expect(new LinkTracker(randomBytes(32), 'https://n.example').tracksLinks({ link_tracking: false })).toBe(false);
    // SMS: only its own setting turns tracking on (a longer link can cost another segment).
    expect(new LinkTracker(randomBytes(32), 'https://n.example').tracksLinks({}, 'sms')).toBe(false);
    expect(tracker.tracksLinks({ link_tracking: true }, 'sms')).toBe(true);
    expect(new LinkTracker(randomBytes(32), 'https://n.example').tracksLinks({}, 'chat')).toBe(false);
    expect(tracker.tracksLinks({ link_tracking: true }, 'chat')).toBe(true);
  });

  it('the pixel URL is the same for the same message (a replay renders the same email) and verifies', () => {
    const url = tracker.openPixelUrl('production', 'm-1');
    expect(tracker.openPixelUrl('production', 'm-1')).toBe(url);
    expect(url.startsWith('https://notify.example/v1/opens/')).toBe(true);
    const token = url.slice(url.lastIndexOf('/') + 1);
    expect(tracker.verifyOpen(token)).toEqual({ environment: 'production', messageId: 'm-1' });
    expect(tracker.verifyOpen(token.replace(/^./, 'x'))).toBeUndefined();
  });

  it('link tokens and open tokens do not pass for each other', () => {
    const link = tracker.urlFor({ environment: 'production', messageId: 'm-1', url: 'https://x.test' });
    expect(tracker.verifyOpen(`${link.slice(link.lastIndexOf('/') + 1)}.gif`)).toBeUndefined();
    const open = tracker.openPixelUrl('production', 'm-1');
    expect(tracker.verify(open.slice(open.lastIndexOf('/') + 1))).toBeUndefined();
  });

  it('puts the pixel before </body>, or at the end', () => {
    expect(withOpenPixel('<html><body><p>Hi</p></body></html>', 'https://p.test/x.gif')).toBe(
      '<html><body><p>Hi</p><img src="https://p.test/x.gif" width="1" height="1" alt="" style="display:none" /></body></html>',
    );
    expect(withOpenPixel('<p>Hi</p>', 'https://p.test/x.gif')).toMatch(/^<p>Hi<\/p><img src="https:\/\/p.test\/x.gif"/);
  });
});
