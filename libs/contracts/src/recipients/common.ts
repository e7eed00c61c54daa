import { z } from 'zod';

/** Ids of users, objects and tenants: any printable string up to 255 characters. */
export const RecipientId = z
  .string()
  .min(1, 'must not be empty')
  .max(255, 'must be at most 255 characters')
  .regex(/^[^\s/]+$/, 'must not contain whitespace or slashes');

export const IsoDateTime = z.iso.datetime({ offset: true });

const timeZones = new Set(Intl.supportedValuesOf('timeZone'));
export const TimeZone = z.string().refine((tz) => timeZones.has(tz) || tz === 'UTC' || tz === 'Etc/UTC', 'must be an IANA time zone such as America/New_York');
