import { mailgunReceipts } from './mailgun';
import { postmarkReceipts } from './postmark';
import { resendReceipts } from './resend';
import { sendgridReceipts } from './sendgrid';
import { sesReceipts } from './ses';
import { twilioReceipts } from './twilio';
import type { ReceiptSource } from './types';

/**
 * Receipt formats by id, the id the receipt endpoint names. A provider added later registers its
 * own (`register`); ids match provider ids where the provider exists (resend, twilio).
 */
export class ReceiptSourceRegistry {
  private readonly sources = new Map<string, ReceiptSource>();

  constructor(sources: Iterable<ReceiptSource> = []) {
    for (const source of sources) this.register(source);
  }

  register(source: ReceiptSource): this {
    if (this.sources.has(source.id)) throw new Error(`a receipt source with id ${source.id} is already registered`);
    this.sources.set(source.id, source);
    return this;
  }

  get(id: string): ReceiptSource | undefined {
    return this.sources.get(id);
  }

  list(): ReceiptSource[] {
    return [...this.sources.values()];
  }
}

export const BUILT_IN_RECEIPT_SOURCES: readonly ReceiptSource[] = [
  sendgridReceipts,
  sesReceipts,
  postmarkReceipts,
  mailgunReceipts,
  resendReceipts,
  twilioReceipts,
];

export const defaultReceiptSources = () => new ReceiptSourceRegistry(BUILT_IN_RECEIPT_SOURCES);
