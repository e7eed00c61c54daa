import { DomainError, invalidParams } from '@notify/domain';
import type { CensusPorts } from './census';

/**
 * Hightouch embedded destination (JSON-RPC 2.0 with named params). Configuration calls:
 * list_objects, list_modes, list_fields, list_options, validate, behavior; sync calls: add,
 * change, remove with `{idColumn, configuration, rows}`. The same two kinds of destination
 * object as the Census route (ADR 0193): `user` (add and change identify the user; a removed row
 * clears the synced fields in mode upsert, deletes the user in mode mirror) and `workflow:<key>`
 * (mode insert: add triggers the workflow for the row's recipient with the row's key as
 * cancellation key, remove cancels what that trigger still has to do), and, as Knock's own
 * embedded destination, `audience:<key>` for static audiences (mode insert: added rows join; mode
 * mirror: removed rows leave too). Rows are mapped with the sync's `identifierMapping` and
 * `mappings` ({from: column, to: field}); a row refused by validation is answered in
 * `rejectedRows` and does not stop the batch (ADR 0158, ADR 0245).
 */
export interface DestinationPorts extends CensusPorts {
  /** The static audiences of the environment (dynamic ones take no members from calls). */
  staticAudiences(): Promise<{ key: string; name: string }[]>;
  /** Adds the user (identified if new) to the audience, creating the audience if it does not exist. */
  addAudienceMember(audienceKey: string, member: { userId: string; tenant: string | null }): Promise<void>;
  removeAudienceMember(audienceKey: string, member: { userId: string; tenant: string | null }): Promise<void>;
  /** Deletes the user and erases their personal data, as DELETE /v1/users/{id} does. */
  deleteUser(userId: string): Promise<void>;
  /** Cancels the recipient's runs of the workflow triggered with the cancellation key, as POST /v1/workflows/{key}/cancel does. */
  cancelRuns(workflowKey: string, cancellationKey: string, recipient: string): Promise<void>;
}

type FieldType = 'STRING' | 'NUMBER' | 'BOOLEAN';
interface Field {
  id: string;
  label: string;
  type: FieldType;
  identifier: boolean;
}
interface Mapping {
  from: string;
  to: string;
}
interface Configuration {
  object: string;
  identifierMapping?: Mapping;
  mappings: Mapping[];
  /** The sync's mode (`list_modes`): `upsert` or `mirror` for users, `insert` or `mirror` for audiences. */
  mode?: string;
}

const WORKFLOW_PREFIX = 'workflow:';
const AUDIENCE_PREFIX = 'audience:';
const BATCH_SIZE = 100;
const USER_FIELDS = ['name', 'email', 'phone_number', 'avatar', 'locale', 'timezone'];
const TYPE_OF: Record<string, FieldType | undefined> = { string: 'STRING', number: 'NUMBER', integer: 'NUMBER', boolean: 'BOOLEAN' };
const field = (id: string, type: FieldType, identifier = false): Field => ({ id, label: id, type, identifier });

const objectOf = (params: Record<string, unknown>, at = 'params.object'): string => {
  const direct = params.object;
  const fromConfiguration = (params.configuration as { object?: unknown } | undefined)?.object;
  const object = direct ?? fromConfiguration;
  if (typeof object !== 'string') throw invalidParams([{ field: at, message: 'is required', type: 'required' }]);
  return object;
};

async function workflowNamed(ports: DestinationPorts, object: string, at: string) {
  const key = object.startsWith(WORKFLOW_PREFIX) ? object.slice(WORKFLOW_PREFIX.length) : undefined;
  const workflow = key ? (await ports.workflows()).find((w) => w.key === key) : undefined;
  if (!workflow) throw invalidParams([{ field: at, message: `no destination object ${object}`, type: 'reference' }]);
  return workflow;
}

async function audienceNamed(ports: DestinationPorts, object: string, at: string) {
  const key = object.slice(AUDIENCE_PREFIX.length);
  const audience = (await ports.staticAudiences()).find((a) => a.key === key);
  if (!audience) throw invalidParams([{ field: at, message: `no destination object ${object}`, type: 'reference' }]);
  return audience;
}

const isAudience = (object: string) => object.startsWith(AUDIENCE_PREFIX);

