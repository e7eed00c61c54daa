import { GetObjectCommand, HeadBucketCommand, PutObjectCommand, S3Client, S3ServiceException } from '@aws-sdk/client-s3';
import { AssetBlobs } from '@notify/application';
import { AppConfig } from '@notify/config';
import { DomainError } from '@notify/domain';
import { createReadStream } from 'node:fs';

/** A failure of the bucket itself (unreachable, refused credentials): a 503, not the client's fault. */
const unavailable = (error: unknown) =>
  new DomainError(
    'asset_storage_unavailable',
    `The asset storage could not be used: ${error instanceof Error ? error.message : String(error)}`,
    'unavailable',
  );

/**
 * Asset contents in an S3-compatible bucket (ADR 0159): one object per distinct content, named
 * `<prefix><sha256>`, so an upload of the same bytes rewrites the same object and a served asset
 * reads the object its event names. Works with AWS S3 and with servers speaking its API (MinIO,
 * Ceph, Cloudflare R2, S3Proxy) through ASSETS_S3_ENDPOINT and path-style addressing.
 */
export class S3AssetBlobs implements AssetBlobs {
  constructor(
    private readonly client: S3Client,
    private readonly bucket: string,
    private readonly prefix: string,
  ) {}

  static fromConfig(config: AppConfig): S3AssetBlobs {
    const client = new S3Client({
      region: config.ASSETS_S3_REGION,
      ...(config.ASSETS_S3_ENDPOINT ? { endpoint: config.ASSETS_S3_ENDPOINT } : {}),
      forcePathStyle: config.ASSETS_S3_FORCE_PATH_STYLE,
      ...(config.ASSETS_S3_ACCESS_KEY_ID && config.ASSETS_S3_SECRET_ACCESS_KEY
        ? { credentials: { accessKeyId: config.ASSETS_S3_ACCESS_KEY_ID, secretAccessKey: config.ASSETS_S3_SECRET_ACCESS_KEY } }
        : {}),
      // Checksums only where the operation requires them: several S3-compatible servers do not
      // accept the SDK's default CRC32 headers and trailers. The sha256 naming the object is ours.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      maxAttempts: 3,
    });
    return new S3AssetBlobs(client, config.ASSETS_S3_BUCKET!, config.ASSETS_S3_PREFIX);
  }

  /** Fails at startup, naming the bucket, when it does not exist or cannot be reached with these credentials. */
  async check(): Promise<void> {
    try {
      await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }));
    } catch (error) {
      const status = error instanceof S3ServiceException ? ` (HTTP ${error.$metadata.httpStatusCode ?? '?'})` : '';
      throw new Error(
        `ASSETS_S3_BUCKET: the bucket ${this.bucket} cannot be used${status}: ${error instanceof Error ? error.message || error.name : String(error)}`,
      );
    }
  }

  async storeBlob(sha256: string, content: Buffer): Promise<void> {
    try {
      await this.client.send(
        new PutObjectCommand({
          Bucket: this.bucket,
          Key: this.key(sha256),
          Body: content,
          ContentLength: content.length,
          ContentType: 'application/octet-stream',
        }),
      );
    } catch (error) {
      throw unavailable(error);
    }
  }

  /** From the file on disk as a stream, its length known: the bytes are never all in memory. */
  async storeBlobFile(sha256: string, path: string, size: number): Promise<void> {
    try {
      await this.client.send(
        new PutObjectCommand({
          Bucket: this.bucket,
          Key: this.key(sha256),
          Body: createReadStream(path),
          ContentLength: size,
          ContentType: 'application/octet-stream',
        }),
      );
    } catch (error) {
      throw unavailable(error);
    }
  }

  async readBlob(sha256: string): Promise<Buffer | undefined> {
    try {
      const object = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: this.key(sha256) }));
      return object.Body ? Buffer.from(await object.Body.transformToByteArray()) : Buffer.alloc(0);
    } catch (error) {
      if (error instanceof S3ServiceException && (error.name === 'NoSuchKey' || error.$metadata.httpStatusCode === 404)) return undefined;
      throw unavailable(error);
    }
  }

  close(): void {
    this.client.destroy();
  }

  private key(sha256: string): string {
    return `${this.prefix}${sha256}`;
  }
}
