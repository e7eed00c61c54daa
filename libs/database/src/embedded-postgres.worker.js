// Runs PGlite and its wire-protocol server on a thread of its own, so the WebAssembly Postgres
// never blocks the service's event loop (and so test runners' module sandboxes never load it).
// A database directory that does not exist yet was created before by embedded-postgres.initdb.js
// in a process of its own; only the in-memory database (tests) runs initdb here.
// Plain CommonJS on purpose: it is loaded by path, both from sources and from the build.
const { parentPort, workerData } = require('node:worker_threads');
const { PGlite } = require('@electric-sql/pglite');
const { PGLiteSocketServer } = require('@electric-sql/pglite-socket');

async function main() {
  const db = await PGlite.create({
    ...(workerData.dbPath ? { dataDir: workerData.dbPath } : {}),
    ...(workerData.snapshot ? { loadDataDir: new Blob([workerData.snapshot]) } : {}),
    startParams: [...PGlite.defaultStartParams, ...workerData.startParams],
  });
  const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: 0, maxConnections: workerData.maxConnections });
  await server.start();
  parentPort.on('message', async (message) => {
    if (message === 'snapshot') {
      try {
        const bytes = await (await db.dumpDataDir('none')).arrayBuffer();
        parentPort.postMessage({ snapshot: bytes }, [bytes]);
      } catch (error) {
        parentPort.postMessage({ snapshotError: error && error.stack ? error.stack : String(error) });
      }
      return;
    }
    if (message !== 'stop') return;
    try {
      // server.stop() waits for every client socket to close; do not let a lingering one keep
      // PGlite from closing (which is what flushes it to disk).
      let timer;
      await Promise.race([server.stop(), new Promise((resolve) => (timer = setTimeout(resolve, 500)))]);
      clearTimeout(timer);
      await db.close();
    } finally {
      parentPort.postMessage({ stopped: true });
    }
  });
  parentPort.postMessage({ address: server.getServerConn() });
}

main().catch((error) => parentPort.postMessage({ error: error && error.stack ? error.stack : String(error) }));
