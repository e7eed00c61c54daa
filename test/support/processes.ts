import { ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';

export const repoRoot = path.resolve(__dirname, '../..');

export interface ServiceProcess {
  child: ChildProcess;
  /** Parsed JSON log lines so far. */
  logs: Record<string, unknown>[];
  stderr(): string;
  /** Resolves with the first log line matching the predicate. */
  waitForLog(match: (line: Record<string, unknown>) => boolean, timeoutMs?: number): Promise<Record<string, unknown>>;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Starts a built entry point (dist/...) as a child process with only the given environment. */
export function startProcess(entry: string, env: Record<string, string>): ServiceProcess {
  const child = spawn(process.execPath, [path.join(repoRoot, entry)], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    cwd: repoRoot,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: Record<string, unknown>[] = [];
  const waiters: { match: (l: Record<string, unknown>) => boolean; resolve: (l: Record<string, unknown>) => void }[] = [];
  let stderr = '';
  let buffer = '';
  child.stderr!.on('data', (d) => (stderr += d));
  child.stdout!.on('data', (chunk) => {
    buffer += chunk;
    let nl;
    while ((nl = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      let parsed: Record<string, unknown>;
      try {
        parsed = JSON.parse(line) as Record<string, unknown>;
      } catch {
        continue;
      }
      logs.push(parsed);
      for (const w of [...waiters]) {
        if (w.match(parsed)) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve(parsed);
        }
      }
    }
  });
  return {
    child,
    logs,
    stderr: () => stderr,
    waitForLog(match, timeoutMs = 120_000) {
      const found = logs.find(match);
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        // Every way out clears the others: a timer or listener left behind keeps jest from exiting.
        const settle = () => {
          clearTimeout(timer);
          child.off('exit', onExit);
          const i = waiters.indexOf(waiter);
          if (i >= 0) waiters.splice(i, 1);
        };
        const timer = setTimeout(() => {
          settle();
          reject(new Error(`no matching log line in ${timeoutMs} ms; stderr: ${stderr}`));
        }, timeoutMs);
        const onExit = (code: number | null) => {
          settle();
          reject(new Error(`process exited (${code}) before the log line; stderr: ${stderr}`));
        };
        const waiter = {
          match,
          resolve: (l: Record<string, unknown>) => {
            settle();
            resolve(l);
          },
        };
        child.once('exit', onExit);
        waiters.push(waiter);
      });
    },
    stop(signal = 'SIGTERM') {
      // Already gone (exited, or killed by a signal: then exitCode stays null).
      if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
      return new Promise((resolve) => {
        child.once('exit', (code) => resolve(code));
        child.kill(signal);
      });
    },
  };
}
