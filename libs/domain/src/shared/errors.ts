/**
 * Errors carry a stable machine code and a kind; the HTTP layer maps the kind to a status and
 * error type, so domain and application code never know about HTTP.
 */
export type ErrorKind =
  | 'invalid_params'
  | 'invalid_request'
  | 'not_found'
  | 'conflict'
  | 'unauthenticated'
  | 'forbidden'
  | 'rate_limited'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'unavailable';

export interface FieldError {
  field: string;
  message: string;
  type: string | null;
}

export class DomainError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly kind: ErrorKind = 'invalid_request',
    readonly fields: FieldError[] = [],
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

export const invalidParams = (fields: FieldError[], message = 'One or more parameters were invalid') =>
  new DomainError('invalid_params', message, 'invalid_params', fields);

export const resourceMissing = (what = 'resource') =>
  new DomainError('resource_missing', `The ${what} you requested does not exist`, 'not_found');
