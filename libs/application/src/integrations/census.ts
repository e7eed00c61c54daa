import type { StoredItemSchemaPropertyT } from '@notify/contracts';
import { DomainError, invalidParams } from '@notify/domain';

/**
 * Census custom destination (JSON-RPC 2.0, methods test_connection, list_objects, list_fields,
 * supported_operations, get_sync_speed, sync_batch). Two kinds of destination objects:
 * - `user`: upserting a record identifies the user (the same use case as PUT /v1/users/{id});
 * - `workflow:<key>`: inserting a record triggers the workflow for the record's recipient, the
 *   other fields becoming the trigger data.
 * Each record answers its own success or error message; a record refused by validation does not
 * stop the batch.
 */
type FieldType = 'boolean' | 'float' | 'integer' | 'string' | 'date' | 'date_time' | 'decimal';
interface CensusObject {
  object_api_name: string;
  label: string;
}
interface CensusField {
  field_api_name: string;
  label: string;
  identifier: boolean;
  required: boolean;
  createable: boolean;
  updateable: boolean;
  array: boolean;
  type: FieldType;
}

export interface CensusPorts {
  /** The workflows of the environment: key, name and trigger data JSON Schema. */
  workflows(): Promise<{ key: string; name: string; triggerDataSchema: Record<string, unknown> | null }[]>;
  userSchema(): Promise<StoredItemSchemaPropertyT[]>;
  identify(userId: string, properties: Record<string, unknown>): Promise<void>;
  trigger(
    workflowKey: string,
    body: { recipients: string[]; actor?: string; tenant?: string; cancellation_key?: string; data: Record<string, unknown> },
  ): Promise<void>;
}

const WORKFLOW_PREFIX = 'workflow:';
const BATCH_SIZE = 100;
const field = (name: string, type: FieldType, extra: Partial<CensusField> = {}): CensusField => ({
  field_api_name: name,
  label: name,
  identifier: false,
  required: false,
  createable: true,
  updateable: true,
  array: false,
  type,
  ...extra,
});
const USER_FIELDS = ['name', 'email', 'phone_number', 'avatar', 'locale', 'timezone'].map((n) => field(n, 'string'));
const TYPE_OF: Record<string, FieldType | undefined> = { string: 'string', number: 'float', integer: 'integer', boolean: 'boolean' };

function objectName(params: Record<string, unknown>): string {
  const fromPlan = (params.sync_plan as { object?: { object_api_name?: unknown } } | undefined)?.object?.object_api_name;
  const name = (params.object as { object_api_name?: unknown } | undefined)?.object_api_name ?? fromPlan;
  if (typeof name !== 'string') throw invalidParams([{ field: 'params.object.object_api_name', message: 'is required', type: 'required' }]);
  return name;
}

async function fieldsOf(ports: CensusPorts, name: string): Promise<CensusField[]> {
  if (name === 'user') {
    const declared = (await ports.userSchema())
      .filter((p) => p.type && TYPE_OF[p.type] && !p.key.includes('.') && !USER_FIELDS.some((f) => f.field_api_name === p.key))
      .map((p) => field(p.key, TYPE_OF[p.type!]!));
    return [field('id', 'string', { identifier: true, required: true, updateable: false }), ...USER_FIELDS, ...declared];
  }
  const workflow = await workflowNamed(ports, name);
  const props = (workflow.triggerDataSchema?.properties ?? {}) as Record<string, { type?: unknown }>;
  const data = Object.entries(props)
    .filter(([key, s]) => typeof s?.type === 'string' && TYPE_OF[s.type] && !['recipient_id', 'actor_id', 'tenant'].includes(key))
    .map(([key, s]) => field(key, TYPE_OF[s.type as string]!));
  return [
    field('recipient_id', 'string', { identifier: true, required: true, updateable: false }),
    field('actor_id', 'string'),
    field('tenant', 'string'),
    ...data,
  ];
}

async function workflowNamed(ports: CensusPorts, name: string) {
  const key = name.startsWith(WORKFLOW_PREFIX) ? name.slice(WORKFLOW_PREFIX.length) : undefined;
  const workflow = key ? (await ports.workflows()).find((w) => w.key === key) : undefined;
  if (!workflow)
    throw invalidParams([{ field: 'params.object.object_api_name', message: `no destination object ${name}`, type: 'reference' }]);
  return workflow;
}

export async function censusRpc(ports: CensusPorts, method: string, params: Record<string, unknown>): Promise<Record<string, unknown>> {
  switch (method) {
    case 'test_connection':
      return { success: true };
    case 'list_objects':
      return {
        objects: [
          { object_api_name: 'user', label: 'Users' },
          ...(await ports.workflows()).map((w): CensusObject => ({
            object_api_name: `${WORKFLOW_PREFIX}${w.key}`,
            label: `Trigger: ${w.name}`,
          })),
        ],
      };
    case 'list_fields':
      return { fields: await fieldsOf(ports, objectName(params)) };
    case 'supported_operations':
      return { operations: objectName(params) === 'user' ? ['upsert'] : ['insert'] };
    case 'get_sync_speed':
      return { maximum_batch_size: BATCH_SIZE, maximum_parallel_batches: 4, maximum_records_per_second: 500 };
    case 'sync_batch':
      return { record_results: await syncBatch(ports, params) };
    default:
      throw invalidParams([{ field: 'method', message: `is not a Census custom destination method: ${method}`, type: 'unsupported' }]);
  }
}

async function syncBatch(ports: CensusPorts, params: Record<string, unknown>) {
  const name = objectName(params);
  const records = params.records;
  if (!Array.isArray(records) || records.length > BATCH_SIZE)
    throw invalidParams([{ field: 'params.records', message: `must be a list of at most ${BATCH_SIZE} records`, type: 'invalid' }]);
  const operation = (params.sync_plan as { operation?: unknown } | undefined)?.operation;
  const expected = name === 'user' ? 'upsert' : 'insert';
  if (operation !== undefined && operation !== expected)
    throw invalidParams([{ field: 'params.sync_plan.operation', message: `must be ${expected} for ${name}`, type: 'unsupported' }]);
  if (name !== 'user') await workflowNamed(ports, name);
  const idField = name === 'user' ? 'id' : 'recipient_id';
  const results: { identifier: string | number; success: boolean; error_message?: string }[] = [];
  for (const raw of records as Record<string, unknown>[]) {
    const identifier = raw?.[idField];
    if (typeof identifier !== 'string' && typeof identifier !== 'number') {
      results.push({ identifier: String(identifier ?? ''), success: false, error_message: `${idField} is required` });
      continue;
    }
    const { [idField]: _id, ...rest } = raw;
    try {
      if (name === 'user') await ports.identify(String(identifier), rest);
      else {
        const { actor_id, tenant, ...data } = rest;
        await ports.trigger(name.slice(WORKFLOW_PREFIX.length), {
          recipients: [String(identifier)],
          ...(typeof actor_id === 'string' && actor_id ? { actor: actor_id } : {}),
          ...(typeof tenant === 'string' && tenant ? { tenant } : {}),
          data,
        });
      }
      results.push({ identifier, success: true });
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      const detail = error.fields.map((f) => `${f.field} ${f.message}`).join('; ');
      results.push({ identifier, success: false, error_message: detail ? `${error.message}: ${detail}` : error.message });
    }
  }
  return results;
}
