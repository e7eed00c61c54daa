// jest's runtime, compiling a module from V8's code cache once this worker has compiled it before.
// jest compiles every module again for each test file (each file has its own module registry and
// context), and V8's own compilation cache does not hit for those compiles (jest gives each one a
// dynamic-import callback of its own). An int/e2e file loads the whole service, about 3,400
// modules: compiling them was about a third of a worker's time before the file's first test.
// With the cache a worker keeps about 26 MB (the sources, to compare, and the caches).
const vm = require('node:vm');
const Runtime = require('jest-runtime').default;

/** filename -> the source compiled and V8's code cache for it, for this worker process. */
const codeCache = new Map();

class CodeCachingRuntime extends Runtime {
  constructor(...args) {
    super(...args);
    const executor = this.executor;
    // jest's internals as of jest 30; with others, jest's own compile is used unchanged.
    if (!executor || typeof executor.compile !== 'function' || typeof executor.dynamicImport !== 'function') return;
    const compile = executor.compile.bind(executor);
    executor.compile = (scriptSource, filename) => {
      const vmContext = executor.environment.getVmContext();
      if (vmContext == null || executor.resolution.isCoreModule(filename)) return compile(scriptSource, filename);
      const cached = codeCache.get(filename);
      // V8 checks a cache against the source's length only: the source itself is compared here.
      const cachedData = cached && cached.source === scriptSource ? cached.data : undefined;
      let fn;
      try {
        fn = vm.compileFunction(scriptSource, executor.injectedModuleParameters, {
          filename,
          cachedData,
          produceCachedData: cachedData === undefined,
          importModuleDynamically: async (specifier, _function, importAttributes, ...rest) =>
            executor.dynamicImport(specifier, filename, vmContext, importAttributes, rest[0]),
          parsingContext: vmContext,
        });
      } catch {
        // jest's own compile reports the error its way (a syntax error, ESM in a CommonJS file).
        return compile(scriptSource, filename);
      }
      if (cachedData === undefined && fn.cachedDataProduced) codeCache.set(filename, { source: scriptSource, data: fn.cachedData });
      else if (fn.cachedDataRejected) codeCache.delete(filename);
      return fn;
    };
  }
}

module.exports = CodeCachingRuntime;
