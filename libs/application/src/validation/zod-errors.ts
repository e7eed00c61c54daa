import { FieldError, invalidParams } from '@notify/domain';
import { z } from 'zod';

export function fieldErrors(error: z.ZodError): FieldError[] {
  const out: FieldError[] = [];
  for (const issue of error.issues) {
    const path = issue.path.map(String).join('.');
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys)
        out.push({ field: path ? `${path}.${key}` : key, message: 'is not a permitted field', type: 'unrecognized_key' });
    } else {
      out.push({ field: path || '(root)', message: issue.message, type: issue.code });
    }
  }
  return out;
}

export function parseOrThrow<T extends z.ZodType>(schema: T, value: unknown, prefix?: string): z.infer<T> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const errors = fieldErrors(result.error).map((e) => (prefix ? { ...e, field: `${prefix}.${e.field}` } : e));
  throw invalidParams(errors);
}
