import { createHash } from 'node:crypto';

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));
const namespaces = new Map<string, Buffer>();

/**
 * A name-based (version 5, SHA-1) UUID, the same value `uuid`'s `v5(name, namespace)` gives: the
 * engine and the schedule firer derive several ids per run from what they are about (crash-safe
 * re-appends), and `uuid` spent most of its time turning the name into bytes by hand. Here the
 * name goes to the hash as UTF-8 directly and the namespace's bytes are kept.
 */
export function nameUuid(name: string, namespace: string): string {
  let ns = namespaces.get(namespace);
  if (!ns) {
    ns = Buffer.from(namespace.replace(/-/g, ''), 'hex');
    if (ns.length !== 16) throw new TypeError(`not a UUID: ${namespace}`);
    namespaces.set(namespace, ns);
  }
  const b = createHash('sha1').update(ns).update(name, 'utf8').digest();
  b[6] = (b[6] & 0x0f) | 0x50;
  b[8] = (b[8] & 0x3f) | 0x80;
  return (
    HEX[b[0]] +
    HEX[b[1]] +
    HEX[b[2]] +
    HEX[b[3]] +
    '-' +
    HEX[b[4]] +
    HEX[b[5]] +
    '-' +
    HEX[b[6]] +
    HEX[b[7]] +
    '-' +
    HEX[b[8]] +
    HEX[b[9]] +
    '-' +
    HEX[b[10]] +
    HEX[b[11]] +
    HEX[b[12]] +
    HEX[b[13]] +
    HEX[b[14]] +
    HEX[b[15]]
  );
}
