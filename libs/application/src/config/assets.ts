import { AssetEvent, assetDecider, AssetState, assetStream, DomainError, invalidParams } from '@notify/domain';
import { EventStore } from '@notify/eventstore';
import { createHash, randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { CommandMetadata, CommandOutcome, handleCommand } from '../handle-command';

/**
 * Where asset contents are kept, by their sha256: the database's asset store by default, or an
 * S3-compatible bucket (ADR 0159). Storing the same bytes twice is harmless.
 */
export interface AssetBlobs {
  storeBlob(sha256: string, content: Buffer): Promise<void>;
  /** The bytes stored under this hash; undefined when the store has none. */
  readBlob(sha256: string): Promise<Buffer | undefined>;
  /** Stores a file's bytes from a file on disk, reading it as a stream; stores without it read it whole. */
  storeBlobFile?(sha256: string, path: string, size: number): Promise<void>;
  /** Releases the store's connections, if it holds any. */
  close?(): void;
}

/** Stores the bytes, then records the upload: an asset's event never names bytes that are not stored. */
export async function uploadAsset(
  store: EventStore,
  blobs: AssetBlobs,
  file: { filename: string; mimeType: string; content: Buffer },
  metadata: CommandMetadata,
): Promise<{ id: string; outcome: CommandOutcome<AssetState, AssetEvent> }> {
  const sha256 = createHash('sha256').update(file.content).digest('hex');
  await blobs.storeBlob(sha256, file.content);
  return recordUpload(store, { ...file, sha256, size: file.content.length }, metadata);
}

/**
 * An upload read as it arrives (ADR 0227): the bytes go to a temporary file while they are hashed
 * and counted, never more than `maxBytes` of them (413 `payload_too_large` past it, nothing
 * stored or recorded), then to the store, then the upload is recorded.
 */
export async function uploadAssetStream(
  store: EventStore,
  blobs: AssetBlobs,
  file: { filename: string; mimeType: string; content: Readable; maxBytes: number },
  metadata: CommandMetadata,
): Promise<{ id: string; outcome: CommandOutcome<AssetState, AssetEvent> }> {
  const dir = await mkdtemp(join(tmpdir(), 'notify-asset-'));
  try {
    const path = join(dir, 'upload');
    const hash = createHash('sha256');
    let size = 0;
    const counted = new Transform({
      transform(chunk: Buffer, _encoding, next) {
        size += chunk.length;
        if (size > file.maxBytes) return next(tooLarge(file.maxBytes));
        hash.update(chunk);
        next(null, chunk);
      },
    });
    await pipeline(file.content, counted, createWriteStream(path));
    if (size === 0)
      throw invalidParams([{ field: '(body)', message: "is required: the file's bytes", type: 'required' }], 'The file is empty');
    const sha256 = hash.digest('hex');
    if (blobs.storeBlobFile) await blobs.storeBlobFile(sha256, path, size);
    else await blobs.storeBlob(sha256, await readFile(path));
    return await recordUpload(store, { filename: file.filename, mimeType: file.mimeType, sha256, size }, metadata);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const tooLarge = (max: number) =>
  new DomainError(
    'payload_too_large',
    `The file is larger than this service accepts (${max} bytes, ASSETS_MAX_UPLOAD_BYTES)`,
    'payload_too_large',
  );

async function recordUpload(
  store: EventStore,
  file: { filename: string; mimeType: string; sha256: string; size: number },
  metadata: CommandMetadata,
): Promise<{ id: string; outcome: CommandOutcome<AssetState, AssetEvent> }> {
  const { sha256 } = file;
  const id = randomUUID();
  const outcome = await handleCommand(
    store,
    assetStream(id),
    assetDecider,
    {
      type: 'UploadAsset',
      assetId: id,
      filename: file.filename,
      mimeType: file.mimeType,
      sha256,
      size: file.size,
      now: new Date().toISOString(),
    },
    { ...metadata, environment: null },
  );
  return { id, outcome };
}

export function deleteAsset(store: EventStore, id: string, metadata: CommandMetadata): Promise<CommandOutcome<AssetState, AssetEvent>> {
  return handleCommand(
    store,
    assetStream(id),
    assetDecider,
    { type: 'DeleteAsset', now: new Date().toISOString() },
    {
      ...metadata,
      environment: null,
    },
  );
}
