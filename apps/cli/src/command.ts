import type { AppConfig } from '@notify/config';
import type { ParseArgsConfig } from 'node:util';

export type OptionSpecs = NonNullable<ParseArgsConfig['options']>;

export interface CliIo {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
  env: Record<string, string | undefined>;
  /** Aborted on SIGINT/SIGTERM: long-running commands stop cleanly. */
  signal: AbortSignal;
}

export interface CommandContext {
  values: Record<string, string | boolean | (string | boolean)[] | undefined>;
  positionals: string[];
  io: CliIo;
  /** The validated configuration (parsed on first use, from io.env). */
  config(): AppConfig;
}

/** One operator command: `notify <group> <name> [options]`. */
export interface CliCommand {
  name: string;
  summary: string;
  /** Usage line after `notify <group> <name>`, e.g. `[--topic NAME] [--from-beginning]`. */
  usage?: string;
  options?: OptionSpecs;
  positionals?: boolean;
  /** Exit code (default 0). */
  run(ctx: CommandContext): Promise<number | void>;
}

/** A set of commands under one word (`kafka`, `environments`, `keys`, `projections`). */
export interface CommandGroup {
  name: string;
  summary: string;
  commands: CliCommand[];
  /** The command `notify <group> <argument>` runs when the argument names no command (`notify explain <id>`). */
  fallback?: string;
  /** The command `notify <group>` runs with no command named, or only options (`notify whoami --json`). */
  default?: string;
}

/** A problem the operator can fix (bad flag, missing setting): printed without a stack trace. */
export class UsageError extends Error {}
