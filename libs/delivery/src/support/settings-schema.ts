import { z } from 'zod';

/** One problem with a provider's settings: the setting's path (`api_key`, `auth.pass`) and what is wrong. */
export interface SettingsIssue {
  field: string;
  message: string;
}

/** A `{{ vars.name }}` reference, resolved at delivery: accepted wherever a string is. */
const isVariableReference = (value: string) => /\{\{.*\}\}/s.test(value);

/** A required non-blank string setting (a credential, an id). */
export const text = () => z.string({ error: 'is required' }).trim().min(1, 'is required');

/** An absolute http(s) URL, or a variable reference. */
export const url = () =>
  z
    .string({ error: 'must be a URL' })
    .trim()
    .refine((value) => isVariableReference(value) || /^https?:\/\/[^\s/]+/i.test(value), 'must be an absolute http(s) URL');

/** Settings every provider takes: its API origin (tests, proxies, regions) and a request deadline. */
export const commonSettings = {
  base_url: url().optional(),
  timeout_ms: z.number({ error: 'must be a number of milliseconds' }).int().min(1).max(3_600_000).optional(),
};

/**
 * A provider's settings schema: the common settings and the provider's own. Unknown keys are
 * kept (a channel's settings also hold the channel-level ones, such as an email `from_address`).
 */
export const settingsSchema = <S extends z.ZodRawShape>(shape: S) => z.looseObject({ ...commonSettings, ...shape });

/** The issues of a settings object against a schema, by setting path. */
export function settingsIssues(schema: z.ZodType, settings: Record<string, unknown>): SettingsIssue[] {
  const parsed = schema.safeParse(settings);
  if (parsed.success) return [];
  return parsed.error.issues.map((issue) => ({
    field: issue.path.map(String).join('.'),
    message: issue.code === 'invalid_type' && issue.input === undefined ? 'is required' : issue.message,
  }));
}

/** Issues as the sentences `validateSettings` answers. */
export const issueSentences = (issues: SettingsIssue[]) => issues.map((i) => (i.field ? `${i.field} ${i.message}` : i.message));
