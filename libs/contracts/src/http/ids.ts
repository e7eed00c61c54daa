import { z } from 'zod';

export const ID_MAX_LENGTH = 255;

/** Control and format characters and lone surrogates (checked apart: the OpenAPI pattern cannot carry \p{...}). */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Cs}]/u;

/**
 * The one rule for the ids callers choose (users, objects and their collections, tenants,
 * preference sets, messages, runs as path parameters and wherever a body or query names one):
 * 1 to 255 characters, none of them whitespace, `/` (ids travel as path segments), a control
 * character, a format character (bidirectional overrides such as U+202E, zero-width joiners, byte
 * order marks: they make two different ids look alike) or an unpaired UTF-16 surrogate; and not
 * `.` or `..`. Anything else is allowed, emails and non-Latin scripts included. The reference
 * types ids as plain strings; ADR 0126 says why these limits.
 */
export const Id = z
  .string()
  .min(1, 'must not be empty')
  .max(ID_MAX_LENGTH, `must be at most ${ID_MAX_LENGTH} characters`)
  .regex(/^(?!\.{1,2}$)[^\s/]*$/, { message: 'must not be . or .., nor contain whitespace or slashes', abort: true })
  .refine(
    (id) => !INVISIBLE.test(id),
    'must not contain control or format characters (such as bidirectional overrides) or unpaired surrogates',
  );
