import { generateKeyPairSync, verify } from 'node:crypto';
import { normalizePem, signJwt } from './jwt';

const decode = (part: string) => JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));

describe('signJwt', () => {
  it('signs RS256 so that the RSA public key verifies it', () => {
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const jwt = signJwt('RS256', { kid: 'k1' }, { iss: 'a@b', iat: 1 }, privateKey.export({ type: 'pkcs8', format: 'pem' }).toString());
    const [header, claims, signature] = jwt.split('.');
    expect(decode(header)).toEqual({ alg: 'RS256', typ: 'JWT', kid: 'k1' });
    expect(decode(claims)).toEqual({ iss: 'a@b', iat: 1 });
    expect(verify('sha256', Buffer.from(`${header}.${claims}`), publicKey, Buffer.from(signature, 'base64url'))).toBe(true);
    expect(verify('sha256', Buffer.from(`${header}.${claims}x`), publicKey, Buffer.from(signature, 'base64url'))).toBe(false);
  });

  it('signs ES256 as a 64-byte r||s pair that the P-256 public key verifies', () => {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const jwt = signJwt('ES256', { kid: 'ABC123' }, { iss: 'TEAM', iat: 2 }, privateKey);
    const [header, claims, signature] = jwt.split('.');
    const raw = Buffer.from(signature, 'base64url');
    expect(raw).toHaveLength(64);
    expect(decode(header).alg).toBe('ES256');
    expect(verify('sha256', Buffer.from(`${header}.${claims}`), { key: publicKey, dsaEncoding: 'ieee-p1363' }, raw)).toBe(true);
  });

  it('reads PEM keys whose newlines were pasted as \\n', () => {
    expect(normalizePem('-----BEGIN X-----\\nAAAA\\n-----END X-----')).toBe('-----BEGIN X-----\nAAAA\n-----END X-----');
  });
});
