import type { EventOf, ItemSchemaPropertyRequestT, ItemSchemaUpserted, ItemTypeT, StoredItemSchemaPropertyT } from '@notify/contracts';
import { assertNever, Decider } from '../shared/decider';
import { sameJson } from '../shared/same-json';

export type ItemSchemaEvent = EventOf<typeof ItemSchemaUpserted>;
export type ItemSchemaCommand = {
  type: 'ChangeItemSchema';
  itemType: ItemTypeT;
  itemId: string | null;
  changes: ItemSchemaPropertyRequestT[];
  now: string;
};
export interface ItemSchemaState {
  properties: StoredItemSchemaPropertyT[];
}

/**
 * Applies property changes to a schema: a named property's given fields replace its stored ones,
 * its omitted fields are kept; properties not named are kept (hiding one is `visible: false`).
 * New properties come after the existing ones, in request order.
 */
export function applyItemSchemaChanges(
  current: readonly StoredItemSchemaPropertyT[],
  changes: readonly ItemSchemaPropertyRequestT[],
): StoredItemSchemaPropertyT[] {
  const result = current.map((p) => ({ ...p }));
  for (const change of changes) {
    let target = result.find((p) => p.key === change.key);
    if (!target) {
      target = { key: change.key, type: null, description: null, preview_text: null, item_type: null, visible: true };
      result.push(target);
    }
    if (change.type !== undefined) target.type = change.type;
    if (change.description !== undefined) target.description = change.description;
    if (change.preview_text !== undefined) target.preview_text = change.preview_text;
    if (change.item_type !== undefined) target.item_type = change.item_type;
    if (change.visible !== undefined) target.visible = change.visible;
  }
  return result;
}

export const itemSchemaDecider: Decider<ItemSchemaState, ItemSchemaCommand, ItemSchemaEvent> = {
  initialState: () => ({ properties: [] }),
  evolve(_state, event) {
    return { properties: event.data.properties };
  },
  decide(command, state) {
    if (command.type !== 'ChangeItemSchema') return assertNever(command.type);
    const properties = applyItemSchemaChanges(state.properties, command.changes);
    if (sameJson(properties, state.properties)) return [];
    return [
      { type: 'ItemSchemaUpserted', data: { item_type: command.itemType, item_id: command.itemId, properties, upserted_at: command.now } },
    ];
  },
};

type JsonSchemaNode = { type?: string[]; properties?: Record<string, JsonSchemaNode> };

/**
 * The JSON Schema of a recipient's properties under an item schema: every property that declares
 * a type must hold a value of that type (or null, which clears it); dotted keys (`address.city`)
 * constrain nested objects. Undeclared properties stay free.
 */
export function itemSchemaJsonSchema(properties: readonly StoredItemSchemaPropertyT[]): Record<string, unknown> {
  const root: JsonSchemaNode = { properties: {} };
  for (const p of properties) {
    if (!p.type) continue;
    const path = p.key.split('.');
    let node = root;
    for (const segment of path.slice(0, -1)) {
      node.properties ??= {};
      node = node.properties[segment] ??= { properties: {} };
    }
    node.properties ??= {};
    const leaf = (node.properties[path[path.length - 1]] ??= {});
    leaf.type = [p.type, 'null'];
  }
  return { type: 'object', ...root };
}

/** Stream of an item schema: `item_schema-development-user`, `item_schema-development-object-projects`. */
export const itemSchemaStream = (environment: string, itemType: ItemTypeT, itemId: string | null) =>
  `item_schema-${environment}-${itemType}${itemType === 'object' ? `-${itemId}` : ''}`;
