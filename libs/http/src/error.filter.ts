import { ArgumentsHost, Catch, ExceptionFilter, HttpException, NotFoundException } from '@nestjs/common';
import { ErrorBodyT } from '@notify/contracts';
import { DomainError, ErrorKind } from '@notify/domain';
import { WrongExpectedRevisionError } from '@notify/eventstore';
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
      return new DomainError('unsupported_media_type', 'Send request bodies as application/json', 'invalid_request');
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

/** Conditions of the infrastructure that callers can act on. */
function fromStore(error: unknown): DomainError | undefined {
  // A command lost its revision race every time it was decided again (handleCommand retries it):
  // nothing was written, the caller may retry.
  if (error instanceof WrongExpectedRevisionError) {
    return new DomainError('concurrent_modification', 'The resource was changed by concurrent requests; retry the request', 'conflict');
  }
  return undefined;
}

/** Nest raises NotFoundException for a request no route matches. */
function routeNotFound(request: FastifyRequest): DomainError {
  const path = (request.url ?? '').split('?')[0];
  return new DomainError('route_not_found', `No route matches ${request.method} ${path.length > 200 ? `${path.slice(0, 200)}...` : path}`, 'not_found');
}

function fromHttpException(exception: HttpException): DomainError {
  const status = exception.getStatus();
  if (status === 413) return new DomainError('payload_too_large', 'The request body is larger than the server accepts', 'payload_too_large');
  if (status === 415) return new DomainError('unsupported_media_type', 'Send request bodies as application/json', 'invalid_request');
  if (status === 400 && /JSON|Unexpected|token/i.test(exception.message)) {
    return new DomainError('invalid_json', `The request body is not valid JSON: ${exception.message}`, 'invalid_request');
  }
  return new DomainError(status === 405 ? 'method_not_allowed' : 'bad_request', exception.message, status >= 500 ? 'unavailable' : 'invalid_request');
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
    let domain = exception instanceof DomainError ? exception : (fromStore(exception) ?? fromFastify(exception as Error));
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
    socket.write(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nConnection: close\r\nContent-Length: ${Buffer.byteLength(body)}\r\nContent-Type: application/json; charset=utf-8\r\n\r\n${body}`);
  }
  socket.destroy(error);
}
