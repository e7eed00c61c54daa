import { z } from 'zod';
import { Id } from '../http/ids';

/** Ids of users, objects and tenants: the API's one id rule. */
export const RecipientId = Id;

export const IsoDateTime = z.iso.datetime({ offset: true });

const timeZones = new Set(Intl.supportedValuesOf('timeZone'));
export const TimeZone = z
  .string()
  .refine((tz) => timeZones.has(tz) || tz === 'UTC' || tz === 'Etc/UTC', 'must be an IANA time zone such as America/New_York');
