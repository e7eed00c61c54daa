// Writes the OpenAPI document generated from the route contracts to docs/openapi.{json,yaml}.
// The unit test libs/http/src/openapi.spec.ts fails when the committed files drift.
import { createRequire } from 'node:module';
import { writeFileSync } from 'node:fs';
import path from 'node:path';

const require = createRequire(import.meta.url);
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const { allRoutes, API_VERSION } = require(path.join(root, 'dist/libs/contracts/src/index.js'));
const { buildOpenApiDocument } = require(path.join(root, 'dist/libs/http/src/openapi.js'));
const { stringify } = require('yaml');

const document = buildOpenApiDocument(allRoutes(), API_VERSION);
writeFileSync(path.join(root, 'docs/openapi.json'), `${JSON.stringify(document, null, 2)}\n`);
writeFileSync(path.join(root, 'docs/openapi.yaml'), stringify(document));
console.log(`wrote docs/openapi.json and docs/openapi.yaml (${Object.keys(document.paths).length} paths)`);
