import { FeedNotification, feedNotificationsIn, feedPayloads } from './feed-notifications';

const note = (i: number, over: Partial<FeedNotification> = {}): FeedNotification => ({
  e: 'development',
  u: `user-${String(i).padStart(4, '0')}`,
  c: '11111111-1111-4111-8111-111111111111',
  m: `message-${String(i).padStart(4, '0')}`,
  t: null,
  w: 'welcome',
  k: [],
  p: String(i).padStart(8, '0'),
  ...over,
});

describe('feed notification payloads', () => {
  it('packs announcements into as few payloads under 8,000 bytes as they fit in, in order', () => {
    const notes = Array.from({ length: 500 }, (_, i) => note(i));
    const payloads = feedPayloads(notes);
    for (const payload of payloads) expect(Buffer.byteLength(payload)).toBeLessThan(7900);
    const perNote = Buffer.byteLength(JSON.stringify(notes[0])) + 1;
    expect(payloads.length).toBe(Math.ceil(notes.length / Math.floor(7898 / perNote)));
    expect(payloads.flatMap(feedNotificationsIn)).toEqual(notes);
  });

  it('leaves out an announcement too large for any payload, and keeps the others', () => {
    const huge = note(1, { k: ['x'.repeat(8000)] });
    expect(feedPayloads([note(0), huge, note(2)]).flatMap(feedNotificationsIn)).toEqual([note(0), note(2)]);
    expect(feedPayloads([huge])).toEqual([]);
  });

  it('counts bytes, not characters, against the limit', () => {
    const wide = Array.from({ length: 40 }, (_, i) => note(i, { t: 'é'.repeat(100) }));
    for (const payload of feedPayloads(wide)) expect(Buffer.byteLength(payload)).toBeLessThan(7900);
  });

  it('reads a payload of one announcement alone, as written before they were packed', () => {
    expect(feedNotificationsIn(JSON.stringify(note(7)))).toEqual([note(7)]);
  });
});
