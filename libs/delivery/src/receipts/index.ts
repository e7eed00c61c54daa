export * from './types';
export * from './registry';
export { normaliseProviderMessageId } from './support';
export { sendgridReceipts, sendgridPublicKey, SENDGRID_SIGNATURE_HEADER, SENDGRID_TIMESTAMP_HEADER } from './sendgrid';
export { sesReceipts, snsStringToSign, snsCertificateAllowed, snsOriginAllowed, DEFAULT_SNS_CERTIFICATE_ORIGINS } from './ses';
export { postmarkReceipts } from './postmark';
export { mailgunReceipts, mailgunSignature } from './mailgun';
export { resendReceipts, svixSignature } from './resend';
export { twilioReceipts, twilioSignature } from './twilio';
