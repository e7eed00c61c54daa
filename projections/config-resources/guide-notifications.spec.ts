import { EntityManager } from '@notify/projection-runtime';
import { announceGuideAudience, GUIDE_NOTIFY_MAX_BYTES, GuideNotification } from './guide-notifications';

/** The payloads one call would NOTIFY, captured from the statement's parameters. */
async function payloadsFor(environment: string, ids: string[]): Promise<string[]> {
  const sent: string[][] = [];
  const tx = { query: async (_sql: string, params: unknown[]) => void sent.push(params[1] as string[]) } as unknown as EntityManager;
  await announceGuideAudience(tx, environment, ids);
  return sent.flat();
}

describe('announceGuideAudience', () => {
  it('packs every user once, in order, into as few payloads as fit under the NOTIFY limit', async () => {
    const ids = Array.from({ length: 3000 }, (_, i) => `user-${i}-${'x'.repeat(i % 37)}-é`);
    ids.push(ids[5]); // a repeat is announced once
    const payloads = await payloadsFor('production', ids);
    const parsed = payloads.map((p) => JSON.parse(p) as GuideNotification);
    expect(parsed.every((p) => p.e === 'production')).toBe(true);
    expect(parsed.flatMap((p) => p.u)).toEqual(ids.slice(0, 3000));
    for (const [i, p] of payloads.entries()) {
      expect(Buffer.byteLength(p)).toBeLessThanOrEqual(GUIDE_NOTIFY_MAX_BYTES);
      // Greedy: the next payload's first user would not have fitted in this one.
      const next = parsed[i + 1]?.u?.[0];
      if (next !== undefined)
        expect(Buffer.byteLength(JSON.stringify({ e: 'production', u: [...parsed[i].u!, next] }))).toBeGreaterThan(GUIDE_NOTIFY_MAX_BYTES);
    }
  });

  it('leaves out a user whose id alone is over the limit, and sends nothing for no users', async () => {
    const huge = 'h'.repeat(GUIDE_NOTIFY_MAX_BYTES);
    expect((await payloadsFor('dev', ['a', huge, 'b'])).map((p) => JSON.parse(p).u)).toEqual([['a', 'b']]);
    expect(await payloadsFor('dev', [])).toEqual([]);
  });
});
