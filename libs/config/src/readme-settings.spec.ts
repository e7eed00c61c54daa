import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ConfigSchema } from './config.schema';

/** The README promises to list every setting; this keeps the promise true. */
describe('README settings table', () => {
  const readme = readFileSync(path.resolve(__dirname, '../../../README.md'), 'utf8');
  const table = readme.slice(readme.indexOf('## Settings'));
  const listed = new Set([...table.matchAll(/^\| `([A-Z0-9_]+)` \|/gm)].map((m) => m[1]));

  it('lists every setting the service reads, and nothing else', () => {
    expect([...listed].sort()).toEqual(Object.keys(ConfigSchema.shape).sort());
  });
});
