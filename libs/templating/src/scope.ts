import type { TemplateContext } from './types';

function text(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}

/** The top-level variables of a render, Knock's names, with the defaults the engine fills in. */
export function toScope(context: TemplateContext): Record<string, unknown> {
  const recipient = context.recipient ?? null;
  const activities = context.activities ?? [];
  const actors = context.actors ?? [];
  return {
    recipient,
    actor: context.actor ?? null,
    tenant: context.tenant ?? null,
    data: context.data ?? {},
    vars: context.vars ?? {},
    workflow: context.workflow ?? null,
    activities,
    actors,
    total_activities: context.total_activities ?? activities.length,
    total_actors: context.total_actors ?? actors.length,
    timezone: text(context.timezone) ?? text(recipient?.timezone),
    locale: text(context.locale) ?? text(recipient?.locale),
    timestamp: context.timestamp ?? null,
    current_message: context.current_message ?? null,
    preferences_url: context.preferences_url ?? null,
  };
}
