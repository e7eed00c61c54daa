// Loaded into jest's worker processes (`node --require ./scripts/jest-worker-exit.cjs
// node_modules/.bin/jest`: the workers inherit the parent's execArgv).
//
// jest ends a worker with its END message and force-exits it ("A worker process has failed to exit
// gracefully") if the process has not ended `workerGracefulExitTimeout` later (500 ms by default;
// 5 s in jest.config.js since the runs below). Found with scripts/jest-leak-probe.cjs:
// at the end of a CI run every worker's event loop was empty within 1-11 ms of END (nothing left
// open), but Node's teardown of the environment after that took another 0.2-1.5 s with the heap a
// long-running worker has built up, so jest killed workers that were in fact exiting.
//
// Once the loop is empty after END ('beforeExit': nothing keeps the process alive), this exits at
// once, skipping that teardown. A worker that does leak a handle never reaches 'beforeExit', so
// jest still reports it as before, and 300 ms after END the worker writes the kinds of resource
// still open to stderr ("jest worker <pid> still has [...]": the PipeWraps are its own stdio and
// IPC). A force-exit warning with no such line means the worker had ended and jest, on a saturated
// machine, took more than 500 ms to see it.
if (/processChild/.test(process.argv[1] || '')) {
  const END = 2; // jest-worker's CHILD_MESSAGE_END
  const onMessage = (message) => {
    if (!Array.isArray(message) || message[0] !== END) return;
    // The listener goes now, or it would keep the IPC channel, and so the worker, alive itself.
    process.removeListener('message', onMessage);
    process.once('beforeExit', (code) => process.exit(code));
    // Still alive 300 ms later: something was left open. Say what (the leak probe says where).
    setTimeout(() => {
      const open = process.getActiveResourcesInfo().filter((r) => r !== 'TTYWrap');
      process.stderr.write(`jest worker ${process.pid} still has ${JSON.stringify(open)} open 300 ms after jest's end message\n`);
    }, 300).unref();
  };
  process.on('message', onMessage);
}
