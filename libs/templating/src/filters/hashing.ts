import { createHash, createHmac } from 'node:crypto';
import { TemplateFailure } from '../errors';
import { toOutputString } from '../safe-html';
import type { Filter } from './filter-types';

/** Hex digests of the value's text (`{{ recipient.id | md5 }}`). */
export const md5: Filter = (value) => createHash('md5').update(toOutputString(value)).digest('hex');

export const sha256: Filter = (value) => createHash('sha256').update(toOutputString(value)).digest('hex');

export const hmac_sha256: Filter = (value, key) => {
  if ((typeof key !== 'string' && typeof key !== 'number') || key === '') {
    throw new TemplateFailure('template_render', 'hmac_sha256 needs a key');
  }
  return createHmac('sha256', String(key)).update(toOutputString(value)).digest('hex');
};
