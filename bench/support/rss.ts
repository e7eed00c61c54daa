import { readdir, readFile } from 'node:fs/promises';

export interface ProcessMemory {
  pid: number;
  command: string;
  /** Resident set size now, in MiB. */
  rssMb: number;
  /** The highest resident set size the process reached (VmHWM), in MiB. */
  peakMb: number;
}

const mib = (kb: number) => Math.round((kb / 1024) * 10) / 10;

async function status(pid: number): Promise<{ ppid: number; rssKb: number; hwmKb: number; name: string } | undefined> {
  const text = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => undefined);
  if (!text) return undefined;
  const field = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(text)?.[1] ?? 0);
  return { ppid: field('PPid'), rssKb: field('VmRSS'), hwmKb: field('VmHWM'), name: /^Name:\s+(.*)$/m.exec(text)?.[1] ?? '?' };
}

/**
 * The resident memory of a process and of every process it started, still running (Linux /proc;
 * threads, such as the embedded database's, are part of their process). Resident set sizes are
 * summed as the kernel reports them, so pages two processes share are counted twice.
 */
export async function processTreeMemory(root: number): Promise<{ totalMb: number; processes: ProcessMemory[] }> {
  if (process.platform !== 'linux') throw new Error('the memory bench reads /proc: it runs on Linux only');
  const parents = new Map<number, number[]>();
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const s = await status(Number(entry));
    if (s) parents.set(s.ppid, [...(parents.get(s.ppid) ?? []), Number(entry)]);
  }
  const processes: ProcessMemory[] = [];
  const visit = async (pid: number) => {
    const s = await status(pid);
    if (!s) return;
    const command = (await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => s.name)).split('\0').filter(Boolean).join(' ');
    processes.push({ pid, command, rssMb: mib(s.rssKb), peakMb: mib(s.hwmKb) });
    for (const child of parents.get(pid) ?? []) await visit(child);
  };
  await visit(root);
  if (processes.length === 0) throw new Error(`process ${root} is not running`);
  return { totalMb: Math.round(processes.reduce((sum, p) => sum + p.rssMb, 0) * 10) / 10, processes };
}

/** Samples processTreeMemory every `everyMs` until stop() is called; stop resolves with the samples (MiB). */
export function sampleTreeMemory(root: number, everyMs: number): { stop(): Promise<number[]> } {
  const samples: number[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      samples.push((await processTreeMemory(root)).totalMb);
      await new Promise((r) => setTimeout(r, everyMs));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return samples;
    },
  };
}

/**
 * CPU time a process has used so far (user + system), in milliseconds, from /proc/<pid>/stat:
 * what a request costs the service, which varies much less than throughput with what else the
 * machine runs. Linux only; clock ticks taken as 100 per second (the kernel's USER_HZ).
 */
export async function cpuMs(pid: number): Promise<number> {
  const text = await readFile(`/proc/${pid}/stat`, 'utf8');
  // The command name (field 2) is in parentheses and may hold spaces: count from after it.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/**
 * CPU time used so far by the PostgreSQL backends connected to one database (the service's
 * pool), in milliseconds: the database's share of a request. Backends that end in between are
 * lost from the sum, so measure over a run where the pool stays open.
 */
export async function databaseCpuMs(
  sql: { query: (text: string, values: unknown[]) => Promise<{ rows: { pid: number }[] }> },
  database: string,
): Promise<Map<number, number>> {
  const { rows } = await sql.query('SELECT pid FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [database]);
  const out = new Map<number, number>();
  for (const { pid } of rows) {
    const used = await cpuMs(pid).catch(() => undefined);
    if (used !== undefined) out.set(pid, used);
  }
  return out;
}

/** The CPU the backends in `after` used since `before` (a backend that started in between counts from zero). */
export function databaseCpuSince(before: Map<number, number>, after: Map<number, number>): number {
  let total = 0;
  for (const [pid, used] of after) total += used - (before.get(pid) ?? 0);
  return total;
}
