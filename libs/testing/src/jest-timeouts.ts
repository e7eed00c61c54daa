import { appendFileSync, readFileSync } from 'node:fs';
import { relative } from 'node:path';

// Integration and end-to-end tests wait for states (a row, a log line, a delivered message), never
// for a time; this bound only stops a test that would hang. It is generous because a loaded 2-core
// CI machine runs several of these files at once.
jest.setTimeout(120_000);

/** CPU seconds of the child processes this worker has waited for (utime + stime of the reaped ones). */
function childrenCpu(): number {
  try {
    const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
    return (Number(fields[13]) + Number(fields[14])) / 100; // cutime, cstime (fields 16 and 17), in USER_HZ
  } catch {
    return 0;
  }
}

// With JEST_SUITE_TIMINGS=<file>, every integration and end-to-end file appends one line to it:
// its wall time and the CPU time of the jest worker running it (the service under test runs in
// that process). `.ci/run` prints the costliest files from it, so a slow CI can be traced to them.
// A second file, <file>.detail, adds what the first leaves out: the worker's pid and its whole
// CPU so far at the file's start and end (so the CPU spent between two files of one worker, loading
// the next file's modules or in anything an earlier file left running, can be worked out), and
// the CPU of the child processes the file ran (CLI invocations, a browser, a Java server).
const timings = process.env.JEST_SUITE_TIMINGS;
if (timings) {
  let wall = 0;
  let startedAt = 0;
  let cpu: NodeJS.CpuUsage | undefined;
  let children = 0;
  beforeAll(() => {
    wall = performance.now();
    startedAt = Date.now();
    cpu = process.cpuUsage();
    children = childrenCpu();
  });
  afterAll(() => {
    const used = process.cpuUsage(cpu);
    const total = process.cpuUsage();
    const file = relative(process.cwd(), expect.getState().testPath ?? '?');
    const seconds = (u: NodeJS.CpuUsage) => ((u.user + u.system) / 1e6).toFixed(1);
    const line = `${((performance.now() - wall) / 1000).toFixed(1)}\t${seconds(used)}\t${file}\n`;
    appendFileSync(timings, line);
    const detail = [process.pid, startedAt, Date.now(), seconds(cpu!), seconds(total), (childrenCpu() - children).toFixed(1), file];
    appendFileSync(`${timings}.detail`, `${detail.join('\t')}\n`);
  });
}
