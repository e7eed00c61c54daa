import { redactValue } from '@notify/application';
import { VariableRecord } from '@notify/projections/variables';

/** A variable as the management API shows it: secret values obfuscated; `value` is the one `environment` sees. */
export function presentVariable(v: VariableRecord, environment?: string) {
  const value = environment ? (v.environmentValues[environment] ?? v.value) : v.value;
  return {
    key: v.key,
    type: v.type,
    description: v.description,
    value: redactValue(value),
    environment_values: Object.fromEntries(Object.entries(v.environmentValues).map(([env, val]) => [env, redactValue(val) as string])),
    inserted_at: v.insertedAt.toISOString(),
    updated_at: v.updatedAt.toISOString(),
  };
}
