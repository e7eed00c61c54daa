import { NotFoundException } from '@nestjs/common';
import { DomainError } from '@notify/domain';
import { committedRequests, EventStoreUnavailableError, WrongExpectedRevisionError } from '@notify/eventstore';
import { FastifyReply, FastifyRequest } from 'fastify';
import pino from 'pino';
import { Duplex } from 'node:stream';
import { answerClientError, ErrorFilter } from './error.filter';

function send(exception: unknown, request: Partial<FastifyRequest> = { id: 'r', method: 'GET', url: '/v1/x' }) {
  const sent: { status?: number; body?: any; headers: Record<string, string> } = { headers: {} };
  const reply = {
    status(code: number) {
      sent.status = code;
      return reply;
    },
    header(name: string, value: string) {
      sent.headers[name] = value;
      return reply;
    },
    send(body: unknown) {
      sent.body = body;
      return reply;
    },
  };
  new ErrorFilter(pino({ level: 'silent' })).send(exception, request as FastifyRequest, reply as unknown as FastifyReply);
  return sent;
}

const shape = { code: expect.any(String), message: expect.any(String), status: expect.any(Number), type: expect.any(String) };

describe('ErrorFilter', () => {
  it('answers a revision conflict that outlasted its retries with 409 in the error shape', () => {
    const res = send(new WrongExpectedRevisionError('user-dev-u1', 3, 4));
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ code: 'concurrent_modification', message: expect.any(String), status: 409, type: 'invalid_request_error' });
  });

  it('answers a database that cannot serve with 503 database_unavailable and retry-after, not 500', () => {
    for (const error of [
      new Error('timeout exceeded when trying to connect'),
      Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }),
      new EventStoreUnavailableError('EventStoreDB is unavailable: 14 UNAVAILABLE: No connection established'),
    ]) {
      const res = send(error);
      expect(res.status).toBe(503);
      expect(res.headers['retry-after']).toBe('1');
      expect(res.body).toEqual({ code: 'database_unavailable', message: expect.any(String), status: 503, type: 'api_error' });
    }
  });

  it('tells a client whose write had committed before the database failed not to repeat it', () => {
    const requestId = 'committed-before-failure';
    committedRequests.noteAppends([
      {
        events: [
          { id: 'e', type: 'WorkflowTriggered', data: {}, metadata: { environment: 'dev', schema_version: 1, request_id: requestId } },
        ],
      },
    ]);
    try {
      const res = send(new Error('Connection terminated unexpectedly'), { id: requestId, method: 'PUT', url: '/v1/users/u1' });
      expect(res.status).toBe(503);
      expect(res.headers).toEqual({ 'x-should-retry': 'false' });
      expect(res.body).toEqual({
        code: 'answer_unavailable',
        message: expect.stringContaining('recorded'),
        status: 503,
        type: 'api_error',
      });
    } finally {
      committedRequests.forget(requestId);
    }
  });

  it('answers an unrouted request with 404 in the error shape', () => {
    const res = send(new NotFoundException('Cannot GET /v1/nope'), { id: 'r', method: 'GET', url: '/v1/nope?x=1' });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({
      code: 'route_not_found',
      message: 'No route matches GET /v1/nope',
      status: 404,
      type: 'invalid_request_error',
    });
  });

  it.each([
    ['FST_ERR_BAD_URL', 400],
    ['FST_ERR_MAX_PARAM_LENGTH', 414],
    ['FST_ERR_CTP_INVALID_MEDIA_TYPE', 415],
    ['FST_ERR_CTP_EMPTY_JSON_BODY', 400],
    ['FST_ERR_SOMETHING_NEW', 400],
  ])('answers the framework error %s in the error shape, not its own', (code, statusCode) => {
    const res = send(Object.assign(new Error('framework says no'), { code, statusCode }));
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect(res.body).toEqual(shape);
    expect(res.body).not.toHaveProperty('statusCode');
  });

  it('answers a domain error with its kind and fields', () => {
    const res = send(new DomainError('invalid_params', 'bad', 'invalid_params', [{ field: 'name', message: 'no', type: 'x' }]));
    expect(res).toMatchObject({
      status: 422,
      body: { code: 'invalid_params', status: 422, type: 'invalid_request_error', errors: [{ field: 'name' }] },
    });
  });

  it('answers anything unexpected with a 500 in the error shape, without details', () => {
    const res = send(new TypeError('secret internals'));
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ code: 'internal_error', message: 'An internal error occurred', status: 500, type: 'api_error' });
  });

  it.each([
    ['HPE_INVALID_METHOD', 400, 'bad_request'],
    ['HPE_HEADER_OVERFLOW', 431, 'headers_too_large'],
    ['ERR_HTTP_REQUEST_TIMEOUT', 408, 'request_timeout'],
  ])('answers an HTTP parser error %s on the socket in the error shape', (code, status, errorCode) => {
    let written = '';
    const socket = {
      destroyed: false,
      writable: true,
      write(chunk: string) {
        written += chunk;
        return true;
      },
      destroy() {
        this.destroyed = true;
      },
    };
    answerClientError(Object.assign(new Error('parse error'), { code }), socket as unknown as Duplex);
    const [head, body] = written.split('\r\n\r\n');
    expect(head).toMatch(new RegExp(`^HTTP/1.1 ${status} `));
    expect(head).toContain(`Content-Length: ${Buffer.byteLength(body)}`);
    expect(JSON.parse(body)).toEqual({ code: errorCode, message: expect.any(String), status, type: 'invalid_request_error' });
    expect(socket.destroyed).toBe(true);
  });
});
