// Extracts the rate tier of every operation of the reference public API into
// libs/contracts/src/http/reference-rate-tiers.json, which the contracts' unit test compares the
// routes' `rateTier` with (the build and tests never read the reference itself).
//   node scripts/extract-rate-tiers.mjs <path to knock-api.openapi.json>
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const source = process.argv[2];
if (!source) {
  console.error('usage: node scripts/extract-rate-tiers.mjs <knock-api.openapi.json>');
  process.exit(2);
}
const document = JSON.parse(readFileSync(source, 'utf8'));
const operations = [];
for (const [route, methods] of Object.entries(document.paths)) {
  for (const [method, operation] of Object.entries(methods)) {
    if (!operation?.operationId) continue;
    operations.push({
      method: method.toUpperCase(),
      path: route,
      operationId: operation.operationId,
      tier: operation['x-ratelimit-tier'] ?? null,
    });
  }
}
operations.sort((a, b) => (a.path === b.path ? a.method.localeCompare(b.method) : a.path.localeCompare(b.path)));
const target = path.resolve(import.meta.dirname, '../libs/contracts/src/http/reference-rate-tiers.json');
// One operation a line, so a change of the reference shows as a readable diff.
const lines = operations.map((o) => `  ${JSON.stringify(o)}`).join(',\n');
writeFileSync(
  target,
  `{\n "source": ${JSON.stringify(path.basename(source))},\n "version": ${JSON.stringify(document.info?.version ?? null)},\n "operations": [\n${lines}\n ]\n}\n`,
);
console.log(`${operations.length} operations written to ${path.relative(process.cwd(), target)}`);
