import { z } from 'zod';

/**
 * Who may call a route:
 * - secret: an environment's secret key (sk_)
 * - public: a secret key, or a publishable key (pk_) for the calls the browser client makes
 * - service: a service token of the management API; the environment comes from the query
 * - none: no credentials (health, OpenAPI document)
 */
export type RouteAuth = 'secret' | 'public' | 'service' | 'none';

/**
 * Public routes name the user a browser call is about, so that a signed user token reaches only
 * its own user's data: the auth guard compares these request values (path params, query or body
 * fields, a string or a list of strings) with the token's user. `handler` marks a route whose
 * handler scopes by `ctx.userId` itself (e.g. messages addressed by id).
 */
export type UserScope = { params?: string[]; query?: string[]; body?: string[] } | 'handler';
export type RateTier = 1 | 2 | 3 | 4 | 5;
export type HttpMethod = 'GET' | 'PUT' | 'POST' | 'DELETE' | 'PATCH';

export interface RouteContract<
  Params extends z.ZodType = z.ZodType,
  Query extends z.ZodType = z.ZodType,
  Body extends z.ZodType = z.ZodType,
  Response extends z.ZodType | null = z.ZodType | null,
> {
  operationId: string;
  method: HttpMethod;
  /** OpenAPI form: /v1/users/{user_id} */
  path: string;
  summary: string;
  tags: string[];
  auth: RouteAuth;
  /**
   * Service routes only: 'environment' (the default) requires `?environment=`; 'account' routes
   * act on account-wide resources (channels, variables, commits by id) and take none.
   */
  scope?: 'environment' | 'account';
  /**
   * Service routes only: a request without `?environment=` acts on the first environment (where
   * configuration is edited) instead of being refused. For a client that drops the query string:
   * the Knock CLI's audience push sends none (ADR 0157).
   */
  environmentDefault?: 'first';
  /** Required on public routes (a unit test checks it); see UserScope. */
  userScope?: UserScope;
  rateTier?: RateTier;
  params?: Params;
  query?: Query;
  body?: Body;
  /**
   * Largest request body this route reads, in bytes, when below the service-wide BODY_LIMIT_BYTES.
   * Routes without a body schema read none and refuse more than 16 KiB unread.
   */
  bodyLimit?: number;
  /** Also reads HTML form bodies (urlencoded, multipart text fields); other routes answer them 415. */
  formBody?: boolean;
  /**
   * Keeps the body's text as received (`request.rawBody`) for signature checks, and also reads
   * `text/plain` bodies (Amazon SNS posts JSON as text/plain).
   */
  rawBody?: boolean;
  /**
   * Reads the body as a stream of JSON lines (`application/x-ndjson`, the log import) or of a
   * file's bytes in any other content type (`binary`, asset uploads), handed to the handler unread
   * and without the JSON size limit (the handler enforces its own); `body` is then not used.
   */
  streamBody?: 'ndjson' | 'binary';
  /** null for an empty (204) response. */
  response: Response;
  status?: number;
  /** Other content types the route answers with (the OpenAPI YAML document). */
  produces?: string;
  /**
   * Honours an `Idempotency-Key` header: a repeat within 24 hours answers the first 2xx response
   * again (ADR 0093). Applied by the api's `@IdempotentRoute()` (ADR 0238).
   */
  idempotent?: boolean;
  /**
   * What a console member's session needs to call it (ADR 0210): 'read' (any role), 'write'
   * (editors and admins), 'admin' (owners and admins). Unset: 'read' for GET, 'write' otherwise.
   * Service tokens and API keys are not affected.
   */
  access?: 'read' | 'write' | 'admin';
}

type Inferred<S, Absent> = S extends z.ZodNever ? Absent : S extends z.ZodType ? z.infer<S> : Absent;

export type RouteInput<R> =
  R extends RouteContract<infer P, infer Q, infer B, infer _Res>
    ? { params: Inferred<P, Record<string, never>>; query: Inferred<Q, Record<string, never>>; body: Inferred<B, undefined> }
    : never;

export type RouteOutput<R extends RouteContract> = R['response'] extends z.ZodType ? z.input<R['response']> : void;

const routes: RouteContract[] = [];

/** Declares a route once: Nest routing, validation, auth, rate tier and OpenAPI all read it. */
export function defineRoute<
  Params extends z.ZodType = z.ZodNever,
  Query extends z.ZodType = z.ZodNever,
  Body extends z.ZodType = z.ZodNever,
  Response extends z.ZodType | null = null,
>(route: RouteContract<Params, Query, Body, Response>): RouteContract<Params, Query, Body, Response> {
  if (routes.some((r) => r.operationId === route.operationId)) throw new Error(`operationId ${route.operationId} defined twice`);
  routes.push(route as unknown as RouteContract);
  return route;
}

export function allRoutes(): readonly RouteContract[] {
  return routes;
}

/** /v1/users/{user_id} -> /v1/users/:user_id */
export function nestPath(path: string): string {
  return path.replace(/\{([^}]+)\}/g, ':$1');
}

/** Version of the HTTP API described by the OpenAPI document (not of the package). */
export const API_VERSION = '1.0.0';
