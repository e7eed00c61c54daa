import { v5 as uuidv5 } from 'uuid';
import { nameUuid } from './name-uuid';

describe('nameUuid', () => {
  const namespaces = [
    '7c0a3f52-1d6e-4b8a-9f3c-5e2d1a0b9c8d',
    '4f0b7a8e-6c1d-4e2f-9a3b-8d7c6b5a4e31',
    '6ba7b810-9dad-11d1-80b4-00c04fd430c8',
  ];
  const names = [
    '',
    'run:4f0b7a8e-6c1d-4e2f-9a3b-8d7c6b5a4e31:2030-01-06T09:00',
    'fired:s:2030-03-31T02:30',
    'héllo wörld',
    'emoji 🎉 and 日本語',
    'x'.repeat(5_000),
    ...Array.from({ length: 200 }, (_, i) => `run-event:${i}:${i * 7}:${i % 3}`),
  ];

  it("gives uuid's v5 value for every name and namespace", () => {
    for (const ns of namespaces) for (const name of names) expect(nameUuid(name, ns)).toBe(uuidv5(name, ns));
  });

  it('refuses a namespace that is not a UUID', () => {
    expect(() => nameUuid('a', 'not-a-uuid')).toThrow(TypeError);
  });
});
