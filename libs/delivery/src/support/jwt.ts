import { createPrivateKey, sign, type KeyObject } from 'node:crypto';

export type JwtAlgorithm = 'RS256' | 'ES256';

const base64url = (value: string | Buffer) => Buffer.from(value).toString('base64url');

/**
 * A compact JWS. RS256 is RSASSA-PKCS1-v1_5 with SHA-256; ES256 is ECDSA P-256 with SHA-256,
 * whose signature JWS wants as the 64-byte r||s pair (RFC 7518 3.4), not DER.
 */
export function signJwt(
  algorithm: JwtAlgorithm,
  header: Record<string, unknown>,
  claims: Record<string, unknown>,
  privateKey: string | KeyObject,
): string {
  const key = typeof privateKey === 'string' ? createPrivateKey(normalizePem(privateKey)) : privateKey;
  const input = `${base64url(JSON.stringify({ alg: algorithm, typ: 'JWT', ...header }))}.${base64url(JSON.stringify(claims))}`;
  const signature =
    algorithm === 'ES256'
      ? sign('sha256', Buffer.from(input), { key, dsaEncoding: 'ieee-p1363' })
      : sign('sha256', Buffer.from(input), key);
  return `${input}.${base64url(signature)}`;
}

/** PEM keys pasted into settings often arrive with literal `\n` sequences instead of newlines. */
export function normalizePem(pem: string): string {
  return pem.includes('\\n') ? pem.replace(/\\n/g, '\n') : pem;
}

/** Why a PEM cannot sign for `algorithm` (RS256: an RSA key; ES256: a P-256 key), or undefined when it can. */
export function signingKeyProblem(algorithm: JwtAlgorithm, pem: string): string | undefined {
  let key: KeyObject;
  try {
    key = createPrivateKey(normalizePem(pem));
  } catch {
    return 'is not a PEM private key';
  }
  if (algorithm === 'RS256' && key.asymmetricKeyType !== 'rsa') return `is a ${key.asymmetricKeyType} key, not RSA`;
  if (algorithm === 'ES256' && (key.asymmetricKeyType !== 'ec' || key.asymmetricKeyDetails?.namedCurve !== 'prime256v1'))
    return 'is not a P-256 (ES256) key';
  return undefined;
}
