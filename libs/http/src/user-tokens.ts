import { DomainError } from '@notify/domain';
import { decodeProtectedHeader, errors, importSPKI, jwtVerify } from 'jose';

/** What an environment says about user tokens: whether they are required, and the keys that verify them. */
export interface UserTokenPolicy {
  enhancedSecurityMode: boolean;
  signingKeys: readonly { id: string; publicKey: string }[];
}

export const USER_TOKEN_HEADERS = ['x-knock-user-token', 'x-service-user-token'] as const;

export const missingUserToken = () =>
  new DomainError(
    'missing_user_token',
    'This environment requires a signed user token in the X-Knock-User-Token header',
    'unauthenticated',
  );
export const invalidUserToken = (reason: string) =>
  new DomainError('invalid_user_token', `The user token is not valid: ${reason}`, 'unauthenticated');
export const incorrectTokenType = () =>
  new DomainError(
    'incorrect_token_type',
    'The user token must be a JWT signed with RS256 by a signing key of this environment',
    'unauthenticated',
  );
export const missingSigningKey = () =>
  new DomainError(
    'missing_jwt_signing_key',
    'This environment has no signing key to verify user tokens; create one first',
    'unauthenticated',
  );

type PublicKey = Awaited<ReturnType<typeof importSPKI>>;
const imported = new Map<string, Promise<PublicKey>>();

function importKey(id: string, pem: string): Promise<PublicKey> {
  let key = imported.get(id);
  if (!key) {
    key = importSPKI(pem, 'RS256');
    imported.set(id, key);
  }
  return key;
}

/**
 * Verifies a user token against an environment's active signing keys and returns the user id
 * (`sub`). A token signed by another environment's key fails the signature check like any
 * forgery. `exp` is required: a browser token that never expires cannot be taken back.
 */
export async function verifyUserToken(token: string, policy: UserTokenPolicy, now?: () => number): Promise<string> {
  return (await verifyUserTokenClaims(token, policy, now)).userId;
}

/**
 * As verifyUserToken, with the time (epoch ms) the token stops being valid. `now` (epoch ms) is
 * the clock `exp` and `nbf` are checked against; tests pass a fixed one.
 */
export async function verifyUserTokenClaims(
  token: string,
  policy: UserTokenPolicy,
  now: () => number = Date.now,
): Promise<{ userId: string; expiresAt: number }> {
  let header: ReturnType<typeof decodeProtectedHeader>;
  try {
    header = decodeProtectedHeader(token);
  } catch {
    throw incorrectTokenType();
  }
  if (token.split('.').length !== 3 || header.alg !== 'RS256' || (header.typ !== undefined && header.typ.toUpperCase() !== 'JWT'))
    throw incorrectTokenType();
  if (policy.signingKeys.length === 0) throw missingSigningKey();
  const candidates = header.kid ? policy.signingKeys.filter((k) => k.id === header.kid) : policy.signingKeys;
  let expired = false;
  for (const candidate of candidates) {
    try {
      const { payload } = await jwtVerify(token, await importKey(candidate.id, candidate.publicKey), {
        algorithms: ['RS256'],
        clockTolerance: 5,
        currentDate: new Date(now()),
        requiredClaims: ['sub', 'exp'],
      });
      if (typeof payload.sub !== 'string' || payload.sub === '') throw invalidUserToken('the sub claim must be the user id');
      return { userId: payload.sub, expiresAt: payload.exp! * 1000 };
    } catch (error) {
      if (error instanceof DomainError) throw error;
      if (error instanceof errors.JWTExpired) expired = true;
      else if (error instanceof errors.JWTClaimValidationFailed) throw invalidUserToken(error.message);
      else if (!(error instanceof errors.JWSSignatureVerificationFailed)) throw invalidUserToken('it cannot be read as a signed JWT');
    }
  }
  throw invalidUserToken(expired ? 'it has expired' : 'its signature does not match a signing key of this environment');
}

/** The user token sent with a request, from either header name the clients use. */
export function userTokenOf(headers: Record<string, string | string[] | undefined>): string | undefined {
  for (const name of USER_TOKEN_HEADERS) {
    const value = headers[name];
    const token = Array.isArray(value) ? value[0] : value;
    if (token && token.trim() !== '') return token.trim();
  }
  return undefined;
}
