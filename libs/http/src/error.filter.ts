import { ArgumentsHost, Catch, ExceptionFilter, HttpException, NotFoundException } from '@nestjs/common';
import { ErrorBodyT } from '@notify/contracts';
import { isDatabaseUnavailable } from '@notify/database';
import { DomainError, ErrorKind } from '@notify/domain';
import { committedRequests, WrongExpectedRevisionError } from '@notify/eventstore';
import { FastifyReply, FastifyRequest } from 'fastify';
import { STATUS_CODES } from 'node:http';
import { Duplex } from 'node:stream';
import { Logger } from 'pino';
import { RateLimitedError } from './rate-limit.guard';

const KIND: Record<ErrorKind, { status: number; type: string }> = {
  invalid_params: { status: 422, type: 'invalid_request_error' },
  invalid_request: { status: 400, type: 'invalid_request_error' },
  not_found: { status: 404, type: 'invalid_request_error' },
  conflict: { status: 409, type: 'invalid_request_error' },
  unauthenticated: { status: 401, type: 'authentication_error' },
  forbidden: { status: 403, type: 'authentication_error' },
  rate_limited: { status: 429, type: 'rate_limit_error' },
  payload_too_large: { status: 413, type: 'invalid_request_error' },
  unsupported_media_type: { status: 415, type: 'invalid_request_error' },
  unavailable: { status: 503, type: 'api_error' },
};

/** Errors raised by Fastify itself before a handler runs (routing, body parsing, content types). */
function fromFastify(error: { code?: string; statusCode?: number; message: string }): DomainError | undefined {
  switch (error.code) {
    case 'FST_ERR_BAD_URL':
      return new DomainError('invalid_url', 'The request path is not validly percent-encoded', 'invalid_request');
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return new DomainError('invalid_url', 'A path segment of the request is too long', 'invalid_request');
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new DomainError('payload_too_large', 'The request body is larger than the server accepts', 'payload_too_large');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new DomainError('unsupported_media_type', 'Send request bodies as application/json', 'unsupported_media_type');
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new DomainError('invalid_content_length', 'The Content-Length header does not match the body', 'invalid_request');
  }
  if (error instanceof SyntaxError || error.code === 'FST_ERR_CTP_INVALID_JSON_BODY') {
    return new DomainError('invalid_json', `The request body is not valid JSON: ${error.message}`, 'invalid_request');
  }
  // Any other request error of the framework: its message, in our shape (never a 500).
  if (error.code?.startsWith('FST_') && error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
    return new DomainError('bad_request', error.message, 'invalid_request');
  }
  return undefined;
}

/** Seconds a client is told to wait before repeating a request the database could not serve. */
export const DATABASE_RETRY_AFTER_SECONDS = 1;

/** A 503: the service cannot serve the request now. Says whether, and after how long, to repeat it. */
export class UnavailableError extends DomainError {
  constructor(
    code: string,
    message: string,
    /** `retry-after`; undefined when the request must not simply be repeated. */
    readonly retryAfterSeconds: number | undefined,
  ) {
    super(code, message, 'unavailable');
  }
}

/**
 * Conditions of the infrastructure that callers can act on. A database that cannot serve (down,
 * restarting, no pool connection in time) is a 503 either way; what the caller may do depends on
 * whether this request's write had committed before it failed (ADR 0135):
 * - not yet (the usual case: the write is a request's last database step but for reads that
 *   show it): nothing was written, `retry-after` says when to repeat it;
 * - already (a read composing the answer failed): the write stands, and repeating the request
 *   could record it twice, so no `retry-after` and `x-should-retry: false`.
 */
function fromStore(error: unknown, requestId: string): DomainError | undefined {
  // A command lost its revision race every time it was decided again (handleCommand retries it):
  // nothing was written, the caller may retry.
  if (error instanceof WrongExpectedRevisionError) {
    return new DomainError('concurrent_modification', 'The resource was changed by concurrent requests; retry the request', 'conflict');
  }
  if (isDatabaseUnavailable(error)) {
    if (committedRequests.has(requestId)) {
      return new UnavailableError(
        'answer_unavailable',
        'The change was recorded, but the database became unavailable before the answer could be read; read the resource instead of repeating the request',
        undefined,
      );
    }
    return new UnavailableError(
      'database_unavailable',
      'The database is unavailable; nothing was recorded, retry after the time in the retry-after header',
      DATABASE_RETRY_AFTER_SECONDS,
    );
  }
  return undefined;
}

