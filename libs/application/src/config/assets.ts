import { AssetEvent, assetDecider, AssetState, assetStream } from '@notify/domain';
import { EventStore } from '@notify/eventstore';
import { createHash, randomUUID } from 'node:crypto';
import { CommandMetadata, CommandOutcome, handleCommand } from '../handle-command';

/**
 * Where asset contents are kept, by their sha256: the database's asset store by default, or an
 * S3-compatible bucket (ADR 0159). Storing the same bytes twice is harmless.
 */
export interface AssetBlobs {
  storeBlob(sha256: string, content: Buffer): Promise<void>;
  /** The bytes stored under this hash; undefined when the store has none. */
  readBlob(sha256: string): Promise<Buffer | undefined>;
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
      size: file.content.length,
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
