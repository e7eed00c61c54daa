import { SigningKey } from '@notify/contracts';
import { SigningKeyRecord } from '@notify/projections/environments';
import { z } from 'zod';

export function presentSigningKey(environment: string, key: SigningKeyRecord): z.input<typeof SigningKey> {
  return {
    id: key.id,
    environment,
    algorithm: key.algorithm,
    public_key: key.publicKey,
    created_at: key.createdAt.toISOString(),
    revoked_at: key.revokedAt?.toISOString() ?? null,
  };
}
