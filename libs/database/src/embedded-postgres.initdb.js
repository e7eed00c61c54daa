// Creates a new PGlite database directory, in a process of its own that then exits.
// `node embedded-postgres.initdb.js <directory> <start parameters as JSON>`
//
// initdb runs in two WebAssembly instances of its own inside PGlite, and PGlite copies the new
// directory through tar archives in memory: ~450 MB at the peak. Run in the service's process
// (even on a thread that then ends) most of it stays resident afterwards, in the allocator's
// arenas; a process that exits hands all of it back.
// Plain CommonJS on purpose: it is started by path, both from sources and from the build.
const { PGlite } = require('@electric-sql/pglite');

async function main() {
  const [dataDir, startParams] = process.argv.slice(2);
  const db = await PGlite.create({ dataDir, startParams: [...PGlite.defaultStartParams, ...JSON.parse(startParams)] });
  await db.close();
}

main().then(
  () => process.exit(0),
  (error) => {
    process.stderr.write(`${error && error.stack ? error.stack : String(error)}\n`);
    process.exit(1);
  },
);
