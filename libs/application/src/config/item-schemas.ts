import { compileJsonSchema, ItemSchemaRequest, ItemTypeT, StoredItemSchemaPropertyT } from '@notify/contracts';
import {
  applyItemSchemaChanges,
  FieldError,
  fold,
  invalidParams,
  ItemSchemaEvent,
  itemSchemaDecider,
  itemSchemaJsonSchema,
  ItemSchemaState,
  itemSchemaStream,
} from '@notify/domain';
import { EventStore } from '@notify/eventstore';
import { z } from 'zod';
import { CommandMetadata, CommandOutcome, handleCommand, toDomainEvent } from '../handle-command';

/** Which schema a request names: objects need their collection, users and tenants take none. */
export function itemSchemaTarget(itemType: ItemTypeT, collection: string | undefined): { itemType: ItemTypeT; itemId: string | null } {
  if (itemType === 'object' && !collection)
    throw invalidParams([{ field: 'collection', message: 'is required when item_type is object', type: 'required' }]);
  if (itemType !== 'object' && collection)
    throw invalidParams([{ field: 'collection', message: 'is only taken when item_type is object', type: 'unsupported' }]);
  return { itemType, itemId: itemType === 'object' ? collection! : null };
}

/** The properties an item schema has now, from its own stream (strongly consistent). */
export async function currentItemSchema(
  store: EventStore,
  environment: string,
  itemType: ItemTypeT,
  itemId: string | null,
): Promise<StoredItemSchemaPropertyT[]> {
  const history = await store.readStream(itemSchemaStream(environment, itemType, itemId));
  return fold(itemSchemaDecider, history.map(toDomainEvent) as ItemSchemaEvent[]).properties;
}

/** Adds or changes properties of an item schema (see applyItemSchemaChanges). */
export function changeItemSchema(
  store: EventStore,
  environment: string,
  target: { itemType: ItemTypeT; itemId: string | null },
  request: z.infer<typeof ItemSchemaRequest>,
  metadata: CommandMetadata,
): Promise<CommandOutcome<ItemSchemaState, ItemSchemaEvent>> {
  return handleCommand(
    store,
    itemSchemaStream(environment, target.itemType, target.itemId),
    itemSchemaDecider,
    {
      type: 'ChangeItemSchema',
      itemType: target.itemType,
      itemId: target.itemId,
      changes: request.properties,
      now: new Date().toISOString(),
    },
    { ...metadata, environment },
  );
}

/** The schema a change would make, without writing it. */
export async function previewItemSchema(
  store: EventStore,
  environment: string,
  target: { itemType: ItemTypeT; itemId: string | null },
  request: z.infer<typeof ItemSchemaRequest>,
): Promise<StoredItemSchemaPropertyT[]> {
  return applyItemSchemaChanges(await currentItemSchema(store, environment, target.itemType, target.itemId), request.properties);
}

/** Reads the declared properties of a schema; undefined or [] when none is declared. */
export interface ItemSchemaLookup {
  propertiesOf(environment: string, itemType: ItemTypeT, itemId: string | null): Promise<StoredItemSchemaPropertyT[] | undefined>;
}

const compiled = new Map<string, ReturnType<typeof compileJsonSchema>>();

/**
 * Refuses recipient properties whose values do not have the type their item schema declares
 * (ADR 0192): one 422 invalid_params naming every offending property, before anything is written.
 * The JSON Schema built from the item schema is checked with ajv; compiled validators are kept
 * per schema text (a few hundred at most: one per environment and item type or collection).
 */
export async function checkItemSchema(
  lookup: ItemSchemaLookup | undefined,
  environment: string,
  itemType: ItemTypeT,
  itemId: string | null,
  properties: Record<string, unknown>,
  fieldPrefix = '',
): Promise<void> {
  if (!lookup) return;
  const declared = await lookup.propertiesOf(environment, itemType, itemId);
  if (!declared?.some((p) => p.type)) return;
  const schema = itemSchemaJsonSchema(declared);
  const text = JSON.stringify(schema);
  let validate = compiled.get(text);
  if (!validate) {
    if (compiled.size >= 500) compiled.clear();
    validate = compileJsonSchema(schema);
    compiled.set(text, validate);
  }
  const { valid, errors } = validate(properties);
  if (valid) return;
  const seen = new Set<string>();
  const problems: FieldError[] = [];
  for (const e of errors) {
    const field = fieldPrefix + e.instancePath.replace(/^\//, '').replace(/\//g, '.');
    if (seen.has(field)) continue;
    seen.add(field);
    const wanted = (e.params as { type?: unknown }).type;
    const expected = Array.isArray(wanted) ? wanted.filter((t) => t !== 'null').join(' or ') : String(wanted ?? '');
    problems.push({
      field: field || fieldPrefix.replace(/\.$/, '') || '(properties)',
      message: e.keyword === 'type' ? `must be ${expected} (the ${itemType} schema declares it)` : (e.message ?? 'is invalid'),
      type: 'item_schema',
    });
  }
  throw invalidParams(problems);
}
