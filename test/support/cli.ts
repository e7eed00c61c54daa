import { runCli } from '../../apps/cli/src/cli';
import { commandGroups } from '../../apps/cli/src/commands';

/**
 * The operator CLI run in this process, as the binary's main runs it, with the environment the
 * binary would get. What the commands write is kept as written, chunk by chunk, in `out` and
 * `err` (a long-running command's output can be read while it runs). Each `run` is one command.
 */
export function capturedCli(env: Record<string, string | undefined>, signal = new AbortController().signal) {
  const out: string[] = [];
  const err: string[] = [];
  const io = {
    stdout: { write: (text: string) => out.push(text) },
    stderr: { write: (text: string) => err.push(text) },
    env,
    signal,
  };
  return { out, err, run: (...argv: string[]) => runCli(argv, commandGroups, io) };
}

/** One command run in this process: its exit code and everything it wrote. */
export async function cliCommand(env: Record<string, string | undefined>, ...argv: string[]) {
  const cli = capturedCli(env);
  const code = await cli.run(...argv);
  return { code, out: cli.out.join(''), err: cli.err.join('') };
}
