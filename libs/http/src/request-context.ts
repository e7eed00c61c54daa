import { FastifyRequest } from 'fastify';

/** `member`: a console member's signed session (ADR 0210); its id is the member id. */
export type CredentialKind = 'secret' | 'publishable' | 'service' | 'member';

/** What every handler knows about the caller, set by the auth guard. */
export interface RequestContext {
  requestId: string;
  /** Environment slug every read and write of this request is scoped to. */
  environment: string;
  credential: { kind: CredentialKind; id: string };
  /** Set when a signed user token accompanies a publishable key: the only user the call may reach. */
  userId?: string;
  /** Publishable-key calls: the user they act for (the token's, or the one named); rate limits count per this user. */
  subjectUserId?: string;
  /**
   * Where configuration (workflows) stood when the request's key was read, in the same statement
   * (rm_config_version, ADR 0217): a workflow cached under this version is the one committed.
   * Absent when unknown; then nothing cached is used.
   */
  configVersion?: string;
  /** The request span's W3C trace context, carried into the metadata of the events it appends. */
  trace?: { traceparent?: string; tracestate?: string };
}

declare module 'fastify' {
  interface FastifyRequest {
    ctx?: RequestContext;
  }
}

export function contextOf(request: FastifyRequest): RequestContext {
  if (!request.ctx) throw new Error('Request context missing: route has no auth guard applied');
  return request.ctx;
}
