import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { consoleAssetsDir } from './console.module';

describe('consoleAssetsDir', () => {
  let root: string;
  beforeEach(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'notify-console-'));
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('finds dist/console beside the compiled module, and from the sources', async () => {
    await mkdir(path.join(root, 'dist', 'console'), { recursive: true });
    await writeFile(path.join(root, 'dist', 'console', 'index.html'), '<!doctype html>');
    // Compiled: dist/apps/api/src/console; from source (tests): apps/api/src/console.
    expect(consoleAssetsDir(path.join(root, 'dist', 'apps', 'api', 'src', 'console'))).toBe(path.join(root, 'dist', 'console'));
    expect(consoleAssetsDir(path.join(root, 'apps', 'api', 'src', 'console'))).toBe(path.join(root, 'dist', 'console'));
  });

  it('is undefined when the console was not built', () => {
    expect(consoleAssetsDir(path.join(root, 'apps', 'api', 'src', 'console'))).toBeUndefined();
  });
});
