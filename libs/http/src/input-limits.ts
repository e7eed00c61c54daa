import { DomainError, FieldError, invalidParams } from '@notify/domain';
import { FastifyInstance, FastifyRequest } from 'fastify';

/** A route without a body schema reads no body: anything larger than this is refused unread. */
export const NO_BODY_LIMIT_BYTES = 16 * 1024;

/** What the Endpoint decorator records on each route (Fastify route config) for the body parser. */
export interface RouteBodyConfig {
  notifyBody?: { limit?: number; hasBody: boolean; form?: boolean; raw?: boolean; stream?: 'ndjson' | 'binary' };
}

/**
 * How deeply a JSON text nests objects and arrays, counted in one pass over the text without
 * recursion or parsing; stops counting once past `max`. Brackets inside strings do not count.
 */
export function jsonDepthExceeds(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > max) return true;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return false;
}

/** In a `u` expression a surrogate without its pair is a code point of its own, category Cs. */
const LONE_SURROGATE = /\p{Cs}/u;

/** NUL and lone surrogates: neither can be stored as Postgres text or jsonb. */
function problem(s: string): string | undefined {
  const nul = s.includes('\u0000');
  if (!nul && !LONE_SURROGATE.test(s)) return undefined;
  return nul ? 'must not contain the NUL character (U+0000)' : 'must not contain an unpaired UTF-16 surrogate (invalid Unicode)';
}

/** A path segment as an error can name it: the characters refused are shown escaped. */
const printable = (segment: string) => segment.replace(/\p{Cc}|\p{Cs}/gu, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

/**
 * Every string (and object key) in a parsed value that the database cannot store, with its path
 * in the field notation of validation errors (`recipients.0.name`). Walks with an explicit stack,
 * so the depth of the value costs no call stack. At most `max` findings.
 */
export function unstorableStrings(value: unknown, max = 20): FieldError[] {
  // Paths are linked from child to parent and spelled out only for a finding: copying them at
  // every level would cost depth squared.
  type Path = { key: string; parent: Path | undefined } | undefined;
  const found: FieldError[] = [];
  const stack: { value: unknown; path: Path }[] = [{ value, path: undefined }];
  const report = (path: Path, message: string) => {
    const keys: string[] = [];
    for (let p = path; p; p = p.parent) keys.push(printable(p.key));
    found.push({ field: keys.length ? keys.reverse().join('.') : '(root)', message, type: 'invalid_string' });
  };
  while (stack.length && found.length < max) {
    const { value: v, path } = stack.pop()!;
    if (typeof v === 'string') {
      const message = problem(v);
      if (message) report(path, message);
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push({ value: v[i], path: { key: String(i), parent: path } });
    } else if (v !== null && typeof v === 'object') {
      const entries = Object.entries(v);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, child] = entries[i];
        const message = problem(key);
        if (message) report({ key, parent: path }, `(the key) ${message}`);
        else stack.push({ value: child, path: { key, parent: path } });
      }
    }
  }
  return found;
}

export interface InputLimits {
  /** Largest body of a route that reads one (BODY_LIMIT_BYTES); routes may declare a smaller one. */
  bodyLimitBytes: number;
  /** Deepest nesting of objects and arrays accepted in a JSON body (BODY_MAX_DEPTH). */
  maxDepth: number;
}

const tooLarge = (limit: number) =>
  new DomainError('payload_too_large', `The request body is larger than this endpoint accepts (${limit} bytes)`, 'payload_too_large');

/**
 * Refuses, before anything recursive touches it, input the service cannot handle: JSON bodies
 * over the route's size or nesting limit (checked on the text, before parsing), and strings in
 * path parameters, query or body that Postgres cannot store. Every refusal is a DomainError, so
 * it reaches the client in the API's error shape; nothing has run yet, so nothing was written.
 */
