import { INestApplicationContext } from '@nestjs/common';
import { AppConfig } from '@notify/config';
import { Logger } from '@notify/logging';

/** What a command can use; the service's backends are opened only if the command asks. */
export interface CliContext {
  config: AppConfig;
  logger: Logger;
  /** Opens the database, event store and runtimes as the service would (closed on exit). */
  app(): Promise<INestApplicationContext>;
  out(line: string): void;
}

export interface CliCommand {
  /** e.g. "projections rebuild" */
  name: string;
  usage: string;
  summary: string;
  run(args: string[], ctx: CliContext): Promise<number>;
}

export class UsageError extends Error {}
