import { z } from 'zod';

export const FieldErrorSchema = z.object({ field: z.string(), message: z.string(), type: z.string().nullable() });

export const ErrorBody = z
  .object({
    code: z.string(),
    message: z.string(),
    status: z.number().int(),
    type: z.string(),
    errors: z.array(FieldErrorSchema).optional(),
  })
  .meta({ id: 'Error' });

export type ErrorBodyT = z.infer<typeof ErrorBody>;