export function refuseUnusableInput(fastify: FastifyInstance, limits: InputLimits): void {
  const parseJson = fastify.getDefaultJsonParser('error', 'error');
  fastify.removeContentTypeParser('application/json');
  fastify.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, raw, done) => {
    const bytes = raw as Buffer;
    // Some clients send DELETE requests with a JSON content type and no body.
    if (bytes.length === 0) return done(null, undefined);
    const limit = routeBodyLimit(request, limits);
    if (bytes.length > limit) return done(tooLarge(limit), undefined);
    const text = bytes.toString('utf8');
    keepRawBody(request, text);
    if (jsonDepthExceeds(text, limits.maxDepth)) {
      return done(
        invalidParams(
          [{ field: '(root)', message: `nests objects and arrays deeper than ${limits.maxDepth} levels`, type: 'too_deep' }],
          'The request body nests too deeply',
        ),
        undefined,
      );
    }
    parseJson(request, text, done);
  });
  // HTML forms: the hosted preference page, and one-click unsubscribe POSTs (RFC 8058), which mail
  // providers send urlencoded or as multipart/form-data. A field sent twice keeps its last value.
  // Only routes that declare `form` read them; the others answer 415 as for any other type.
  const form = (parse: (text: string) => Record<string, string>) => (request: FastifyRequest, raw: Buffer, done: ParserDone) => {
    if (!(request.routeOptions.config as RouteBodyConfig | undefined)?.notifyBody?.form)
      return done(
        new DomainError('unsupported_media_type', 'Send request bodies as application/json', 'unsupported_media_type'),
        undefined,
      );
    const limit = routeBodyLimit(request, limits);
    if (raw.length > limit) return done(tooLarge(limit), undefined);
    const text = raw.toString('utf8');
    keepRawBody(request, text);
    done(null, parse(text));
  };
  fastify.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'buffer' },
    form((text) => Object.fromEntries(new URLSearchParams(text))),
  );
  fastify.addContentTypeParser('multipart/form-data', { parseAs: 'buffer' }, form(multipartFields));
  // JSON lines, for the routes that read their body as a stream (the log import): the request
  // itself is the body, read by the handler as it arrives. Other routes answer 415.
  fastify.addContentTypeParser(['application/x-ndjson', 'application/jsonl'], (request, payload, done) => {
    if (!(request.routeOptions.config as RouteBodyConfig | undefined)?.notifyBody?.stream)
      return done(
        new DomainError('unsupported_media_type', 'Send request bodies as application/json', 'unsupported_media_type'),
        undefined,
      );
    done(null, payload);
  });

  // Files, for the routes that read a file's bytes as they arrive (asset uploads), whatever
  // content type names the file: the type is kept aside (`fileContentTypeOf`) and the body reaches
  // the parser below as octet-stream, so JSON, form and text files are not parsed. Others: 415.
  fastify.addHook('onRequest', async (request) => {
    if ((request.routeOptions.config as RouteBodyConfig | undefined)?.notifyBody?.stream !== 'binary') return;
    (request as FileBodyRequest).fileContentType = request.headers['content-type'];
    request.headers['content-type'] = 'application/octet-stream';
  });
  fastify.addContentTypeParser('*', (request, payload, done) => {
    if ((request.routeOptions.config as RouteBodyConfig | undefined)?.notifyBody?.stream !== 'binary')
      return done(new DomainError('unsupported_media_type', 'Send request bodies as application/json', 'invalid_request'), undefined);
    done(null, payload);
  });

  // Text bodies, for the routes that keep raw bodies only (Amazon SNS posts its JSON as text/plain).
  fastify.addContentTypeParser('text/plain', { parseAs: 'buffer' }, (request, raw, done) => {
    if (!(request.routeOptions.config as RouteBodyConfig | undefined)?.notifyBody?.raw)
      return done(
        new DomainError('unsupported_media_type', 'Send request bodies as application/json', 'unsupported_media_type'),
        undefined,
      );
    const bytes = raw as Buffer;
    const limit = routeBodyLimit(request, limits);
    if (bytes.length > limit) return done(tooLarge(limit), undefined);
    const text = bytes.toString('utf8');
    keepRawBody(request, text);
    if (jsonDepthExceeds(text, limits.maxDepth)) return done(null, text);
    try {
      done(null, JSON.parse(text));
    } catch {
      done(null, text);
    }
  });

  fastify.addHook('preValidation', async (request) => {
    const streamed = (request.routeOptions.config as RouteBodyConfig | undefined)?.notifyBody?.stream;
    const errors = [
      ...unstorableStrings(request.params),
      ...unstorableStrings(request.query),
      ...(streamed ? [] : unstorableStrings(request.body)),
    ];
    if (errors.length) throw invalidParams(errors.slice(0, 20));
  });
}

/** The body's text, as received, on the routes that ask for it (signature checks); see `rawBodyOf`. */
function keepRawBody(request: FastifyRequest, text: string): void {
  if ((request.routeOptions.config as RouteBodyConfig | undefined)?.notifyBody?.raw) (request as RawBodyRequest).rawBody = text;
}

type RawBodyRequest = FastifyRequest & { rawBody?: string };

type FileBodyRequest = FastifyRequest & { fileContentType?: string };

/** The Content-Type the client sent, on routes whose body is a file (`stream: 'binary'`). */
export function fileContentTypeOf(request: FastifyRequest): string | undefined {
  return (request as FileBodyRequest).fileContentType;
}

/** The text of the request's body as received, on routes declared with `rawBody` (else undefined). */
export function rawBodyOf(request: FastifyRequest): string | undefined {
  return (request as RawBodyRequest).rawBody;
}

function routeBodyLimit(request: FastifyRequest, limits: InputLimits): number {
  const declared = (request.routeOptions.config as RouteBodyConfig | undefined)?.notifyBody;
  if (!declared) return limits.bodyLimitBytes;
  return Math.min(limits.bodyLimitBytes, declared.limit ?? (declared.hasBody ? limits.bodyLimitBytes : NO_BODY_LIMIT_BYTES));
}

type ParserDone = (error: Error | null, body: unknown) => void;

/** The plain text fields of a multipart/form-data body (files are not read). */
function multipartFields(text: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const part of text.split(/\r?\n--/)) {
    const [head, ...rest] = part.split(/\r?\n\r?\n/);
    const name = /content-disposition:[^\n]*\bname="([^"]*)"/i.exec(head ?? '')?.[1];
    if (!name || /filename=/i.test(head)) continue;
    fields[name] = rest.join('\n\n').replace(/\r?\n$/, '');
  }
  return fields;
}
