import { randomBytes } from 'node:crypto';
import { LinkTracker, rewriteHrefs, trackContentLinks } from './link-tracking';

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
    const html = '<p><a href="https://a.example/x?p=1&amp;q=2">x</a> <a class="b" href=\'http://b.example\'>b</a> <a href="mailto:x@y.z">m</a> <a href="/rel">r</a></p>';
    const seen: string[] = [];
    const out = rewriteHrefs(html, (url) => {
      seen.push(url);
      return `https://t.example/${seen.length}?k=v&w=z`;
    });
    expect(seen).toEqual(['https://a.example/x?p=1&q=2', 'http://b.example']);
    expect(out).toBe('<p><a href="https://t.example/1?k=v&amp;w=z">x</a> <a class="b" href=\'https://t.example/2?k=v&amp;w=z\'>b</a> <a href="mailto:x@y.z">m</a> <a href="/rel">r</a></p>');
  });

  it('tracks email HTML and in-app rendered blocks and leaves other content alone', () => {
    const to = () => 'https://t.example/l';
    const email = trackContentLinks({ channel_type: 'email', from: null, to: 'a@b.c', subject: 's', html_body: '<a href="https://x.example">x</a>', text_body: 'https://x.example' }, to);
    expect(email).toMatchObject({ html_body: '<a href="https://t.example/l">x</a>', text_body: 'https://x.example' });
    const feed = trackContentLinks(
      { channel_type: 'in_app_feed', blocks: [{ type: 'markdown', name: 'body', content: '[x](https://x.example)', rendered: '<p><a href="https://x.example">x</a></p>' }, { type: 'button_set', name: 'actions', buttons: [{ name: 'primary', label: 'Go', action: 'https://x.example' }] }], action_url: 'https://x.example' },
      to,
    );
    expect(feed).toMatchObject({ blocks: [{ content: '[x](https://x.example)', rendered: '<p><a href="https://t.example/l">x</a></p>' }, { buttons: [{ action: 'https://x.example' }] }], action_url: 'https://x.example' });
    const sms = { channel_type: 'sms' as const, to: '+1', body: 'https://x.example' };
    expect(trackContentLinks(sms, to)).toBe(sms);
  });
});
