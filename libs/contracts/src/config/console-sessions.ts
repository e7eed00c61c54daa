import { z } from 'zod';
import { defineEvent } from '../events/define-event';
import { defineRoute } from '../http/route';
import { MemberRole } from './members';

/**
 * Console sign-in for members (ADR 0210): `notify console login-link <email>` prints a one-time
 * link; the console exchanges its token for a signed, expiring, httpOnly session cookie.
 */

/** A login link was used: recorded once per link (a second use finds the stream and is refused). */
export const ConsoleLoginLinkRedeemed = defineEvent(
  'ConsoleLoginLinkRedeemed',
  1,
  z.object({ link_id: z.uuid(), member_id: z.uuid(), session_expires_at: z.string(), redeemed_at: z.string() }),
);
export const consoleSessionEventContracts = [ConsoleLoginLinkRedeemed] as const;

export const ConsoleRole = z.enum(['admin', 'editor', 'viewer']);

export const ConsoleSession = z
  .object({
    member: z.object({ id: z.uuid(), email: z.string(), name: z.string().nullable(), role: MemberRole }),
    /** What the role may do here: admin (everything), editor (no keys, security or members), viewer (read only). */
    console_role: ConsoleRole,
    expires_at: z.string(),
  })
  .meta({ id: 'ConsoleSession' });
export type ConsoleSessionT = z.infer<typeof ConsoleSession>;

export const createConsoleSessionRoute = defineRoute({
  operationId: 'createConsoleSession',
  method: 'POST',
  path: '/v1/console/session',
  summary: 'Sign in to the console with a one-time login link; sets the session cookie',
  tags: ['Console'],
  auth: 'none',
  rateTier: 2,
  body: z.object({ login_token: z.string().min(1).max(2048) }),
  response: ConsoleSession,
  status: 201,
});

export const getConsoleSessionRoute = defineRoute({
  operationId: 'getConsoleSession',
  method: 'GET',
  path: '/v1/console/session',
  summary: "The console session of the request's cookie",
  tags: ['Console'],
  auth: 'none',
  rateTier: 4,
  response: ConsoleSession,
});

export const deleteConsoleSessionRoute = defineRoute({
  operationId: 'deleteConsoleSession',
  method: 'DELETE',
  path: '/v1/console/session',
  summary: 'Sign out of the console: clears the session cookie',
  tags: ['Console'],
  auth: 'none',
  rateTier: 4,
  response: null,
});
