import { generateKeyPairSync, KeyObject, sign, X509Certificate } from 'node:crypto';

/**
 * A self-signed X.509 certificate made with Node's crypto alone (it parses certificates but does
 * not make them): the DER of a minimal v1 certificate, signed sha256WithRSAEncryption. For test
 * peers that stand in for a provider's signing certificate (Amazon SNS).
 */
export function selfSignedCertificate(commonName = 'sns.test'): { privateKey: KeyObject; pem: string } {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const sha256WithRsa = seq(oid([1, 2, 840, 113549, 1, 1, 11]), Buffer.from([0x05, 0x00]));
  const name = seq(set(seq(oid([2, 5, 4, 3]), tlv(0x0c, Buffer.from(commonName, 'utf8')))));
  const now = Date.now();
  const validity = seq(utcTime(new Date(now - 86_400_000)), utcTime(new Date(now + 86_400_000 * 365)));
  const spki = publicKey.export({ type: 'spki', format: 'der' });
  const tbs = seq(tlv(0x02, Buffer.from([0x01])), sha256WithRsa, name, validity, name, spki);
  const signature = sign('sha256', tbs, privateKey);
  const der = seq(tbs, sha256WithRsa, tlv(0x03, Buffer.concat([Buffer.from([0x00]), signature])));
  const pem = `-----BEGIN CERTIFICATE-----\n${der
    .toString('base64')
    .match(/.{1,64}/g)!
    .join('\n')}\n-----END CERTIFICATE-----\n`;
  new X509Certificate(pem); // throws if the encoding is wrong
  return { privateKey, pem };
}

function tlv(tag: number, value: Buffer): Buffer {
  const n = value.length;
  const length =
    n < 0x80 ? Buffer.from([n]) : n < 0x100 ? Buffer.from([0x81, n]) : n < 0x10000 ? Buffer.from([0x82, n >> 8, n & 0xff]) : undefined;
  if (!length) throw new Error('value too long');
  return Buffer.concat([Buffer.from([tag]), length, value]);
}

const seq = (...parts: Buffer[]) => tlv(0x30, Buffer.concat(parts));
const set = (...parts: Buffer[]) => tlv(0x31, Buffer.concat(parts));

function oid(arcs: number[]): Buffer {
  const bytes = [40 * arcs[0] + arcs[1]];
  for (const arc of arcs.slice(2)) {
    const chunk = [arc & 0x7f];
    for (let v = arc >> 7; v > 0; v >>= 7) chunk.unshift((v & 0x7f) | 0x80);
    bytes.push(...chunk);
  }
  return tlv(0x06, Buffer.from(bytes));
}

function utcTime(d: Date): Buffer {
  const p = (n: number) => String(n).padStart(2, '0');
  const text = `${p(d.getUTCFullYear() % 100)}${p(d.getUTCMonth() + 1)}${p(d.getUTCDate())}${p(d.getUTCHours())}${p(d.getUTCMinutes())}${p(d.getUTCSeconds())}Z`;
  return tlv(0x17, Buffer.from(text, 'ascii'));
}
