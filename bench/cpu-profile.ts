/**
 * Where a V8 CPU profile's time went: self time by function and by area (this project's
 * libraries and apps, each dependency, node internals, GC), most first.
 *
 *   BENCH_CPU_PROF=/tmp/prof BENCH_SCENARIO=fanout node dist/bench/run.js
 *   node dist/bench/cpu-profile.js /tmp/prof/<file>.cpuprofile [top=40] [last seconds]
 *
 * With a last argument only the samples of the profile's final seconds count: the scenario's
 * measured phase (a fan-out) without the seeding before it.
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** The part of the code a frame belongs to: `libs/engine`-like for the project, the package for a dependency. */
export function areaOf(url: string, functionName: string): string {
  if (!url) return functionName.startsWith('(') ? functionName : '(native)';
  if (url.startsWith('node:')) return 'node internals';
  const modules = url.lastIndexOf('/node_modules/');
  if (modules >= 0) {
    const rest = url.slice(modules + '/node_modules/'.length).split('/');
    return rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0];
  }
  const dist = url.indexOf('/dist/');
  if (dist >= 0) {
    const parts = url.slice(dist + '/dist/'.length).split('/');
    return parts.slice(0, parts[0] === 'libs' || parts[0] === 'apps' ? 3 : 2).join('/');
  }
  return url;
}

function main(): void {
  const [file, topArg, lastArg] = process.argv.slice(2);
  if (!file) throw new Error('usage: node dist/bench/cpu-profile.js <file.cpuprofile> [top]');
  const top = Number(topArg ?? 40);
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  // Sample i was taken at the sum of the deltas up to it; the window is the last `lastArg` seconds.
  const ends = profile.timeDeltas.reduce((a, d) => a + d, 0);
  const from = lastArg ? ends - Number(lastArg) * 1e6 : -Infinity;
  let at = 0;
  profile.samples.forEach((id, i) => {
    at += profile.timeDeltas[i] ?? 0;
    if (at >= from) self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  const functions = new Map<string, number>();
  const areas = new Map<string, number>();
  for (const [id, us] of self) {
    const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
    const area = areaOf(url, functionName);
    const name = `${functionName || '(anonymous)'} ${url ? `${url.replace(/^.*\/(dist|node_modules)\//, '$1/')}:${lineNumber + 1}` : ''}`;
    functions.set(name, (functions.get(name) ?? 0) + us);
    areas.set(area, (areas.get(area) ?? 0) + us);
  }
  // Inclusive time of the project's own functions: a sample counts once for each distinct one on its stack.
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const inclusive = new Map<string, number>();
  for (const [id, us] of self) {
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const { functionName, url, lineNumber } = byId.get(at)!.callFrame;
      if (!url.includes('/dist/') || url.includes('/node_modules/')) continue;
      const name = `${functionName || '(anonymous)'} ${url.replace(/^.*\/dist\//, '')}:${lineNumber + 1}`;
      if (seen.has(name)) continue;
      seen.add(name);
      inclusive.set(name, (inclusive.get(name) ?? 0) + us);
    }
  }
  const print = (title: string, m: Map<string, number>, n: number) => {
    console.log(`\n${title}`);
    for (const [k, us] of [...m].sort((a, b) => b[1] - a[1]).slice(0, n))
      console.log(`${((100 * us) / total).toFixed(1).padStart(6)} %  ${(us / 1000).toFixed(0).padStart(8)} ms  ${k}`);
  };
  console.log(`profile: ${(total / 1e6).toFixed(1)} s of samples`);
  print('self time by area', areas, 30);
  print('self time by function', functions, top);
  print("inclusive time of the project's functions", inclusive, top);
}

if (require.main === module) main();
