import { z } from 'zod';

/** A versioned event contract: its type tag, the schema version of its data, and the schema. */
export interface EventContract<Type extends string = string, Schema extends z.ZodType = z.ZodType> {
  readonly type: Type;
  readonly version: number;
  readonly data: Schema;
}

export function defineEvent<Type extends string, Schema extends z.ZodType>(
  type: Type,
  version: number,
  data: Schema,
): EventContract<Type, Schema> {
  return { type, version, data };
}

/** The domain's view of an event contract: `{ type, data }` with the inferred data type. */
export type EventOf<C extends EventContract> = { readonly type: C['type']; readonly data: z.infer<C['data']> };
