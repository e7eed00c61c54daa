export type ApiKeyKind = 'secret' | 'publishable';

export type EnvironmentCommand =
  | { type: 'CreateEnvironment'; slug: string; name: string; order: number; now: string }
  | { type: 'IssueApiKey'; keyId: string; kind: ApiKeyKind; keyHash: string; hint: string; name?: string; now: string }
  | { type: 'RevokeApiKey'; keyId: string; now: string }
  /** Issues `newKeyId` in the place of `keyId`, which keeps working until `expiresAt` (the overlap). */
  | { type: 'RotateApiKey'; keyId: string; newKeyId: string; keyHash: string; hint: string; expiresAt: string; now: string }
  /** `revokeOthers`: a rotation; every other active signing key stops verifying tokens. */
  | { type: 'CreateSigningKey'; signingKeyId: string; publicKey: string; revokeOthers: boolean; now: string }
  | { type: 'RevokeSigningKey'; signingKeyId: string; now: string }
  | { type: 'SetEnhancedSecurityMode'; enabled: boolean; now: string };

export type AccountCommand =
  | { type: 'IssueServiceToken'; tokenId: string; name: string; tokenHash: string; hint: string; now: string }
  | { type: 'RevokeServiceToken'; tokenId: string; now: string };
