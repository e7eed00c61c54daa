import { DynamicModule, INestApplicationContext, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { AppConfig, ConfigError, parseConfig } from '@notify/config';
import { createHttpApp } from '@notify/http';
import { createLogger, Logger, PinoNestLogger } from '@notify/logging';
import { BootResources } from './boot-resources';
import { CoreModule } from './core.module';
import { Clock } from './tokens';
import { trackShutdownHooks } from './shutdown-hooks';

export type Role = 'server' | 'api' | 'worker' | 'cli';

/** Reads the environment once; a bad setting stops the process with a message naming it. */
export function loadConfigOrExit(env: NodeJS.ProcessEnv = process.env): AppConfig {
  try {
    return parseConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(2);
    }
    throw error;
  }
}

function rootModule(imports: DynamicModule[]) {
  @Module({ imports })
  class RootModule {}
  return RootModule;
}

/** An HTTP process (api alone, or api and worker together). */
export async function startHttp(
  config: AppConfig,
  logger: Logger,
  roles: DynamicModule[],
  options: { clock?: Clock } = {},
): Promise<NestFastifyApplication> {
  const boot = new BootResources();
  const app = await createHttpApp(rootModule([CoreModule.forRoot(config, logger, boot, options.clock), ...roles]), config, logger).catch(
    async (error: unknown) => {
      await boot.closeAll();
      throw error;
    },
  );
  try {
    await app.listen({ port: config.PORT, host: config.HOST });
  } catch (error) {
    await app.close().catch(() => undefined);
    throw error;
  }
  closeOnSignals(app, logger);
  logger.info({ url: await app.getUrl() }, 'listening');
  return app;
}

/** A process without HTTP (the worker, the CLI). */
export async function startContext(
  config: AppConfig,
  logger: Logger,
  roles: DynamicModule[],
  hooks = true,
): Promise<INestApplicationContext> {
  const boot = new BootResources();
  const app = await NestFactory.createApplicationContext(rootModule([CoreModule.forRoot(config, logger, boot), ...roles]), {
    logger: new PinoNestLogger(logger),
    abortOnError: false,
  }).catch(async (error: unknown) => {
    await boot.closeAll();
    throw error;
  });
  try {
    await app.init();
  } catch (error) {
    await app.close().catch(() => undefined);
    throw error;
  }
  if (hooks) closeOnSignals(app, logger);
  return app;
}

/**
 * SIGTERM/SIGINT close the application (stop reactors and projections, close the database so the
 * embedded one is flushed) and exit 0; a second signal exits at once.
 */
function closeOnSignals(app: INestApplicationContext, logger: Logger): void {
  let closing = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (closing) process.exit(1);
    closing = true;
    logger.info({ signal }, 'shutting down');
    const pendingHooks = trackShutdownHooks(app);
    // In-flight work is at-least-once and idempotent: never let a stuck close keep the process.
    setTimeout(() => {
      logger.error({ signal, waiting_for: pendingHooks() }, 'shutdown took longer than 15 s; exiting');
      process.exit(1);
    }, 15_000).unref();
    app
      .close()
      .then(() => process.exit(0))
      .catch((error: unknown) => {
        logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      });
  };
  process.once('SIGTERM', onSignal);
  process.once('SIGINT', onSignal);
}

export function roleLogger(config: AppConfig, role: Role): Logger {
  return createLogger(config.LOG_LEVEL, { role });
}

/** Logs and exits on a failure to start, instead of an unhandled rejection. */
export function runMain(role: Role, main: () => Promise<unknown>): void {
  main().catch((error: unknown) => {
    process.stderr.write(
      `${JSON.stringify({ level: 'fatal', role, msg: 'failed to start', err: (error as Error)?.stack ?? String(error) })}\n`,
    );
    process.exit(1);
  });
}
