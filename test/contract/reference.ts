import Ajv, { ErrorObject, ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import reference from './reference.schemas.json';

/**
 * The reference specs' operations and response schemas (test/contract/reference.schemas.json,
 * written by scripts/reference-schemas.mjs), compiled into ajv validators.
 *
 * The specs are OpenAPI 3.0; ajv speaks JSON Schema. On loading, each schema is converted:
 * - `nullable: true` next to `type` adds "null" to the type (and to `enum` when there is one);
 *   next to `$ref`, `allOf`, `anyOf` or `oneOf` it becomes `anyOf: [<schema>, {type: null}]`;
 *   a schema that is nothing but `nullable: true` (the specs use it as the null branch of an
 *   anyOf/oneOf) accepts null only;
 * - `#/components/schemas/X` refs point into the API's own definitions document;
 * - `discriminator` (an OpenAPI hint; the oneOf it annotates still applies) is dropped;
 * - a `type` beside `oneOf`/`anyOf` is dropped when one of the branches declares another type or
 *   is the null branch: the specs' generator writes the outer type regardless of the branches, and
 *   keeping it would make those branches unreachable (PreferenceSetWorkflowCategorySetting is
 *   `boolean | object` under `type: object`; Activity.actor is `Recipient | null` under
 *   `type: object`; a delivery log's request body is `object | string`). The branches still apply.
 * Formats are ajv-formats' full set (uuid, date-time with a time zone, absolute uri, email);
 * `json` (a format name the management spec uses that no standard defines) is not checked.
 */
export type ApiName = 'public' | 'management';

export interface ReferenceOperation {
  api: ApiName;
  operationId: string;
  method: string;
  /** As the spec writes it: /v1/users/{user_id} */
  path: string;
  /** Statuses the spec documents, with whether each has a JSON body. */
  statuses: Record<string, { json: boolean }>;
}

interface RawOperation {
  operationId: string;
  responses: Record<string, { content?: Record<string, { schema?: unknown }> }>;
}
interface RawApi {
  operations: number;
  paths: Record<string, Record<string, RawOperation>>;
  components: { schemas: Record<string, unknown> };
}

const apis = reference.apis as unknown as Record<ApiName, RawApi>;
const schemaId = (api: ApiName) => `urn:reference:${api}`;

/** OpenAPI 3.0 schema -> JSON Schema (draft-07), see above. */
export function toJsonSchema(node: unknown, api: ApiName): unknown {
  if (Array.isArray(node)) return node.map((n) => toJsonSchema(n, api));
  if (!node || typeof node !== 'object') return node;
  const source = node as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(source)) {
    if (key === 'nullable' || key === 'discriminator') continue;
    if (key === 'properties' || key === 'patternProperties') {
      out[key] = Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([name, s]) => [name, toJsonSchema(s, api)]));
    } else if (key === '$ref') {
      const match = /^#\/components\/schemas\/(.+)$/.exec(value as string);
      if (!match) throw new Error(`unsupported $ref ${String(value)}`);
      out.$ref = `${schemaId(api)}#/definitions/${match[1]}`;
    } else if (key === 'enum' || key === 'default' || key === 'required' || key === 'const') {
      out[key] = value;
    } else {
      out[key] = toJsonSchema(value, api);
    }
  }
  for (const union of ['oneOf', 'anyOf'] as const) {
    const branches = source[union];
    if (
      typeof source.type === 'string' &&
      Array.isArray(branches) &&
      branches.some((b) => isNullBranch(b) || (typeof b?.type === 'string' && b.type !== source.type))
    )
      delete out.type;
  }
  if (source.nullable !== true) return out;
  if (Object.keys(out).length === 0) return { type: 'null' };
  if (typeof out.type === 'string' || Array.isArray(out.type)) {
    const types = Array.isArray(out.type) ? out.type : [out.type];
    out.type = types.includes('null') ? types : [...types, 'null'];
    if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
    return out;
  }
  if ('$ref' in out || 'allOf' in out || 'anyOf' in out || 'oneOf' in out) return { anyOf: [out, { type: 'null' }] };
  // nullable without a type or a composition: the schema already accepts null.
  return out;
}

/** `{nullable: true}` and nothing else: the null branch of a union. */
function isNullBranch(branch: Record<string, unknown> | undefined): boolean {
  return !!branch && branch.nullable === true && Object.keys(branch).length === 1;
}

