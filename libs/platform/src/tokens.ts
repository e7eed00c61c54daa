export const DATABASE = Symbol('DATABASE');
export const EVENT_STORE = Symbol('EVENT_STORE');
/** The workflow engine's reads (EngineLookups over the read models). */
export const ENGINE_LOOKUPS = Symbol('ENGINE_LOOKUPS');
/** The process's shared tail of the log (SharedLogReader), read by projections and reactors. */
export const LOG_READER = Symbol('LOG_READER');
/** The LinkTracker when LINK_TRACKING_ENABLED, else null. */
export const LINK_TRACKER = Symbol('LINK_TRACKER');
/** PreferenceLinks: signed links to the hosted preference page and one-click unsubscribe. */
export const PREFERENCE_LINKS = Symbol('PREFERENCE_LINKS');

/** The process's OpenTelemetry tracing, or undefined when no exporter endpoint is set. */
export const TRACING = Symbol('TRACING');
/** The one OutboundHttp client (address policy from OUTBOUND_ALLOWED_ADDRESSES) every outbound call goes through. */
export const OUTBOUND_HTTP = Symbol('OUTBOUND_HTTP');
/** The TemplateRenderer for untrusted templates at send time: an IsolatedRenderer unless TEMPLATE_WORKER_THREADS is 0. */
export const TEMPLATE_RENDERER = Symbol('TEMPLATE_RENDERER');
/**
 * The process's clock (a `() => Date`): when triggers are accepted, when the worker's timers fire
 * and by what time runs are decided (ADR 0274). The system clock, except in tests that move it.
 */
export const CLOCK = Symbol('CLOCK');
export type Clock = () => Date;
