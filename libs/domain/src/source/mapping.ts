import type { PlannedSourceActionT, SourceMappingT, SourceSettingsT } from '@notify/contracts';
import type { FieldError } from '../shared/errors';

/**
 * Mapping evaluation for inbound sources (ADR 0195). A received event is `{ body, headers }`;
 * settings name dot-notation paths into it (the event type, an idempotency key), and each active
 * mapping of the event's type turns it into an action whose parameters are read from it:
 * - `{{ body.user.id }}` alone: the value at that path, kept as is (a list stays a list);
 * - `$.body.user.id`: the same, as a JSON path;
 * - any other text with `{{` or `{%`: a Liquid template, rendered by the caller to a string;
 * - anything else: a literal. Objects and lists are evaluated member by member.
 */

export interface SourcePayload {
  body: unknown;
  headers: Record<string, string>;
}

export const DEFAULT_EVENT_TYPE_PATH = 'body.event';

/** Liquid rendering of one template against the event; supplied by the caller (the domain does no templating). */
export type RenderLiquid = (template: string) => string;

const SINGLE_OUTPUT = /^\{\{\s*([A-Za-z_$][\w$-]*(?:\.[\w$-]+|\[\d+\])*)\s*\}\}$/;
const IS_LIQUID = /\{\{|\{%/;

/** The value at a dot-notation or JSON path (`body.items[0].id`, `$.body.items.0.id`); undefined when absent. */
export function valueAt(root: unknown, path: string): unknown {
  const parts = path
    .replace(/^\$\.?/, '')
    .replace(/\[(\d+)\]/g, '.$1')
    .split('.')
    .filter((p) => p !== '');
  let current: unknown = root;
  for (const part of parts) {
    if (current === null || typeof current !== 'object') return undefined;
    if (!Object.prototype.hasOwnProperty.call(current, part)) return undefined;
    current = (current as Record<string, unknown>)[part];
  }
  return current;
}

const asText = (value: unknown): string | null =>
  typeof value === 'string' ? value : typeof value === 'number' || typeof value === 'boolean' ? String(value) : null;

export function eventTypeOf(settings: Pick<SourceSettingsT, 'event_type_path'>, payload: SourcePayload): string | null {
  return asText(valueAt(payload, settings.event_type_path ?? DEFAULT_EVENT_TYPE_PATH));
}

export function idempotencyKeyOf(settings: Pick<SourceSettingsT, 'idempotency_key_path'>, payload: SourcePayload): string | null {
  return settings.idempotency_key_path ? asText(valueAt(payload, settings.idempotency_key_path)) : null;
}

/** Every Liquid template among a mapping's parameters (single-output paths excluded): what the caller renders. */
export function liquidTemplatesOf(parameters: unknown): string[] {
  if (typeof parameters === 'string') return IS_LIQUID.test(parameters) && !SINGLE_OUTPUT.test(parameters.trim()) ? [parameters] : [];
  if (Array.isArray(parameters)) return parameters.flatMap(liquidTemplatesOf);
  if (parameters && typeof parameters === 'object') return Object.values(parameters).flatMap(liquidTemplatesOf);
  return [];
}

export function evaluateParameter(value: unknown, payload: SourcePayload, render: RenderLiquid): unknown {
  if (typeof value === 'string') {
    const single = SINGLE_OUTPUT.exec(value.trim());
    if (single) return valueAt(payload, single[1]);
    if (IS_LIQUID.test(value)) return render(value);
    if (value.startsWith('$.')) return valueAt(payload, value);
    return value;
  }
  if (Array.isArray(value)) return value.map((v) => evaluateParameter(v, payload, render));
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value)
        .map(([k, v]) => [k, evaluateParameter(v, payload, render)] as const)
        .filter(([, v]) => v !== undefined),
    );
  return value;
}

/** Action types this service runs; the others of the reference are refused when a mapping is saved. */
export const SUPPORTED_SOURCE_ACTIONS = ['workflows_trigger'] as const;

type MappingInput = Pick<SourceMappingT, 'event_type' | 'action_type'> & { action_parameters?: Record<string, unknown> | null };

/**
 * Structural problems of mappings as saved (field paths relative to the mappings list). Liquid
 * syntax is checked by the caller, which holds the template engine.
 */
export function mappingProblems(mappings: readonly MappingInput[], prefix = 'mappings'): FieldError[] {
  const problems: FieldError[] = [];
  mappings.forEach((m, i) => {
    const at = `${prefix}.${i}`;
    if (!(SUPPORTED_SOURCE_ACTIONS as readonly string[]).includes(m.action_type)) {
      problems.push({
        field: `${at}.action_type`,
        message: `${m.action_type} is not supported; use workflows_trigger`,
        type: 'unsupported',
      });
      return;
    }
    const p = m.action_parameters ?? {};
    if (typeof p.workflow !== 'string' || !/^[a-z0-9_-]{1,255}$/.test(p.workflow))
      problems.push({ field: `${at}.action_parameters.workflow`, message: 'must be the key of a workflow', type: 'required' });
    if (p.recipients === undefined || p.recipients === null || p.recipients === '')
      problems.push({
        field: `${at}.action_parameters.recipients`,
        message: 'is required: a path, a list or a Liquid template giving the recipients',
        type: 'required',
      });
    if (p.data !== undefined && p.data !== null && (typeof p.data !== 'object' || Array.isArray(p.data)) && typeof p.data !== 'string')
      problems.push({ field: `${at}.action_parameters.data`, message: 'must be an object of fields, or one path', type: 'type' });
    for (const field of ['actor', 'tenant', 'cancellation_key'] as const)
      if (p[field] !== undefined && p[field] !== null && typeof p[field] !== 'string' && typeof p[field] !== 'object')
        problems.push({ field: `${at}.action_parameters.${field}`, message: 'must be a path, a template or a value', type: 'type' });
  });
  return problems;
}

const isRecipient = (r: unknown): boolean =>
  (typeof r === 'string' && r.length > 0) ||
  (typeof r === 'number' && Number.isFinite(r)) ||
  (!!r && typeof r === 'object' && !Array.isArray(r) && typeof (r as { id?: unknown }).id === 'string');

function triggerPayload(parameters: Record<string, unknown>, payload: SourcePayload, render: RenderLiquid) {
  const errors: { field: string; message: string }[] = [];
  const evaluated = evaluateParameter(parameters, payload, render) as Record<string, unknown>;
  const raw = evaluated.recipients;
  const list = (Array.isArray(raw) ? raw : raw === undefined || raw === null || raw === '' ? [] : [raw]).map((r) =>
    typeof r === 'number' ? String(r) : r,
  );
  if (list.length === 0) errors.push({ field: 'recipients', message: 'the event gives no recipients at this path' });
  else if (!list.every(isRecipient)) errors.push({ field: 'recipients', message: 'each recipient must be an id or an object with an id' });
  const data = evaluated.data ?? {};
  if (typeof data !== 'object' || Array.isArray(data)) errors.push({ field: 'data', message: 'must evaluate to an object' });
  const body: Record<string, unknown> = { recipients: list, data: typeof data === 'object' && !Array.isArray(data) ? data : {} };
  for (const field of ['actor', 'tenant', 'cancellation_key'] as const) {
    const value = evaluated[field];
    if (value === undefined || value === null || value === '') continue;
    body[field] = typeof value === 'number' ? String(value) : value;
  }
  return { workflow: String(evaluated.workflow ?? parameters.workflow), body, errors };
}

/**
 * The actions an event produces: one per active mapping of its type, each with the payload it
 * would send (for a trigger: `{ workflow, body }` as the trigger endpoint takes it) and the
 * problems found evaluating it. `actionId` names each action (the caller derives it from the log id).
 */
export function planSourceActions(input: {
  mappings: readonly SourceMappingT[];
  eventType: string;
  payload: SourcePayload;
  render: RenderLiquid;
  actionId: (index: number) => string;
}): PlannedSourceActionT[] {
  return input.mappings.flatMap((mapping, index) => {
    if (!mapping.active || mapping.is_deleted || mapping.event_type !== input.eventType) return [];
    const parameters = mapping.action_parameters ?? {};
    const { workflow, body, errors } = triggerPayload(parameters, input.payload, input.render);
    return [
      {
        id: input.actionId(index),
        mapping_index: index,
        action_type: mapping.action_type,
        action_parameters: parameters,
        action_payload: { workflow, ...body },
        errors,
      },
    ];
  });
}

/** The first user an action addresses: the subject of the event's personal data (ADR 0180). */
export function firstUserOf(actions: readonly PlannedSourceActionT[]): string | null {
  for (const action of actions) {
    const recipients = (action.action_payload?.recipients ?? []) as unknown[];
    for (const r of recipients) {
      if (typeof r === 'string') return r;
      if (r && typeof r === 'object' && !('collection' in r) && typeof (r as { id?: unknown }).id === 'string')
        return (r as { id: string }).id;
    }
  }
  return null;
}
