import { ItemSchemaT, ItemTypeT, StoredItemSchemaPropertyT } from '@notify/contracts';

export function presentItemSchema(itemType: ItemTypeT, itemId: string | null, properties: StoredItemSchemaPropertyT[]): ItemSchemaT {
  return { item_type: itemType, item_id: itemType === 'object' ? itemId : null, properties: properties.map((p) => ({ ...p })) };
}
