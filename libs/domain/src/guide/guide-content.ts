import type { FieldError } from '../shared/errors';

/** A field of a message type variant, as the message type declares it. */
export interface MessageTypeField {
  type: string;
  key: string;
  settings?: Record<string, unknown>;
}

export interface MessageTypeSchema {
  semver: string;
  variants: { key: string; fields: MessageTypeField[] }[];
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** What a value of each field type must be; a type this service does not know takes any value. */
const VALUE_CHECKS: Record<string, { expected: string; ok: (v: unknown) => boolean }> = {
  text: { expected: 'a string', ok: (v) => typeof v === 'string' },
  textarea: { expected: 'a string', ok: (v) => typeof v === 'string' },
  markdown: { expected: 'a string', ok: (v) => typeof v === 'string' },
  url: { expected: 'a string', ok: (v) => typeof v === 'string' },
  select: { expected: 'a string', ok: (v) => typeof v === 'string' },
  multi_select: { expected: 'a list of strings', ok: (v) => Array.isArray(v) && v.every((x) => typeof x === 'string') },
  boolean: { expected: 'a boolean', ok: (v) => typeof v === 'boolean' },
  number: { expected: 'a number', ok: (v) => typeof v === 'number' && Number.isFinite(v) },
  image: { expected: 'an object', ok: isObject },
  button: { expected: 'an object', ok: isObject },
  json: { expected: 'any JSON value', ok: () => true },
};

function selectOptions(field: MessageTypeField): string[] | undefined {
  const options = field.settings?.options;
  if (!Array.isArray(options)) return undefined;
  const values = options.map((o) => (isObject(o) ? o.value : o)).filter((o): o is string => typeof o === 'string');
  return values.length ? values : undefined;
}

/**
 * Checks one guide step's values against its message type's variant: every value must be a
 * declared field of the right type, and required fields must be there (ADR 0186). `path` prefixes
 * the fields of the errors, e.g. `guide.steps.0`.
 */
export function checkGuideStepValues(
  step: { schema_key: string; schema_variant_key: string; values: Record<string, unknown> },
  messageType: MessageTypeSchema | undefined,
  path: string,
): FieldError[] {
  if (!messageType) return [{ field: `${path}.schema_key`, message: `no message type ${step.schema_key} exists`, type: 'reference' }];
  const variant = messageType.variants.find((v) => v.key === step.schema_variant_key);
  if (!variant)
    return [
      {
        field: `${path}.schema_variant_key`,
        message: `message type ${step.schema_key} has no variant ${step.schema_variant_key}`,
        type: 'reference',
      },
    ];
  const errors: FieldError[] = [];
  const fields = new Map(variant.fields.map((f) => [f.key, f]));
  for (const [key, value] of Object.entries(step.values)) {
    const field = fields.get(key);
    if (!field) {
      errors.push({
        field: `${path}.values.${key}`,
        message: `is not a field of ${step.schema_key}.${variant.key}`,
        type: 'unknown_field',
      });
      continue;
    }
    if (value === null) continue;
    const check = VALUE_CHECKS[field.type];
    if (check && !check.ok(value)) {
      errors.push({ field: `${path}.values.${key}`, message: `must be ${check.expected} (a ${field.type} field)`, type: 'type' });
      continue;
    }
    const options = field.type === 'select' || field.type === 'multi_select' ? selectOptions(field) : undefined;
    const chosen = Array.isArray(value) ? value : [value];
    if (options && chosen.some((c) => !options.includes(c as string)))
      errors.push({ field: `${path}.values.${key}`, message: `must be one of ${options.join(', ')}`, type: 'option' });
  }
  for (const field of variant.fields) {
    const missing = step.values[field.key] === undefined || step.values[field.key] === null || step.values[field.key] === '';
    if (field.settings?.required === true && missing)
      errors.push({ field: `${path}.values.${field.key}`, message: 'is required', type: 'required' });
  }
  return errors;
}
