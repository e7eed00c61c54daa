import type { AssetDeleted, AssetUploaded, EventOf } from '@notify/contracts';
import { assertNever, Decider } from '../shared/decider';
import { resourceMissing } from '../shared/errors';

export type AssetEvent = EventOf<typeof AssetUploaded> | EventOf<typeof AssetDeleted>;
export type AssetCommand =
  | { type: 'UploadAsset'; assetId: string; filename: string; mimeType: string; sha256: string; size: number; now: string }
  | { type: 'DeleteAsset'; now: string };
export interface AssetState {
  id?: string;
  exists: boolean;
  deleted: boolean;
}

/** An asset is uploaded once (each upload is a new asset id) and deleted once. */
export const assetDecider: Decider<AssetState, AssetCommand, AssetEvent> = {
  initialState: () => ({ exists: false, deleted: false }),
  evolve(state, event) {
    switch (event.type) {
      case 'AssetUploaded':
        return { id: event.data.asset_id, exists: true, deleted: false };
      case 'AssetDeleted':
        return { ...state, deleted: true };
      default:
        return assertNever(event);
    }
  },
  decide(command, state) {
    switch (command.type) {
      case 'UploadAsset': {
        if (state.exists) return [];
        const { assetId, filename, mimeType, sha256, size, now } = command;
        return [{ type: 'AssetUploaded', data: { asset_id: assetId, filename, mime_type: mimeType, sha256, size, uploaded_at: now } }];
      }
      case 'DeleteAsset':
        if (!state.exists || state.deleted) throw resourceMissing('asset');
        return [{ type: 'AssetDeleted', data: { asset_id: state.id!, deleted_at: command.now } }];
      default:
        return assertNever(command);
    }
  },
};