async function fieldsOf(ports: DestinationPorts, object: string): Promise<Field[]> {
  if (isAudience(object)) {
    await audienceNamed(ports, object, 'params.object');
    return [field('user_id', 'STRING', true), field('tenant', 'STRING')];
  }
  if (object === 'user') {
    const declared = (await ports.userSchema())
      .filter((p) => p.type && TYPE_OF[p.type] && !p.key.includes('.') && !USER_FIELDS.includes(p.key))
      .map((p) => field(p.key, TYPE_OF[p.type!]!));
    return [field('id', 'STRING', true), ...USER_FIELDS.map((f) => field(f, 'STRING')), ...declared];
  }
  const workflow = await workflowNamed(ports, object, 'params.object');
  const props = (workflow.triggerDataSchema?.properties ?? {}) as Record<string, { type?: unknown }>;
  const data = Object.entries(props)
    .filter(([key, s]) => typeof s?.type === 'string' && TYPE_OF[s.type] && !['recipient_id', 'actor_id', 'tenant'].includes(key))
    .map(([key, s]) => field(key, TYPE_OF[s.type as string]!));
  return [field('recipient_id', 'STRING', true), field('actor_id', 'STRING'), field('tenant', 'STRING'), ...data];
}

/** The sync's configuration, checked: what `validate` answers as errors, and what a sync call refuses. */
async function configurationProblems(ports: DestinationPorts, raw: unknown): Promise<{ configuration?: Configuration; errors: string[] }> {
  const c = (raw ?? {}) as { object?: unknown; identifierMapping?: unknown; mappings?: unknown; mode?: unknown };
  const errors: string[] = [];
  if (typeof c.object !== 'string') errors.push('configuration.object is required');
  else if (isAudience(c.object)) {
    try {
      await audienceNamed(ports, c.object, 'configuration.object');
    } catch {
      errors.push(`configuration.object: no destination object ${c.object}`);
    }
    if (c.mode !== undefined && c.mode !== 'insert' && c.mode !== 'mirror') errors.push('configuration.mode must be insert or mirror');
  } else if (c.object === 'user') {
    if (c.mode !== undefined && c.mode !== 'upsert' && c.mode !== 'mirror') errors.push('configuration.mode must be upsert or mirror');
  } else {
    try {
      await workflowNamed(ports, c.object, 'configuration.object');
    } catch {
      errors.push(`configuration.object: no destination object ${c.object}`);
    }
  }
  const isMapping = (m: unknown): m is Mapping => typeof (m as Mapping)?.from === 'string' && typeof (m as Mapping)?.to === 'string';
  if (c.identifierMapping !== undefined && !isMapping(c.identifierMapping))
    errors.push('configuration.identifierMapping must be {from, to}');
  if (c.mappings !== undefined && (!Array.isArray(c.mappings) || !c.mappings.every(isMapping)))
    errors.push('configuration.mappings must be a list of {from, to}');
  if (errors.length) return { errors };
  return {
    configuration: {
      object: c.object as string,
      identifierMapping: c.identifierMapping as Mapping | undefined,
      mappings: (c.mappings as Mapping[] | undefined) ?? [],
      ...(typeof c.mode === 'string' ? { mode: c.mode } : {}),
    },
    errors,
  };
}

export async function hightouchRpc(ports: DestinationPorts, method: string, params: Record<string, unknown>): Promise<unknown> {
  switch (method) {
    case 'list_objects':
      return {
        objects: [
          { id: 'user', label: 'Users' },
          ...(await ports.workflows()).map((w) => ({ id: `${WORKFLOW_PREFIX}${w.key}`, label: `Trigger: ${w.name}` })),
          ...(await ports.staticAudiences()).map((a) => ({ id: `${AUDIENCE_PREFIX}${a.key}`, label: `Audience: ${a.name}` })),
        ],
      };
    case 'list_modes': {
      const object = objectOf(params);
      if (isAudience(object)) {
        await audienceNamed(ports, object, 'params.object');
        return {
          modes: [
            { id: 'insert', label: 'Insert', description: 'Adds the user of each new row to the audience.' },
            { id: 'mirror', label: 'Mirror', description: 'Adds the users of new rows and removes the users of removed rows.' },
          ],
        };
      }
      if (object !== 'user') await workflowNamed(ports, object, 'params.object');
      return {
        modes:
          object === 'user'
            ? [
                {
                  id: 'upsert',
                  label: 'Upsert',
                  description: 'Identifies each user from new and changed rows; a removed row clears the fields the sync maps.',
                },
                {
                  id: 'mirror',
                  label: 'Mirror',
                  description: 'Identifies each user from new and changed rows; a removed row deletes the user.',
                },
              ]
            : [
                {
                  id: 'insert',
                  label: 'Insert',
                  description: "Triggers the workflow once for each new row; a removed row cancels that trigger's pending steps.",
                },
              ],
      };
    }
    case 'list_fields':
      return { fields: await fieldsOf(ports, objectOf(params)) };
    case 'list_options':
      return { options: null };
    case 'validate':
      return { errors: (await configurationProblems(ports, params.configuration)).errors };
    case 'behavior': {
      const { object, mode } = (params.configuration ?? {}) as { object?: unknown; mode?: unknown };
      // Audiences in insert mode ask for no removals (they would change nothing); every other object takes them.
      const remove = typeof object === 'string' && (!isAudience(object) || mode === 'mirror');
      return { batchSize: BATCH_SIZE, operations: { add: true, change: object === 'user', remove }, skipInitialRun: false };
    }
    case 'add':
    case 'change':
    case 'remove':
      return { rejectedRows: await sync(ports, method, params) };
    default:
      throw invalidParams([{ field: 'method', message: `is not a Hightouch embedded destination method: ${method}`, type: 'unsupported' }]);
  }
}