/** Nest raises NotFoundException for a request no route matches. */
function routeNotFound(request: FastifyRequest): DomainError {
  const path = (request.url ?? '').split('?')[0];
  return new DomainError(
    'route_not_found',
    `No route matches ${request.method} ${path.length > 200 ? `${path.slice(0, 200)}...` : path}`,
    'not_found',
  );
}

function fromHttpException(exception: HttpException): DomainError {
  const status = exception.getStatus();
  if (status === 413)
    return new DomainError('payload_too_large', 'The request body is larger than the server accepts', 'payload_too_large');
  if (status === 415) return new DomainError('unsupported_media_type', 'Send request bodies as application/json', 'unsupported_media_type');
  if (status === 400 && /JSON|Unexpected|token/i.test(exception.message)) {
    return new DomainError('invalid_json', `The request body is not valid JSON: ${exception.message}`, 'invalid_request');
  }
  return new DomainError(
    status === 405 ? 'method_not_allowed' : 'bad_request',
    exception.message,
    status >= 500 ? 'unavailable' : 'invalid_request',
  );
}

export function errorBody(error: DomainError): { status: number; body: ErrorBodyT } {
  const { status, type } = KIND[error.kind];
  const body: ErrorBodyT = { code: error.code, message: error.message, status, type };
  if (error.fields.length) body.errors = error.fields;
  return { status, body };
}

/** The one place errors become HTTP responses. */
@Catch()
export class ErrorFilter implements ExceptionFilter {
  constructor(private readonly logger: Logger) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    this.send(exception, http.getRequest<FastifyRequest>(), http.getResponse<FastifyReply>());
  }

  send(exception: unknown, request: FastifyRequest, reply: FastifyReply): void {
    let domain =
      exception instanceof DomainError ? exception : (fromStore(exception, String(request.id)) ?? fromFastify(exception as Error));
    // Our handlers never throw Nest's NotFoundException, so this one comes from the router.
    if (!domain && exception instanceof NotFoundException) domain = routeNotFound(request);
    // Nest hands Fastify's own errors (raised before a route runs) over as HttpExceptions.
    if (!domain && exception instanceof HttpException) domain = fromHttpException(exception);
    if (!domain) {
      this.logger.error({ err: exception, reqId: request.id, url: request.url }, 'unhandled error');
      void reply.status(500).send({ code: 'internal_error', message: 'An internal error occurred', status: 500, type: 'api_error' });
      return;
    }
    if (domain instanceof RateLimitedError) void reply.header('retry-after', String(domain.retryAfterSeconds));
    if (domain instanceof UnavailableError) {
      if (domain.retryAfterSeconds !== undefined) void reply.header('retry-after', String(domain.retryAfterSeconds));
      // The official clients repeat 5xx answers unless told not to (x-should-retry).
      else void reply.header('x-should-retry', 'false');
      this.logger.warn({ err: exception, reqId: request.id, url: request.url, code: domain.code }, 'database unavailable');
    }
    const { status, body } = errorBody(domain);
    void reply.status(status).send(body);
  }
}

/**
 * Requests Node's HTTP parser refuses before there is a request at all (not HTTP, headers over
 * the size limit, a client too slow to send them): answered on the socket, in the error shape.
 */
export function answerClientError(error: Error & { code?: string }, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, code, message] =
    error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? [408, 'request_timeout', 'The request was not received in time']
      : error.code === 'HPE_HEADER_OVERFLOW'
        ? [431, 'headers_too_large', 'The request line and headers are larger than the server accepts']
        : [400, 'bad_request', 'The request is not valid HTTP'];
  const body = JSON.stringify({ code, message, status, type: 'invalid_request_error' } satisfies ErrorBodyT);
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nConnection: close\r\nContent-Length: ${Buffer.byteLength(body)}\r\nContent-Type: application/json; charset=utf-8\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}
