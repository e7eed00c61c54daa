import { waitFor } from '@notify/testing';
import { startTestApp, TestApp } from '../../../../test/support/test-app';

/** Routes the console's event log screen uses (ADR 0211): a projection rebuild with progress, and the log as server-sent events. */
describe('projection rebuilds and the log tail over HTTP', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
    await t.knock().users.update('tail-before', { name: 'Before' });
  });
  afterAll(async () => t?.close());

  it('rebuilds a projection in the background and answers its progress', async () => {
    const started = await t.http('POST', '/v1/projections/users/rebuild', { key: t.serviceToken });
    expect(started.status).toBe(202);
    expect(started.body).toMatchObject({ projection: 'users', state: 'running', finished_at: null, error: null });
    const done = await waitFor(async () => {
      const res = await t.http('GET', '/v1/projections/users/rebuild', { key: t.serviceToken });
      return res.body.state === 'done' ? res.body : undefined;
    }, 'the rebuild to finish');
    expect(done.events_total).toBeGreaterThan(0);
    expect(done.events_done).toBe(done.events_total);
    expect(done.events_applied).toBeGreaterThan(0);
    expect(done.events_per_second).toBeGreaterThanOrEqual(0);
    expect(typeof done.finished_at).toBe('string');
    // The rebuilt read model answers as before.
    expect((await t.knock().users.get('tail-before')).name).toBe('Before');

    const unknown = await t.http('POST', '/v1/projections/nope/rebuild', { key: t.serviceToken });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ status: 404, type: expect.any(String), code: expect.any(String) });
    expect((await t.http('GET', '/v1/projections/tags/rebuild', { key: t.serviceToken })).status).toBe(404);
    expect((await t.http('POST', '/v1/projections/users/rebuild', { key: t.env.secretKey })).status).toBe(403);
  });

  it('pushes new events matching the filters as server-sent events', async () => {
    const abort = new AbortController();
    const res = await fetch(`${t.url}/v1/events/tail?types=UserIdentified&environment=development`, {
      headers: { authorization: `Bearer ${t.serviceToken}` },
      signal: abort.signal,
    });
    try {
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toContain('text/event-stream');
      const reader = res.body!.getReader();
      let text = '';
      const decoder = new TextDecoder();
      // Follows from the head: the connection is up once its first comment arrived.
      while (!text.includes('following after')) text += decoder.decode((await reader.read()).value, { stream: true });
      await t.knock().tenants.set('tail-tenant', { name: 'Not a user' });
      await t.knock().users.update('tail-live', { name: 'Live' });
      while (!text.includes('user-development-tail-live')) text += decoder.decode((await reader.read()).value, { stream: true });
      const pages = text
        .split('\n\n')
        .filter((m) => m.startsWith('event: events'))
        .map((m) => JSON.parse(m.split('\ndata: ')[1]));
      const entries = pages.flatMap((p) => p.entries);
      expect(entries.map((e: { type: string }) => e.type)).toEqual(entries.map(() => 'UserIdentified'));
      expect(entries.some((e: { stream: string }) => e.stream === 'user-development-tail-before')).toBe(false);
      expect(pages[0].page_info.after).toEqual(expect.any(String));
      expect(entries.some((e: { stream: string }) => e.stream === 'user-development-tail-live')).toBe(true);
    } finally {
      abort.abort();
    }
    const bad = await t.http('GET', '/v1/events/tail?after=nonsense', { key: t.serviceToken });
    expect(bad.status).toBe(422);
  });
});
