import Ajv from 'ajv';
import Ajv2019 from 'ajv/dist/2019';
import Ajv2020 from 'ajv/dist/2020';

const options = { strict: false, allErrors: true, validateFormats: false } as const;
const draft07 = new Ajv(options);
const draft2019 = new Ajv2019(options);
const draft2020 = new Ajv2020(options);

/**
 * Problems that make `schema` unusable as a JSON Schema: it must satisfy its meta-schema and
 * compile (references resolve). Draft 2019-09 and 2020-12 are used when `$schema` names them.
 */
export function jsonSchemaProblems(schema: unknown): string[] {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return ['must be a JSON Schema object'];
  const declared = String((schema as { $schema?: unknown }).$schema ?? '');
  const ajv = declared.includes('2020-12') ? draft2020 : declared.includes('2019-09') ? draft2019 : draft07;
  try {
    if (!ajv.validateSchema(schema)) return (ajv.errors ?? []).map((e) => `${e.instancePath || '(root)'} ${e.message ?? 'is invalid'}`);
    ajv.compile(schema);
    return [];
  } catch (error) {
    return [(error as Error).message];
  } finally {
    // Compiled schemas are cached by $id; drop them so one workflow's schema never shadows another's.
    const id = (schema as { $id?: unknown }).$id;
    if (typeof id === 'string') ajv.removeSchema(id);
  }
}

/** A validator for data against a workflow's trigger data schema, in the schema's own draft. */
export function compileJsonSchema(schema: Record<string, unknown>): (data: unknown) => {
  valid: boolean;
  errors: { instancePath: string; keyword: string; message?: string; params: Record<string, unknown> }[];
} {
  const declared = String(schema.$schema ?? '');
  const ajv = declared.includes('2020-12') ? draft2020 : declared.includes('2019-09') ? draft2019 : draft07;
  const { $id: _id, ...anonymous } = schema;
  const validate = ajv.compile(anonymous);
  return (data) => (validate(data) ? { valid: true, errors: [] } : { valid: false, errors: (validate.errors ?? []) as never });
}
