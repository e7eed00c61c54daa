require('reflect-metadata');
const { startService } = require('/work/wt/messages/dist/bench/support/service.js');
const { Seeder } = require('/work/wt/messages/dist/bench/support/seed.js');
const { FeedQueries } = require('/work/wt/messages/dist/projections/messages/index.js');
const { DataSource } = require('typeorm');
(async () => {
  const service = await startService('probe');
  try {
    const [channel] = (await service.sql.query("SELECT id, key FROM rm_channels WHERE type = 'in_app_feed' ORDER BY created_at LIMIT 1")).rows;
    const seeder = await Seeder.open(service);
    await seeder.users(['reader', 'other0']);
    await seeder.inAppMessages(channel, ['reader'], 10000, 0.3);
    await seeder.close();
    await service.sql.query('ANALYZE');
    const ds = new DataSource({ type: 'postgres', url: service.databaseUrl });
    await ds.initialize();
    const orig = ds.query.bind(ds);
    let explained = 0;
    ds.query = async (sql, p) => { const t0 = performance.now(); const r = await orig(sql, p); const ms = performance.now() - t0; console.log(ms.toFixed(2), sql.replace(/\s+/g, ' ').slice(0, 90));
      if (ms > 2 && explained++ < 3) { const e = await orig('EXPLAIN (ANALYZE, BUFFERS) ' + sql, p); console.log(e.map((x) => x['QUERY PLAN']).join('\n')); }
      return r; };
    const feeds = new FeedQueries(ds);
    const q = { status: 'all', archived: 'exclude', mode: 'rich', page_size: 50 };
    for (let i = 0; i < 3; i++) { const t0 = performance.now(); const r = await feeds.read('development', 'reader', channel.id, q); console.log('read', (performance.now() - t0).toFixed(1), JSON.stringify(r).length); }
    await ds.destroy();
  } finally { await service.stop(); }
})();
