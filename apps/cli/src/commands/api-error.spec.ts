import { apiErrorMessage } from './api-error';
import { ApiError } from './events';

describe('management API errors in the CLI', () => {
  it('name each offending field of a 422, with its message', () => {
    const body = {
      code: 'invalid_params',
      message: 'One or more parameters were invalid',
      status: 422,
      type: 'invalid_request_error',
      errors: [
        { field: 'since', message: 'Invalid ISO datetime', type: 'invalid_format' },
        { field: 'limit', message: 'Too small: expected number to be >=1', type: 'too_small' },
      ],
    };
    expect(new ApiError(422, body).message).toBe(
      '422: One or more parameters were invalid (since: Invalid ISO datetime; limit: Too small: expected number to be >=1)',
    );
  });

  it('keep the message alone when the answer names no field, and show an answer without a message whole', () => {
    expect(apiErrorMessage(404, { code: 'resource_missing', message: 'The message you requested does not exist' })).toBe(
      '404: The message you requested does not exist',
    );
    expect(apiErrorMessage(422, { message: 'Bad', errors: [{ message: 'no field' }] })).toBe('422: Bad');
    expect(apiErrorMessage(502, { oops: true })).toBe('502: {"oops":true}');
    expect(apiErrorMessage(500, undefined)).toBe('500: undefined');
  });
});
