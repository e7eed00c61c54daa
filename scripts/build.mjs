// Compiles the TypeScript sources to dist/ with SWC (type checking is `npm run typecheck`).
import { transformFile } from '@swc/core';
import { copyFile, mkdir, readdir, writeFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { swcOptions, root } = require('./swc-options.cjs');
const sourceDirs = ['apps', 'libs', 'projections', 'bench', 'examples'];
const consoleDir = path.join(root, 'apps', 'console');
const isSource = (f) => (f.endsWith('.ts') && !f.endsWith('.d.ts') && !/\.(spec|test)\.ts$/.test(f)) || f.endsWith('.js');

async function* walk(dir) {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const e of entries) {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) {
      // The console is a browser application, bundled by Vite below.
      if (full === consoleDir) continue;
      yield* walk(full);
    } else if (isSource(e.name)) yield full;
  }
}

const started = Date.now();
const outRoot = path.join(root, 'dist');
await rm(outRoot, { recursive: true, force: true });
const options = swcOptions({ rewritePaths: true });
const jobs = [];
for (const dir of sourceDirs) {
  for await (const file of walk(path.join(root, dir))) {
    jobs.push(
      (async () => {
        if (file.endsWith('.js')) {
          // Plain JavaScript (worker thread entry points) is copied as it is.
          const target = path.join(outRoot, path.relative(root, file));
          await mkdir(path.dirname(target), { recursive: true });
          await copyFile(file, target);
          return;
        }
        const out = path.join(outRoot, path.relative(root, file)).replace(/\.ts$/, '.js');
        const { code, map } = await transformFile(file, {
          ...options,
          filename: file,
          sourceFileName: path.relative(path.dirname(out), file),
        });
        await mkdir(path.dirname(out), { recursive: true });
        await writeFile(out, `${code}\n//# sourceMappingURL=${path.basename(out)}.map`);
        if (map) await writeFile(`${out}.map`, map);
      })(),
    );
  }
}
await Promise.all(jobs);
console.log(`built ${jobs.length} files in ${Date.now() - started} ms`);

// The operator console (apps/console, React + Mantine) into dist/console, served at /console/ (ADR 0169).
const consoleStarted = Date.now();
const { build: vite } = await import('vite');
await vite({ configFile: path.join(consoleDir, 'vite.config.mts') });
console.log(`built the console in ${Date.now() - consoleStarted} ms`);
