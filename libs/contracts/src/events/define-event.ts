import { z } from 'zod';

/**
 * Which parts of an event's data are personal (ADR 0180): the subject they belong to, and the
 * dotted paths of the fields that hold them. Personal fields are sealed with the subject's key
 * and read as erased once that key is destroyed.
 */
export interface PersonalData<Data = unknown> {
  /**
   * The data subject (a user id) the personal fields belong to; null when the event has none (an object
   * recipient). `stream`: the subject an earlier event of the same stream named (a message's recipient).
   */
  readonly subject: ((data: Data) => string | null) | 'stream';
  /** Dotted paths into the data, e.g. `properties`, `recipient_snapshot`, `content`. */
  readonly fields: readonly string[];
}

/** A versioned event contract: its type tag, the schema version of its data, and the schema. */
export interface EventContract<Type extends string = string, Schema extends z.ZodType = z.ZodType> {
  readonly type: Type;
  readonly version: number;
  readonly data: Schema;
  /** Declared once here; absent when the event carries no personal data. */
  readonly personal?: PersonalData<z.infer<Schema>>;
}

export function defineEvent<Type extends string, Schema extends z.ZodType>(
  type: Type,
  version: number,
  data: Schema,
  options: { personal?: PersonalData<z.infer<Schema>> } = {},
): EventContract<Type, Schema> {
  return options.personal ? { type, version, data, personal: options.personal } : { type, version, data };
}

/** The domain's view of an event contract: `{ type, data }` with the inferred data type. */
export type EventOf<C extends EventContract> = { readonly type: C['type']; readonly data: z.infer<C['data']> };
