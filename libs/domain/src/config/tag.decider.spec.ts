import { deciderSpec } from '@notify/testing/decider-spec';
import { TagFields, tagDecider } from './tag.decider';

const now = '2026-01-01T00:00:00.000Z';
const tag: TagFields = { name: 'billing', description: 'Billing workflows', color: '#3B82F6' };
const upserted = (fields = tag) => ({ type: 'TagUpserted' as const, data: { ...fields, upserted_at: now } });

describe('tag decider', () => {
  const spec = deciderSpec(tagDecider);

  it('records a new tag, and nothing when the same tag is upserted again', () => {
    spec.given([]).when({ type: 'UpsertTag', tag, now }).then([upserted()]);
    spec.given([upserted()]).when({ type: 'UpsertTag', tag, now }).thenNothing();
  });

  it('records a change of description or color', () => {
    const changed = { ...tag, color: null };
    spec
      .given([upserted()])
      .when({ type: 'UpsertTag', tag: changed, now })
      .then([upserted(changed)]);
  });

  it('deletes a tag once; a deleted tag can be created again', () => {
    const deleted = { type: 'TagDeleted' as const, data: { name: 'billing', deleted_at: now } };
    spec.given([upserted()]).when({ type: 'DeleteTag', name: 'billing', now }).then([deleted]);
    spec.given([upserted(), deleted]).when({ type: 'DeleteTag', name: 'billing', now }).thenNothing();
    spec.given([]).when({ type: 'DeleteTag', name: 'billing', now }).thenNothing();
    spec.given([upserted(), deleted]).when({ type: 'UpsertTag', tag, now }).then([upserted()]);
  });
});
