// Finds what keeps a jest worker alive ("A worker process has failed to exit gracefully"). Load it
// into the workers and run the suites that showed it:
//
//   LEAK_PROBE_DIR=/tmp/leaks NODE_OPTIONS="--require ./scripts/jest-leak-probe.cjs" npx jest ...
//
// Each worker records the handles it opens (sockets, servers, child processes, worker threads,
// timers) with the stack that opened them and the last spec file seen on that stack. When jest
// force-exits a worker (SIGTERM), and 300 ms after jest's END message, the worker writes the handles
// still open and still keeping it alive to $LEAK_PROBE_DIR/leak-<pid>.txt. exit-<pid>.txt says how
// long after END the loop emptied ('beforeExit', 'exit'), and, seen from a shell outside, when the
// process had ended (a zombie) and when jest had reaped it (see scripts/jest-worker-exit.cjs for
// what this found).
// Only jest's own worker processes: servers and CLIs the tests spawn inherit NODE_OPTIONS too, and
// handle SIGTERM themselves.
if (/processChild|jest-worker/.test(process.argv[1] || '')) {
  const ah = require('node:async_hooks');
  const fs = require('node:fs');
  const path = require('node:path');

  const HANDLES = new Set([
    'TCPWRAP',
    'TCPSERVERWRAP',
    'PIPEWRAP',
    'PIPESERVERWRAP',
    'PROCESSWRAP',
    'UDPWRAP',
    'Timeout',
    'Immediate',
    'WORKER',
    'MESSAGEPORT',
    'SIGNALWRAP',
    'FSEVENTWRAP',
    'HTTP2SESSION',
  ]);
  const dir = process.env.LEAK_PROBE_DIR || require('node:os').tmpdir();
  fs.mkdirSync(dir, { recursive: true });
  const live = new Map();
  let lastSpec = '(none yet)';
  ah.createHook({
    init(id, type, _trigger, resource) {
      if (!HANDLES.has(type)) return;
      const stack = (new Error().stack || '')
        .split('\n')
        .slice(2)
        .map((l) => l.trim());
      const spec = stack.find((l) => /\.spec\.[tj]s/.test(l));
      if (spec) lastSpec = spec;
      const frames = stack.filter((l) => !/node:internal|jest-leak-probe|jest-circus|jest-runtime|@jest|jest-runner/.test(l)).slice(0, 8);
      live.set(id, { type, resource: new WeakRef(resource), spec: spec || `last spec seen: ${lastSpec}`, frames });
    },
    destroy(id) {
      live.delete(id);
    },
  }).enable();

  const dump = (why) => {
    const out = [`${why}; active: ${JSON.stringify(process.getActiveResourcesInfo())}`];
    for (const [id, e] of live) {
      const r = e.resource.deref();
      if (!r) continue;
      let ref = true;
      try {
        if (typeof r.hasRef === 'function') ref = r.hasRef();
      } catch {
        // not a handle that says
      }
      if (!ref || (e.type === 'Timeout' && r._destroyed)) continue;
      out.push(`${e.type} #${id}\n  ${e.spec}\n    ${e.frames.join('\n    ')}`);
    }
    fs.mkdirSync(dir, { recursive: true });
    fs.appendFileSync(path.join(dir, `leak-${process.pid}.txt`), `${out.join('\n')}\n\n`);
  };
  // jest ends a worker with its END message (2) and force-exits it 500 ms later if it is still
  // alive. The code under test may replace SIGTERM handlers, so the dump is taken on the message:
  // whatever still keeps the process alive 300 ms after it.
  // The listener goes on END, or it would keep the IPC channel, and so the worker, alive itself.
  const onMessage = (m) => {
    if (!Array.isArray(m) || m[0] !== 2) return;
    process.removeListener('message', onMessage);
    const ended = Date.now();
    setTimeout(() => dump('300 ms after END'), 300).unref();
    // A worker whose loop is empty may still be slow to exit (the environment's teardown after
    // 'exit'): the two events say how long after END each came.
    const note = (what) => fs.appendFileSync(path.join(dir, `exit-${process.pid}.txt`), `${what} ${Date.now() - ended} ms after END\n`);
    process.once('beforeExit', () => note('beforeExit'));
    process.once('exit', () => {
      note('exit');
      // How long the process lingers after 'exit' (the environment's teardown), seen from outside.
      const file = path.join(dir, `exit-${process.pid}.txt`);
      const pid = process.pid;
      const script = [
        `t0=$(date +%s%N); z=''`,
        `while kill -0 ${pid} 2>/dev/null; do`,
        `  if [ -z "$z" ] && grep -q '^State:.*Z' /proc/${pid}/status 2>/dev/null; then z=1; echo "zombie (ended, not yet reaped by jest) $(( ($(date +%s%N) - t0) / 1000000 )) ms after exit" >> ${file}; fi`,
        `  sleep 0.005`,
        `done`,
        `echo "gone $(( ($(date +%s%N) - t0) / 1000000 )) ms after exit" >> ${file}`,
      ].join('\n');
      require('node:child_process').spawn('sh', ['-c', script], { detached: true, stdio: 'ignore' }).unref();
    });
  };
  process.on('message', onMessage);
  process.on('SIGTERM', () => {
    dump('SIGTERM');
    process.exit(1);
  });
}
