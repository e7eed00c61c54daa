import { randomBytes, randomUUID } from 'node:crypto';
import { v5 } from 'uuid';
import { uuidV5 } from './uuid-v5';

describe('uuidV5', () => {
  it("gives the uuid package's v5 for any name and namespace", () => {
    const namespaces = ['7c0a3f52-1d6e-4b8a-9f3c-5e2d1a0b9c8d', randomUUID(), randomUUID().toUpperCase()];
    const names = [
      '',
      'run:abc:u1',
      'é ü 漢字 🚀',
      'a'.repeat(10_000),
      ...Array.from({ length: 200 }, () => randomBytes(24).toString('base64')),
    ];
    for (const namespace of namespaces) for (const name of names) expect(uuidV5(name, namespace)).toBe(v5(name, namespace));
  });

  it('matches the RFC 9562 example (the DNS namespace, www.example.com)', () => {
    expect(uuidV5('www.example.com', '6ba7b810-9dad-11d1-80b4-00c04fd430c8')).toBe('2ed6657d-e927-568b-95e1-2665a8aea6a2');
  });

  it('refuses a namespace that is not a uuid', () => {
    expect(() => uuidV5('x', 'not-a-uuid')).toThrow(/Not a uuid/);
  });
});
