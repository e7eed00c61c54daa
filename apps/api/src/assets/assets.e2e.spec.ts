import { rebuildAndCompare } from '../../../../test/support/rebuild';
import { startTestApp, TestApp } from '../../../../test/support/test-app';

/** Assets: uploaded with a service token, listed, served at their public URL, deleted. */
describe('assets', () => {
  let t: TestApp;
  const svc = (method: string, path: string, body?: unknown) => t.http(method, path, { key: t.serviceToken, body });
  // The 8-byte PNG signature and a few bytes after it: binary content, not text.
  const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0xff, 0x10]);

  beforeAll(async () => {
    // Small enough for a cheap test of the limit, above BODY_LIMIT_BYTES (1 MiB) to show the stream is not bound by it.
    t = await startTestApp({ env: { ASSETS_MAX_UPLOAD_BYTES: String(3 * 1024 * 1024) } });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('uploads an asset, lists it, serves its bytes at its URL, and deletes it', async () => {
    const up = await svc('POST', '/v1/assets', { filename: 'logo.png', mime_type: 'image/png', content: png.toString('base64') });
    expect(up.status).toBe(201);
    expect(up.body).toEqual({
      id: expect.any(String),
      asset_type: 'library_asset',
      filename: 'logo.png',
      mime_type: 'image/png',
      url: `${t.url}/assets/${up.body.id}/logo.png`,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const second = await svc('POST', '/v1/assets', { filename: 'banner.svg', mime_type: 'image/svg+xml', content: 'PHN2Zy8+' });
    expect(second.status).toBe(201);

    // @knocklabs/mgmt has no assets resource: the list as the reference shapes it.
    const listed = await svc('GET', '/v1/assets?limit=10');
    expect(listed.body.entries.map((a: { filename: string }) => a.filename)).toEqual(['banner.svg', 'logo.png']);
    expect(listed.body.page_info).toEqual({ after: null, before: null, page_size: 10 });
    expect((await svc('GET', `/v1/assets/${up.body.id}`)).body).toEqual(up.body);

    const served = await fetch(up.body.url);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(served.headers.get('x-content-type-options')).toBe('nosniff');
    expect(Buffer.from(await served.arrayBuffer())).toEqual(png);

    expect((await svc('DELETE', `/v1/assets/${up.body.id}`)).status).toBe(204);
    expect((await fetch(up.body.url)).status).toBe(404);
    expect((await svc('GET', `/v1/assets/${up.body.id}`)).status).toBe(404);
    expect((await svc('DELETE', `/v1/assets/${up.body.id}`)).status).toBe(404);
  });

  it('refuses bad input with 422 invalid_params naming the fields, and writes nothing', async () => {
    const bad = await svc('POST', '/v1/assets', { filename: '../x.png', mime_type: 'png', content: 'not base64!' });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(['content', 'filename', 'mime_type']);
    const big = await svc('POST', '/v1/assets', {
      filename: 'big.bin',
      mime_type: 'application/octet-stream',
      content: Buffer.alloc(720 * 1024).toString('base64'),
    });
    expect(big.status).toBe(422);
    expect(big.body.errors[0]).toMatchObject({ field: 'content' });
    expect((await svc('GET', '/v1/assets')).body.entries.map((a: { filename: string }) => a.filename)).not.toContain('big.bin');
    expect((await t.http('GET', '/v1/assets', { key: t.env.secretKey })).status).toBe(403);
  });

  it('takes a file streamed as the request body, past the JSON body limit, up to ASSETS_MAX_UPLOAD_BYTES (ADR 0227)', async () => {
    const file = Buffer.alloc(2 * 1024 * 1024 + 17);
    for (let i = 0; i < file.length; i++) file[i] = (i * 31 + (i >> 9)) & 0xff;
    const up = await t.http('POST', '/v1/assets/upload?filename=big%20photo.jpg', {
      key: t.serviceToken,
      headers: { 'content-type': 'image/jpeg' },
      rawBody: file as never,
    });
    expect(up.status).toBe(201);
    expect(up.body).toMatchObject({
      filename: 'big photo.jpg',
      mime_type: 'image/jpeg',
      url: `${t.url}/assets/${up.body.id}/big%20photo.jpg`,
    });
    const served = await fetch(up.body.url);
    expect(Buffer.from(await served.arrayBuffer()).equals(file)).toBe(true);
    const [uploaded] = await t.sql<{ data: { size: number } }>(
      "SELECT data FROM es_events WHERE event_type = 'AssetUploaded' AND data->>'asset_id' = $1",
      [up.body.id],
    );
    expect(uploaded.data.size).toBe(file.length);

    // The type from the query when the header is not the file's.
    const typed = await t.http('POST', '/v1/assets/upload?filename=data.json&mime_type=application/json', {
      key: t.serviceToken,
      headers: { 'content-type': 'application/octet-stream' },
      rawBody: '{"a":1}',
    });
    expect([typed.status, typed.body.mime_type]).toEqual([201, 'application/json']);
  });

  it('takes the body as the file whatever its Content-Type, JSON, form and text included, byte for byte', async () => {
    const cases: { type: string | undefined; body: Buffer; query?: string; stored: string }[] = [
      { type: 'text/plain', body: Buffer.from('k: v\n'), stored: 'text/plain' },
      { type: 'text/plain; charset=utf-8', body: Buffer.from('Grüße {"not": json\n', 'utf8'), stored: 'text/plain' },
      { type: 'application/x-www-form-urlencoded', body: Buffer.from('a=1&a=2&b=%ZZ'), stored: 'application/x-www-form-urlencoded' },
      {
        type: 'multipart/form-data; boundary=xyz',
        body: Buffer.from('--xyz\r\nContent-Disposition: form-data; name="f"\r\n\r\nv\r\n--xyz--\r\n'),
        stored: 'multipart/form-data',
      },
      { type: 'application/json', body: Buffer.from('{ "a" : [1, 2],\n "b": null }'), stored: 'application/json' },
      // Not even valid JSON: still a file.
      { type: 'application/json', body: Buffer.from('{ half'), stored: 'application/json' },
      { type: 'application/x-ndjson', body: Buffer.from('{"a":1}\n{"a":2}\n'), stored: 'application/x-ndjson' },
      { type: 'text/plain', body: Buffer.from('typed by the query'), query: '&mime_type=text/markdown', stored: 'text/markdown' },
      { type: undefined, body: Buffer.from([0, 1, 2, 255]), stored: 'application/octet-stream' },
    ];
    for (const [i, c] of cases.entries()) {
      const up = await t.http('POST', `/v1/assets/upload?filename=k${i}.txt${c.query ?? ''}`, {
        key: t.serviceToken,
        headers: c.type ? { 'content-type': c.type } : {},
        rawBody: c.body as never,
      });
      expect([c.type, up.status, up.body.mime_type]).toEqual([c.type, 201, c.stored]);
      const served = await fetch(up.body.url);
      expect([c.type, Buffer.from(await served.arrayBuffer()).equals(c.body)]).toEqual([c.type, true]);
    }
  });

  it('answers 413 in the error shape above ASSETS_MAX_UPLOAD_BYTES, whatever the type, and 422 for an empty body; nothing is recorded', async () => {
    const before = await t.sql<{ c: string }>("SELECT count(*) AS c FROM es_events WHERE event_type = 'AssetUploaded'");
    const tooBig = await t.http('POST', '/v1/assets/upload?filename=huge.bin', {
      key: t.serviceToken,
      headers: { 'content-type': 'application/octet-stream' },
      rawBody: Buffer.alloc(3 * 1024 * 1024 + 1) as never,
    });
    expect(tooBig.status).toBe(413);
    expect(tooBig.body).toMatchObject({ code: 'payload_too_large', status: 413, type: expect.any(String), message: expect.any(String) });
    const empty = await t.http('POST', '/v1/assets/upload?filename=empty.bin', {
      key: t.serviceToken,
      headers: { 'content-type': 'application/octet-stream' },
      rawBody: '',
    });
    expect(empty.body).toMatchObject({ code: 'invalid_params', status: 422 });
    // Above the limit whatever the type, JSON and text included (not parsed, not buffered as JSON is).
    for (const type of ['application/json', 'text/plain'])
      expect(
        (
          await t.http('POST', '/v1/assets/upload?filename=huge.txt', {
            key: t.serviceToken,
            headers: { 'content-type': type },
            rawBody: Buffer.alloc(3 * 1024 * 1024 + 1, 0x20) as never,
          })
        ).body,
      ).toMatchObject({ code: 'payload_too_large', status: 413 });
    const noName = await t.http('POST', '/v1/assets/upload', {
      key: t.serviceToken,
      headers: { 'content-type': 'image/png' },
      rawBody: 'x',
    });
    expect(noName.body.errors).toEqual([expect.objectContaining({ field: 'filename' })]);
    const after = await t.sql<{ c: string }>("SELECT count(*) AS c FROM es_events WHERE event_type = 'AssetUploaded'");
    expect(after[0].c).toBe(before[0].c);
  });

  it('rebuilds the assets read model from the log to exactly the live result', async () => {
    const { live, rebuilt } = await rebuildAndCompare(t, ['assets']);
    expect(live.rm_assets.length).toBe(12);
    expect(rebuilt).toEqual(live);
  });
});
