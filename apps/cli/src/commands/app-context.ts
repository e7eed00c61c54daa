import { INestApplicationContext } from '@nestjs/common';
import { roleLogger, startContext } from '@notify/platform';
import { CommandContext } from '../command';

/** Opens the service's backends (database, event store, runtimes) for one command, then closes them. */
export async function withApp<T>(ctx: CommandContext, use: (app: INestApplicationContext) => Promise<T>): Promise<T> {
  const config = ctx.config();
  const logger = roleLogger({ ...config, LOG_LEVEL: config.LOG_LEVEL === 'info' ? 'warn' : config.LOG_LEVEL }, 'cli');
  const app = await startContext(config, logger, [], false);
  try {
    return await use(app);
  } finally {
    await app.close();
  }
}