/**
 * The cancellation key of a workflow row: its key in the model (`idColumn`), else its recipient,
 * so that the row's removal cancels what its addition started (ADR 0245).
 */
const cancellationKey = (rowId: string, recipient: string | number) => `hightouch:${rowId || String(recipient)}`;

async function sync(ports: DestinationPorts, operation: 'add' | 'change' | 'remove', params: Record<string, unknown>) {
  const { configuration, errors } = await configurationProblems(ports, params.configuration);
  if (!configuration) throw invalidParams(errors.map((message) => ({ field: 'params.configuration', message, type: 'invalid' })));
  const rows = params.rows;
  if (!Array.isArray(rows) || rows.length > BATCH_SIZE)
    throw invalidParams([{ field: 'params.rows', message: `must be a list of at most ${BATCH_SIZE} rows`, type: 'invalid' }]);
  const idColumn = typeof params.idColumn === 'string' ? params.idColumn : undefined;
  const { object, identifierMapping, mappings } = configuration;
  const defaultId = object === 'user' ? 'id' : isAudience(object) ? 'user_id' : 'recipient_id';
  const idOf = (row: Record<string, unknown>) => row[identifierMapping?.from ?? idColumn ?? defaultId];
  // Insert-only audience syncs: a removed row changes nothing, as Knock's destination does.
  if (operation === 'remove' && isAudience(object) && configuration.mode !== 'mirror') return [];
  const rejected: { id: string; reason: string }[] = [];
  for (const row of rows as Record<string, unknown>[]) {
    const id = idOf(row ?? {});
    const rowId = String(idColumn !== undefined ? (row?.[idColumn] ?? id ?? '') : (id ?? ''));
    if (operation === 'change' && object !== 'user') {
      rejected.push({ id: rowId, reason: `${operation} is not supported for ${object}` });
      continue;
    }
    if (typeof id !== 'string' && typeof id !== 'number') {
      rejected.push({ id: rowId, reason: 'the identifier column is empty' });
      continue;
    }
    // Mapped fields, or every other column when the sync maps none.
    const fields = mappings.length
      ? Object.fromEntries(mappings.map((m) => [m.to, row[m.from]]))
      : Object.fromEntries(Object.entries(row).filter(([column]) => column !== identifierMapping?.from && column !== idColumn));
    try {
      if (object === 'user' && operation === 'remove') {
        // Hightouch's delete behaviours: mirror deletes the record, upsert clears the fields it synced.
        if (configuration.mode === 'mirror') await ports.deleteUser(String(id));
        else if (Object.keys(fields).length)
          await ports.identify(String(id), Object.fromEntries(Object.keys(fields).map((k) => [k, null])));
      } else if (object === 'user') await ports.identify(String(id), fields);
      else if (isAudience(object)) {
        const tenant = typeof fields.tenant === 'string' && fields.tenant ? fields.tenant : null;
        const member = { userId: String(id), tenant };
        const key = object.slice(AUDIENCE_PREFIX.length);
        if (operation === 'remove') await ports.removeAudienceMember(key, member);
        else await ports.addAudienceMember(key, member);
      } else if (operation === 'remove') {
        await ports.cancelRuns(object.slice(WORKFLOW_PREFIX.length), cancellationKey(rowId, id), String(id));
      } else {
        const { actor_id, tenant, recipient_id: _r, ...data } = fields;
        await ports.trigger(object.slice(WORKFLOW_PREFIX.length), {
          recipients: [String(id)],
          ...(typeof actor_id === 'string' && actor_id ? { actor: actor_id } : {}),
          ...(typeof tenant === 'string' && tenant ? { tenant } : {}),
          cancellation_key: cancellationKey(rowId, id),
          data,
        });
      }
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      const detail = error.fields.map((f) => `${f.field} ${f.message}`).join('; ');
      rejected.push({ id: rowId, reason: detail ? `${error.message}: ${detail}` : error.message });
    }
  }
  return rejected;
}
