import { deciderSpec } from '@notify/testing/decider-spec';
import { AssetEvent, assetDecider } from './asset.decider';

const now = '2026-01-01T00:00:00.000Z';
const id = '00000000-0000-4000-8000-000000000001';
const uploaded: AssetEvent = {
  type: 'AssetUploaded',
  data: { asset_id: id, filename: 'logo.png', mime_type: 'image/png', sha256: 'abc', size: 3, uploaded_at: now },
};
const upload = { type: 'UploadAsset' as const, assetId: id, filename: 'logo.png', mimeType: 'image/png', sha256: 'abc', size: 3, now };

describe('asset decider', () => {
  const spec = deciderSpec(assetDecider);

  it('uploads once (a retried upload records nothing) and deletes once', () => {
    spec.given([]).when(upload).then([uploaded]);
    spec.given([uploaded]).when(upload).thenNothing();
    const deleted: AssetEvent = { type: 'AssetDeleted', data: { asset_id: id, deleted_at: now } };
    spec.given([uploaded]).when({ type: 'DeleteAsset', now }).then([deleted]);
    spec.given([uploaded, deleted]).when({ type: 'DeleteAsset', now }).thenThrows('resource_missing');
    spec.given([]).when({ type: 'DeleteAsset', now }).thenThrows('resource_missing');
  });
});
