import { appendFileSync } from 'node:fs';
import { relative } from 'node:path';

// Integration and end-to-end tests wait for states (a row, a log line, a delivered message), never
// for a time; this bound only stops a test that would hang. It is generous because a loaded 2-core
// CI machine runs several of these files at once.
jest.setTimeout(120_000);

// With JEST_SUITE_TIMINGS=<file>, every integration and end-to-end file appends one line to it:
// its wall time and the CPU time of the jest worker running it (the service under test runs in
// that process). `.ci/run` prints the costliest files from it, so a slow CI can be traced to them.
const timings = process.env.JEST_SUITE_TIMINGS;
if (timings) {
  let wall = 0;
  let cpu: NodeJS.CpuUsage | undefined;
  beforeAll(() => {
    wall = performance.now();
    cpu = process.cpuUsage();
  });
  afterAll(() => {
    const used = process.cpuUsage(cpu);
    const file = relative(process.cwd(), expect.getState().testPath ?? '?');
    const line = `${((performance.now() - wall) / 1000).toFixed(1)}\t${((used.user + used.system) / 1e6).toFixed(1)}\t${file}\n`;
    appendFileSync(timings, line);
  });
}
