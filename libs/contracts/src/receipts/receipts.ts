import { z } from 'zod';
import { defineEvent } from '../events/define-event';
import { listOf, PageQuery } from '../http/pagination';
import { defineRoute } from '../http/route';

/**
 * Delivery receipts (ADR 0203): what an email, SMS or push provider reports about a message after
 * it was handed over, received on an inbound webhook per provider and channel. And the
 * per-environment suppression list that hard bounces and complaints feed (ADR 0204).
 */

export const SUPPRESSION_REASONS = ['hard_bounce', 'complaint', 'manual'] as const;

const suppressionData = z.object({
  /** Lower-cased email address (or E.164 number). */
  address: z.string(),
  /** The user whose message bounced, when known: the subject the address belongs to. */
  user_id: z.string().nullable(),
  at: z.string(),
});

export const AddressSuppressed = defineEvent(
  'AddressSuppressed',
  1,
  suppressionData.extend({
    reason: z.enum(SUPPRESSION_REASONS),
    /** The message and provider that reported it; null for an entry added over the API. */
    message_id: z.uuid().nullable(),
    source: z.string().nullable(),
    detail: z.string().nullable(),
  }),
  { personal: { subject: (d) => d.user_id, fields: ['address', 'detail'] } },
);

export const AddressUnsuppressed = defineEvent('AddressUnsuppressed', 1, suppressionData, {
  personal: { subject: (d) => d.user_id, fields: ['address'] },
});

export const suppressionEventContracts = [AddressSuppressed, AddressUnsuppressed] as const;

// Routes.

export const ReceiptSource = z.string().regex(/^[a-z0-9_-]{1,40}$/, 'is not a receipt source id');

export const ReceiptResponse = z.object({
  /** Provider events recorded by this request. */
  recorded: z.number().int(),
  /** Already recorded before (a replay). */
  duplicates: z.number().int(),
  /** About no message this service sent through this channel, or of a kind not tracked. */
  ignored: z.number().int(),
});

export const receiptRoutes = {
  receive: defineRoute({
    operationId: 'receiveDeliveryReceipt',
    method: 'POST',
    path: '/v1/receipts/{environment}/{channel_key}/{source}',
    summary: "Receive a provider's delivery events (webhook) for a channel; authenticated by the provider's signature",
    tags: ['Receipts'],
    // The provider's signature, checked with the channel's settings, authenticates (ADR 0203).
    auth: 'none',
    rateTier: 5,
    rawBody: true,
    formBody: true,
    params: z.object({ environment: z.string().min(1).max(63), channel_key: z.string().min(1).max(255), source: ReceiptSource }),
    body: z.unknown(),
    status: 200,
    response: ReceiptResponse,
  }),
};

export const Suppression = z
  .object({
    __typename: z.literal('Suppression'),
    address: z.string(),
    reason: z.enum(SUPPRESSION_REASONS),
    message_id: z.uuid().nullable(),
    source: z.string().nullable(),
    detail: z.string().nullable(),
    inserted_at: z.string(),
  })
  .meta({ id: 'Suppression' });
export type SuppressionT = z.infer<typeof Suppression>;

const Address = z
  .string()
  .min(3)
  .max(320)
  .transform((s) => s.trim().toLowerCase());

/**
 * What email and SMS steps are checked against: an email address (`local@domain`), or a phone
 * number as users' `phone_number` holds it (digits, an optional leading `+`, spaces, dots,
 * dashes, parentheses). Anything else could never match a message, so adding it is refused.
 */
const SUPPRESSIBLE = /^(?:[^\s@<>]+@[^\s@<>]+|\+?[\d\s().-]*\d[\d\s().-]*)$/;
const NewAddress = Address.refine((s) => SUPPRESSIBLE.test(s) && (s.includes('@') || (s.match(/\d/g)?.length ?? 0) >= 3), {
  message: 'must be an email address or a phone number',
});

export const suppressionRoutes = {
  list: defineRoute({
    operationId: 'listSuppressions',
    method: 'GET',
    path: '/v1/suppressions',
    summary: "List the environment's suppressed addresses (hard bounces, complaints, manual entries)",
    tags: ['Suppressions'],
    auth: 'secret',
    rateTier: 3,
    query: PageQuery.extend({ reason: z.enum(SUPPRESSION_REASONS).optional() }),
    response: listOf(Suppression),
  }),
  add: defineRoute({
    operationId: 'addSuppression',
    method: 'PUT',
    path: '/v1/suppressions/{address}',
    summary: 'Suppress an address: later messages to it are skipped',
    tags: ['Suppressions'],
    auth: 'secret',
    rateTier: 2,
    params: z.object({ address: NewAddress }),
    body: z.object({ detail: z.string().max(1000).nullable().optional() }).optional(),
    response: Suppression,
  }),
  remove: defineRoute({
    operationId: 'removeSuppression',
    method: 'DELETE',
    path: '/v1/suppressions/{address}',
    summary: 'Remove an address from the suppression list',
    tags: ['Suppressions'],
    auth: 'secret',
    rateTier: 2,
    params: z.object({ address: Address }),
    response: null,
  }),
};
