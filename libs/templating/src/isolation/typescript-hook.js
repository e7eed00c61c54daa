// Lets a worker thread started from the TypeScript sources (the tests do that) load them: each
// .ts file is compiled as it is required, with the SWC options the build and jest use. The build
// ships compiled JavaScript, so this file is never loaded there.
'use strict';
const fs = require('node:fs');
const Module = require('node:module');
const path = require('node:path');
const { transformSync } = require('@swc/core');
const { swcOptions } = require(path.join(__dirname, '../../../../scripts/swc-options.cjs'));

const options = swcOptions({ rewritePaths: true });

Module._extensions['.ts'] = (module, filename) => {
  const { code } = transformSync(fs.readFileSync(filename, 'utf8'), { ...options, filename, sourceMaps: 'inline' });
  module._compile(code, filename);
};