export function createAjv(): Ajv {
  const ajv = new Ajv({
    allErrors: true,
    strict: true,
    strictTypes: false,
    strictTuples: false,
    strictRequired: false,
    allowUnionTypes: true,
  });
  addFormats(ajv, { mode: 'full' });
  ajv.addFormat('json', true);
  for (const api of Object.keys(apis) as ApiName[]) {
    const definitions = Object.fromEntries(Object.entries(apis[api].components.schemas).map(([name, s]) => [name, toJsonSchema(s, api)]));
    ajv.addSchema({ $id: schemaId(api), definitions });
  }
  return ajv;
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

export function referenceOperations(api: ApiName): ReferenceOperation[] {
  const result: ReferenceOperation[] = [];
  for (const [path, item] of Object.entries(apis[api].paths)) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      const statuses = Object.fromEntries(
        Object.entries(op.responses).map(([status, r]) => [status, { json: Boolean(r.content?.['application/json']?.schema) }]),
      );
      result.push({ api, operationId: op.operationId, method: method.toUpperCase(), path, statuses });
    }
  }
  return result;
}

/** How many operations each reference spec has (as counted when the file was written). */
export const referenceTotals: Record<ApiName, number> = { public: apis.public.operations, management: apis.management.operations };

/** /v1/users/{user_id} and /v1/users/{id} are the same route. */
export const routeKey = (method: string, path: string) => `${method.toUpperCase()} ${path.replace(/\{[^}]+\}/g, '{}')}`;

export interface Verdict {
  ok: boolean;
  problems: string[];
}

export class ResponseValidator {
  private readonly ajv = createAjv();
  private readonly compiled = new Map<string, ValidateFunction>();

  /** Validates a response (status, raw body text, content type) against the operation's reference. */
  check(op: ReferenceOperation, status: number, text: string, contentType: string | null): Verdict {
    const documented = op.statuses[String(status)];
    if (!documented)
      return { ok: false, problems: [`status ${status} is not one the reference documents (${Object.keys(op.statuses).join(', ')})`] };
    if (!documented.json) {
      return text.length === 0
        ? { ok: true, problems: [] }
        : { ok: false, problems: [`status ${status} has no body in the reference, got ${JSON.stringify(text.slice(0, 200))}`] };
    }
    if (!contentType?.startsWith('application/json'))
      return { ok: false, problems: [`content-type ${contentType} is not application/json`] };
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return { ok: false, problems: [`body is not JSON: ${text.slice(0, 200)}`] };
    }
    return this.validate(op, status, body);
  }

  /** Validates a parsed body against the schema of that operation and status. */
  validate(op: ReferenceOperation, status: number, body: unknown): Verdict {
    const validate = this.validatorFor(op, status);
    if (validate(body)) return { ok: true, problems: [] };
    return { ok: false, problems: describe(validate.errors ?? [], body) };
  }

  private validatorFor(op: ReferenceOperation, status: number): ValidateFunction {
    const key = `${op.api} ${op.method} ${op.path} ${status}`;
    let validate = this.compiled.get(key);
    if (!validate) {
      const raw = apis[op.api].paths[op.path][op.method.toLowerCase()].responses[String(status)].content!['application/json'].schema;
      validate = this.ajv.compile(toJsonSchema(raw, op.api) as object);
      this.compiled.set(key, validate);
    }
    return validate;
  }
}

/** ajv's errors, one line each, with the offending value; anyOf/oneOf branch noise kept short. */
function describe(errors: ErrorObject[], body: unknown): string[] {
  const lines = errors.map((e) => {
    const value = valueAt(body, e.instancePath);
    const shown = value === undefined ? '' : ` (got ${JSON.stringify(value)?.slice(0, 120)})`;
    return `${e.instancePath || '/'} ${e.message}${e.params && 'allowedValues' in e.params ? ` ${JSON.stringify(e.params.allowedValues)}` : ''}${shown}`;
  });
  return [...new Set(lines)].slice(0, 12);
}

function valueAt(body: unknown, pointer: string): unknown {
  let node = body;
  for (const part of pointer.split('/').slice(1)) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[part.replace(/~1/g, '/').replace(/~0/g, '~')];
  }
  return node;
}
