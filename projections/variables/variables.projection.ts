import { VariableUpserted } from '@notify/contracts';
import { defineProjection } from '@notify/projection-runtime';

export const variablesProjection = defineProjection({
  name: 'variables',
  version: 1,
  tables: ['rm_variables'],
  events: [VariableUpserted],
  on: {
    async VariableUpserted({ data: d }, tx) {
      await tx.query(
        `INSERT INTO rm_variables (key, type, description, value, environment_values, inserted_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $6)
         ON CONFLICT (key) DO UPDATE SET type = EXCLUDED.type, description = EXCLUDED.description, value = EXCLUDED.value,
           environment_values = EXCLUDED.environment_values, updated_at = EXCLUDED.updated_at`,
        [d.key, d.type, d.description, JSON.stringify(d.value), JSON.stringify(d.environment_values), d.upserted_at],
      );
    },
  },
});
