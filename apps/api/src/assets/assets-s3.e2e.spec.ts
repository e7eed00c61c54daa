import { CreateBucketCommand, GetObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { parseConfig } from '@notify/config';
import { S3ProxyServer, s3ProxyJar, startS3Proxy, testEnv, describeWith } from '@notify/testing';
import { createHash } from 'node:crypto';
import { startTestApp, TestApp } from '../../../../test/support/test-app';
import { S3AssetBlobs } from './s3-asset-blobs';

const jar = s3ProxyJar();
const describeS3 = describeWith('s3');

/** Assets kept in an S3-compatible bucket (ASSETS_STORAGE=s3), against S3Proxy, a real S3-compatible server. */
describeS3('assets in S3-compatible storage', () => {
  let s3: S3ProxyServer;
  let t: TestApp;
  let client: S3Client;
  const bucket = 'notify-assets';
  const svc = (method: string, path: string, body?: unknown) => t.http(method, path, { key: t.serviceToken, body });
  const env = () => ({
    ASSETS_STORAGE: 's3',
    ASSETS_S3_BUCKET: bucket,
    ASSETS_S3_PREFIX: 'acme/',
    ASSETS_S3_ENDPOINT: s3.endpoint,
    ASSETS_S3_FORCE_PATH_STYLE: 'true',
    ASSETS_S3_ACCESS_KEY_ID: s3.accessKeyId,
    ASSETS_S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
    ASSETS_MAX_UPLOAD_BYTES: String(3 * 1024 * 1024),
  });

  beforeAll(async () => {
    s3 = await startS3Proxy(jar!);
    client = new S3Client({
      region: 'us-east-1',
      endpoint: s3.endpoint,
      forcePathStyle: true,
      credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
    await client.send(new CreateBucketCommand({ Bucket: bucket }));
    t = await startTestApp({ env: env() });
  });
  afterAll(async () => {
    await t?.close();
    client?.destroy();
    await s3?.stop();
  });

  it('stores contents in the bucket by their sha256, serves them at the asset URL, and keeps equal bytes once', async () => {
    const bytes = Buffer.from('GIF89a\x01\x00\x01\x00\x00\xff\x00,binary');
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    const up = await svc('POST', '/v1/assets', { filename: 'pixel.gif', mime_type: 'image/gif', content: bytes.toString('base64') });
    expect(up.status).toBe(201);

    const object = await client.send(new GetObjectCommand({ Bucket: bucket, Key: `acme/${sha256}` }));
    expect(Buffer.from(await object.Body!.transformToByteArray())).toEqual(bytes);
    // Nothing went to the database's store.
    expect(await t.sql('SELECT sha256 FROM asset_blobs')).toEqual([]);

    const served = await fetch(up.body.url);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/gif');
    expect(Buffer.from(await served.arrayBuffer())).toEqual(bytes);

    const again = await svc('POST', '/v1/assets', { filename: 'copy.gif', mime_type: 'image/gif', content: bytes.toString('base64') });
    expect(again.status).toBe(201);
    expect(again.body.id).not.toBe(up.body.id);
    const listed = await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: 'acme/' }));
    expect(listed.Contents?.map((o) => o.Key)).toEqual([`acme/${sha256}`]);

    expect((await svc('DELETE', `/v1/assets/${up.body.id}`)).status).toBe(204);
    expect((await fetch(up.body.url)).status).toBe(404);
    // The other asset with the same bytes is still served.
    expect(Buffer.from(await (await fetch(again.body.url)).arrayBuffer())).toEqual(bytes);
  });

  it('streams a file past the JSON body limit into the bucket, and refuses one above ASSETS_MAX_UPLOAD_BYTES with 413 (ADR 0227)', async () => {
    const file = Buffer.alloc(2 * 1024 * 1024 + 5);
    for (let i = 0; i < file.length; i++) file[i] = (i * 13 + (i >> 11)) & 0xff;
    const sha256 = createHash('sha256').update(file).digest('hex');
    const up = await t.http('POST', '/v1/assets/upload?filename=big%20photo.jpg', {
      key: t.serviceToken,
      headers: { 'content-type': 'image/jpeg' },
      rawBody: file as never,
    });
    expect(up.status).toBe(201);
    expect(up.body).toMatchObject({ filename: 'big photo.jpg', mime_type: 'image/jpeg' });
    const object = await client.send(new GetObjectCommand({ Bucket: bucket, Key: `acme/${sha256}` }));
    expect(object.ContentLength).toBe(file.length);
    expect(Buffer.from(await object.Body!.transformToByteArray()).equals(file)).toBe(true);
    expect(await t.sql('SELECT sha256 FROM asset_blobs')).toEqual([]);
    expect(Buffer.from(await (await fetch(up.body.url)).arrayBuffer()).equals(file)).toBe(true);

    const keys = async () => (await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: 'acme/' }))).Contents?.map((o) => o.Key);
    const before = await keys();
    const tooBig = await t.http('POST', '/v1/assets/upload?filename=huge.bin', {
      key: t.serviceToken,
      headers: { 'content-type': 'application/octet-stream' },
      rawBody: Buffer.alloc(3 * 1024 * 1024 + 1, 7) as never,
    });
    expect(tooBig.status).toBe(413);
    expect(tooBig.body).toMatchObject({ code: 'payload_too_large', status: 413, type: expect.any(String), message: expect.any(String) });
    // Nothing reached the bucket, nothing was recorded.
    expect(await keys()).toEqual(before);
    const listed = await svc('GET', '/v1/assets?limit=10');
    expect(listed.body.entries.map((a: { filename: string }) => a.filename)).not.toContain('huge.bin');
  });

  it('refuses to start on a bucket that does not exist, naming it', async () => {
    const blobs = S3AssetBlobs.fromConfig(parseConfig({ ...env(), ASSETS_S3_BUCKET: 'no-such-bucket' }));
    try {
      await expect(blobs.check()).rejects.toThrow('ASSETS_S3_BUCKET: the bucket no-such-bucket cannot be used (HTTP 404)');
    } finally {
      blobs.close();
    }
  });

  it('answers 503 in the error shape and records no asset when the storage is down', async () => {
    await s3.stop();
    const up = await svc('POST', '/v1/assets', {
      filename: 'late.png',
      mime_type: 'image/png',
      content: Buffer.from('late').toString('base64'),
    });
    expect(up.status).toBe(503);
    expect(up.body).toMatchObject({ code: 'asset_storage_unavailable', status: 503, type: 'api_error' });
    const listed = await svc('GET', '/v1/assets?limit=10');
    expect(listed.body.entries.map((a: { filename: string }) => a.filename)).toEqual(['big photo.jpg', 'copy.gif']);
  });
});

// With no jar and S3 not required, say so in the output instead of passing silently.
if (!jar && !testEnv.required.has('s3')) {
  test.todo('assets in S3-compatible storage: run scripts/s3proxy/fetch.sh (needs Java and Maven) to test against S3Proxy');
}
