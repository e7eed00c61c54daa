const { swcOptions } = require('./scripts/swc-options.cjs');
const tsconfig = require('./tsconfig.json');

const moduleNameMapper = {};
for (const [alias, [target]] of Object.entries(tsconfig.compilerOptions.paths)) {
  const from = `^${alias.replace('*', '(.*)')}$`;
  moduleNameMapper[from] = `<rootDir>/${target.replace('*', '$1')}`;
}

const base = {
  rootDir: __dirname,
  testEnvironment: 'node',
  transform: {
    '^.+\\.ts$': ['@swc/jest', swcOptions({ rewritePaths: false })],
    // ESM-only dependencies of the official clients (jose) are compiled to CommonJS for jest.
    '^.+\\.m?js$': ['@swc/jest', { module: { type: 'commonjs' }, jsc: { target: 'es2022', parser: { syntax: 'ecmascript' } } }],
  },
  transformIgnorePatterns: ['/node_modules/(?!(jose|temporal-polyfill|temporal-utils)/)'],
  moduleNameMapper,
  setupFiles: ['reflect-metadata'],
  modulePathIgnorePatterns: ['<rootDir>/dist/'],
  // jest's runtime with V8's code cache kept per worker (see the script).
  runtime: '<rootDir>/scripts/jest-runtime.cjs',
};

module.exports = {
  // How long jest waits for a worker to end after its last file before force-exiting it (jest's
  // default is 500 ms). A worker whose event loop is empty exits at once (scripts/jest-worker-exit.cjs);
  // on a saturated 2-core runner the end of a long-lived worker (heap teardown, a major GC) or the
  // parent noticing it took longer than 500 ms, and jest then warned of a leak that was not one
  // (issue 14). A real leak still prints the warning, 5 s later, after the worker's own
  // "jest worker <pid> still has [...]" line names what is open.
  workerGracefulExitTimeout: 5_000,
  projects: [
    // Unit tests wait for nothing; the bound is above jest's 5 s only because CI runs them beside
    // the typecheck, the lint and the other projects on two cores.
    {
      ...base,
      displayName: 'unit',
      testTimeout: 30_000,
      testMatch: ['<rootDir>/{apps,libs,projections}/**/*.spec.ts'],
      testPathIgnorePatterns: ['\\.(int|e2e)\\.spec\\.ts$'],
    },
    {
      ...base,
      displayName: 'integration',
      testMatch: ['<rootDir>/{apps,libs,projections,test}/**/*.int.spec.ts'],
      globalSetup: '<rootDir>/libs/testing/src/global-setup.ts',
      setupFilesAfterEnv: ['<rootDir>/libs/testing/src/jest-timeouts.ts'],
    },
    {
      ...base,
      displayName: 'e2e',
      testMatch: ['<rootDir>/{apps,libs,projections,test}/**/*.e2e.spec.ts'],
      globalSetup: '<rootDir>/libs/testing/src/global-setup.ts',
      setupFilesAfterEnv: ['<rootDir>/libs/testing/src/jest-timeouts.ts'],
    },
  ],
};
