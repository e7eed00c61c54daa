// Extracts from the two reference OpenAPI documents (public API: JSON, management API: YAML) what
// the contract test needs to validate responses, and writes it to test/contract/reference.schemas.json:
// per operation its method, path, operationId, parameters and response schemas per status, and the
// schemas under components. Prose (description, summary, title, example(s), externalDocs) and the
// vendor fields (x-*: snippets, struct hints, rate tiers) are dropped; request bodies are not needed.
// Schemas are otherwise kept as the specs have them (OpenAPI 3.0 `nullable`, `discriminator`, $refs):
// the test converts them when it loads the file.
//
//   node scripts/reference-schemas.mjs [<public spec.json> <management spec.yml>]
//
// Defaults: ../shared/reference/knock-api.openapi.json and knock-mgmt-api.openapi.yml next to the
// repository. Run it when the reference specs change and commit the output (the tests never read
// the specs themselves). Sources and licences: test/contract/NOTICE.md.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { parse } = require('yaml');
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const referenceDir = path.resolve(root, '../shared/reference');
const [publicPath = path.join(referenceDir, 'knock-api.openapi.json'), mgmtPath = path.join(referenceDir, 'knock-mgmt-api.openapi.yml')] =
  process.argv.slice(2);
const out = path.join(root, 'test/contract/reference.schemas.json');

const METHODS = ['get', 'put', 'post', 'delete', 'patch'];
const PROSE = new Set(['description', 'summary', 'title', 'example', 'examples', 'externalDocs']);
const isDropped = (key) => PROSE.has(key) || key.startsWith('x-');

/** A schema without prose; property names (which may be called `description` or `title`) are kept. */
function schema(node) {
  if (Array.isArray(node)) return node.map(schema);
  if (!node || typeof node !== 'object') return node;
  const result = {};
  for (const [key, value] of Object.entries(node)) {
    if (isDropped(key)) continue;
    if (key === 'properties' || key === 'patternProperties') {
      result[key] = Object.fromEntries(Object.entries(value).map(([name, s]) => [name, schema(s)]));
    } else if (key === 'enum' || key === 'default' || key === 'required' || key === 'const') {
      result[key] = value;
    } else {
      result[key] = schema(value);
    }
  }
  return result;
}

function parameter(p) {
  if (p.$ref) return { $ref: p.$ref };
  return { name: p.name, in: p.in, ...(p.required ? { required: true } : {}), ...(p.schema ? { schema: schema(p.schema) } : {}) };
}

function responses(rs) {
  const result = {};
  for (const [status, r] of Object.entries(rs ?? {})) {
    if (r.$ref) throw new Error(`response $ref ${r.$ref} not supported (none in the reference specs when this was written)`);
    const content = {};
    for (const [type, media] of Object.entries(r.content ?? {})) content[type] = media.schema ? { schema: schema(media.schema) } : {};
    result[status] = Object.keys(content).length ? { content } : {};
  }
  return result;
}

function extract(doc) {
  const paths = {};
  let operations = 0;
  for (const [p, item] of Object.entries(doc.paths)) {
    const shared = (item.parameters ?? []).map(parameter);
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      operations += 1;
      paths[p] ??= {};
      paths[p][method] = {
        operationId: op.operationId,
        parameters: [...shared, ...(op.parameters ?? []).map(parameter)],
        responses: responses(op.responses),
      };
    }
  }
  const schemas = Object.fromEntries(Object.entries(doc.components?.schemas ?? {}).map(([name, s]) => [name, schema(s)]));
  return { openapi: doc.openapi, info: { title: doc.info.title, version: doc.info.version }, operations, paths, components: { schemas } };
}

const result = {
  generatedBy: 'scripts/reference-schemas.mjs',
  apis: {
    public: extract(JSON.parse(readFileSync(publicPath, 'utf8'))),
    management: extract(parse(readFileSync(mgmtPath, 'utf8'))),
  },
};
writeFileSync(out, `${JSON.stringify(result, null, 1)}\n`);
const { public: pub, management: mgmt } = result.apis;
console.log(
  `wrote ${path.relative(root, out)}: public ${pub.operations} operations, ${Object.keys(pub.components.schemas).length} schemas; management ${mgmt.operations} operations, ${Object.keys(mgmt.components.schemas).length} schemas`,
);
