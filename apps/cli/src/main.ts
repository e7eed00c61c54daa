import 'reflect-metadata';
import { INestApplicationContext } from '@nestjs/common';
import { loadConfigOrExit, roleLogger, startContext } from '@notify/platform';
import { CliCommand, CliContext, UsageError } from './cli-command';
import { environmentCommands } from './commands/environments';
import { projectionCommands } from './commands/projections';

/** Operator commands. `npm run cli -- <command> [args]`. */
const commands: CliCommand[] = [...environmentCommands, ...projectionCommands];

function help(out: (s: string) => void) {
  out('usage: npm run cli -- <command> [options]\n');
  for (const c of commands) out(`  ${c.usage.padEnd(60)} ${c.summary}`);
}

async function main(argv: string[]): Promise<number> {
  const out = (line: string) => process.stdout.write(`${line}\n`);
  const command = [...commands].sort((a, b) => b.name.length - a.name.length).find((c) => argv.join(' ').startsWith(c.name));
  if (!command || argv.includes('--help')) {
    help(out);
    return command || argv.length === 0 || argv.includes('--help') ? 0 : 2;
  }
  const config = loadConfigOrExit();
  const logger = roleLogger({ ...config, LOG_LEVEL: config.LOG_LEVEL === 'info' ? 'warn' : config.LOG_LEVEL }, 'cli');
  let app: INestApplicationContext | undefined;
  const ctx: CliContext = {
    config,
    logger,
    out,
    async app() {
      app ??= await startContext(config, logger, [], false);
      return app;
    },
  };
  try {
    return await command.run(argv.slice(command.name.split(' ').length), ctx);
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`${error.message}\nusage: npm run cli -- ${command.usage}\n`);
      return 2;
    }
    process.stderr.write(`${(error as Error).message}\n`);
    return 1;
  } finally {
    await app?.close();
  }
}

main(process.argv.slice(2)).then((code) => process.exit(code));
