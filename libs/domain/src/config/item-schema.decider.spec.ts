import { deciderSpec } from '@notify/testing/decider-spec';
import type { ItemSchemaPropertyRequestT, StoredItemSchemaPropertyT } from '@notify/contracts';
import { ItemSchemaCommand, itemSchemaDecider, itemSchemaJsonSchema } from './item-schema.decider';

const now = '2026-01-01T00:00:00.000Z';
const plan: StoredItemSchemaPropertyT = {
  key: 'plan',
  type: 'string',
  description: null,
  preview_text: null,
  item_type: null,
  visible: true,
};
const upserted = (properties: StoredItemSchemaPropertyT[]) => ({
  type: 'ItemSchemaUpserted' as const,
  data: { item_type: 'user' as const, item_id: null, properties, upserted_at: now },
});

describe('item schema decider', () => {
  const spec = deciderSpec(itemSchemaDecider);
  const change = (changes: ItemSchemaPropertyRequestT[]): ItemSchemaCommand => ({
    type: 'ChangeItemSchema',
    itemType: 'user',
    itemId: null,
    changes,
    now,
  });

  it('adds a property with defaults for the fields not given', () => {
    spec
      .given([])
      .when(change([{ key: 'plan', type: 'string' }]))
      .then([upserted([plan])]);
  });

  it('changes only the fields given, keeps properties not named, and records nothing when nothing changes', () => {
    const seats: StoredItemSchemaPropertyT = { ...plan, key: 'seats', type: 'integer' };
    spec
      .given([upserted([plan, seats])])
      .when(change([{ key: 'plan', visible: false, description: 'Billing plan' }]))
      .then([upserted([{ ...plan, visible: false, description: 'Billing plan' }, seats])]);
    spec
      .given([upserted([plan])])
      .when(change([{ key: 'plan', type: 'string' }]))
      .thenNothing();
  });
});

describe('itemSchemaJsonSchema', () => {
  it('types declared properties (null allowed), nests dotted keys and leaves untyped ones free', () => {
    const schema = itemSchemaJsonSchema([
      plan,
      { ...plan, key: 'address.city' },
      { ...plan, key: 'address.zip', type: 'integer' },
      { ...plan, key: 'nickname', type: null },
    ]);
    expect(schema).toEqual({
      type: 'object',
      properties: {
        plan: { type: ['string', 'null'] },
        address: { properties: { city: { type: ['string', 'null'] }, zip: { type: ['integer', 'null'] } } },
      },
    });
  });
});
