import '@notify/platform/source-maps';
import { runCli } from './cli';
import { commandGroups } from './commands';

/** `npm run cli -- <group> <command> [options]` (or `node dist/apps/cli/src/main.js ...`). */
const controller = new AbortController();
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => controller.abort());

runCli(process.argv.slice(2), commandGroups, {
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  signal: controller.signal,
}).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`${(error as Error)?.stack ?? String(error)}\n`);
    process.exit(1);
  },
);
