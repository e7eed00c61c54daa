require('reflect-metadata');
const { spawn } = require('node:child_process');
const { randomBytes } = require('node:crypto');
const { freshDatabase } = require('/work/wt/messages/dist/bench/support/service.js');
const { Seeder } = require('/work/wt/messages/dist/bench/support/seed.js');
const { Pool } = require('pg');
(async () => {
  const db = await freshDatabase('bench_prof');
  const secretKey = `sk_bench_${randomBytes(16).toString('hex')}`;
  const port = 39123;
  const child = spawn(process.execPath, ['--cpu-prof', '--cpu-prof-dir=/work/wt/messages/.probe/prof', 'dist/apps/server/src/main.js'], { env: { PATH: process.env.PATH, DATABASE_URL: db.url, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', RATE_LIMIT_ENABLED: 'false', DATABASE_POOL_SIZE: '20', BOOTSTRAP_SECRET_KEY: secretKey, BOOTSTRAP_SERVICE_TOKEN: 'svc_' + randomBytes(16).toString('hex'), SECRETS_KEY: randomBytes(32).toString('hex') }, stdio: 'inherit' });
  const url = `http://127.0.0.1:${port}`;
  const auth = { authorization: `Bearer ${secretKey}` };
  for (;;) { const ok = await fetch(`${url}/v1/users/nobody`, { headers: auth }).then((r) => r.status !== 401).catch(() => false); if (ok) break; await new Promise((r) => setTimeout(r, 100)); }
  const sql = new Pool({ connectionString: db.url, max: 2 });
  const service = { url, secretKey, databaseUrl: db.url, sql };
  const [channel] = (await sql.query("SELECT id, key FROM rm_channels WHERE type = 'in_app_feed' LIMIT 1")).rows;
  const seeder = await Seeder.open(service);
  await seeder.users(['reader', 'other0']);
  await seeder.inAppMessages(channel, ['reader'], 10000, 0.3);
  await seeder.close();
  await sql.query('ANALYZE');
  await new Promise((r) => setTimeout(r, 10000));
  const feed = `${url}/v1/users/reader/feeds/${channel.id}`;
  for (const [name, target] of [['user', `${url}/v1/users/reader`], ['feed', feed], ['user', `${url}/v1/users/reader`], ['feed', feed]]) {
    const t0 = performance.now();
    for (let i = 0; i < 1000; i++) { const r = await fetch(target, { headers: auth }); await r.arrayBuffer(); }
    console.log(name, ((performance.now() - t0) / 1000).toFixed(2), 'ms/req sequential');
  }
  child.kill('SIGINT');
  await new Promise((r) => child.once('exit', r));
  await sql.end();
  await db.drop();
})();
