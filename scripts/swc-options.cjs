// One SWC configuration for the build and for jest, so both resolve the tsconfig path aliases alike.
const path = require('node:path');
const tsconfig = require('../tsconfig.json');

const root = path.resolve(__dirname, '..');

function swcOptions({ rewritePaths }) {
  return {
    sourceMaps: true,
    module: { type: 'commonjs' },
    jsc: {
      target: 'es2022',
      parser: { syntax: 'typescript', decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false },
      keepClassNames: true,
      ...(rewritePaths ? { baseUrl: root, paths: tsconfig.compilerOptions.paths } : {}),
    },
  };
}

module.exports = { swcOptions, root };
