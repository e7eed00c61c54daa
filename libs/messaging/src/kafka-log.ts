import type { Logger } from '@notify/logging';
import { logLevel, LogEntry } from 'kafkajs';

/**
 * Routes kafkajs' own log lines into the service's JSON logger. kafkajs logs every failed
 * request at ERROR while it is still retrying; those become warnings here, and what finally
 * fails reaches the caller as an error anyway.
 */
export function kafkaLogCreator(logger: Logger | undefined) {
  return () =>
    ({ namespace, level, log }: LogEntry) => {
      if (!logger) return;
      const { message, timestamp: _t, logger: _l, ...rest } = log;
      const fields = { kafka: namespace, ...rest };
      // The publisher bounds retries on purpose and replaces the producer after a failure (ADR 0052).
      if (message.startsWith('Limiting retries for the idempotent producer')) return logger.debug(fields, message);
      if (level <= logLevel.WARN) logger.warn(fields, message);
      else if (level === logLevel.INFO) logger.debug(fields, message);
      else logger.trace(fields, message);
    };
}
