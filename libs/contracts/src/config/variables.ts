import { z } from 'zod';
import { defineEvent } from '../events/define-event';
import { defineRoute } from '../http/route';
import { EnvironmentQuery, MgmtPageQuery, mgmtListOf, readOnlyEcho } from './mgmt';
import { SecretValue } from './secrets';

export const VariableType = z.enum(['public', 'secret']);
export const VariableKey = z
  .string()
  .min(1)
  .max(255)
  .regex(/^[A-Za-z0-9_]+$/, 'must contain only letters, digits and _');

export const Variable = z
  .object({
    key: z.string(),
    type: VariableType,
    description: z.string().nullable().optional(),
    /** The value in the requested environment (the default unless it has its own); obfuscated when secret. */
    value: z.string().nullable(),
    environment_values: z.record(z.string(), z.string()).optional(),
    inserted_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'Variable' });

export const VariableRequest = z.strictObject({
  type: VariableType.optional(),
  description: z.string().max(280).nullable().optional(),
  value: z.string().max(10_000).nullable().optional(),
  /** Per-environment values; an environment without one uses `value`. null removes an environment's value. */
  environment_values: z.record(z.string().min(1).max(63), z.string().max(10_000).nullable()).optional(),
  key: z.string().optional(),
  ...readOnlyEcho,
});

/** Variables belong to the account; the values of secret ones are kept sealed in the log. */
export const VariableUpserted = defineEvent(
  'VariableUpserted',
  1,
  z.object({
    key: z.string(),
    type: VariableType,
    description: z.string().nullable(),
    value: SecretValue.nullable(),
    environment_values: z.record(z.string(), SecretValue),
    upserted_at: z.string(),
  }),
);

export const variableEventContracts = [VariableUpserted] as const;

const VariablePath = z.object({ key: VariableKey });

export const listVariablesRoute = defineRoute({
  operationId: 'listVariables',
  method: 'GET',
  path: '/v1/variables',
  summary: 'List variables with their values in an environment',
  tags: ['Variables'],
  auth: 'service',
  rateTier: 4,
  query: EnvironmentQuery.extend(MgmtPageQuery.shape).extend({ type: VariableType.optional() }),
  response: mgmtListOf(Variable).meta({ id: 'ListVariablesResponse' }),
});

export const getVariableRoute = defineRoute({
  operationId: 'getVariable',
  method: 'GET',
  path: '/v1/variables/{key}',
  summary: 'Get a variable with its value per environment',
  tags: ['Variables'],
  auth: 'service',
  rateTier: 4,
  scope: 'account',
  params: VariablePath,
  response: Variable,
});

export const upsertVariableRoute = defineRoute({
  operationId: 'upsertVariable',
  method: 'PUT',
  path: '/v1/variables/{key}',
  summary: 'Create or update a variable (default value and per-environment values)',
  tags: ['Variables'],
  auth: 'service',
  rateTier: 3,
  scope: 'account',
  params: VariablePath,
  body: z.object({ variable: VariableRequest }),
  response: z.object({ variable: Variable }),
});
