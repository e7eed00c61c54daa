/** The key arrives hashed (sha256, hex): keys are caller secrets of up to 255 characters. */
export const idempotencyStream = (environment: string, keyHash: string) => `idempotency-${environment}-${keyHash}`;
