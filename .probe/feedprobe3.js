require('reflect-metadata');
const { startService } = require('/work/wt/messages/dist/bench/support/service.js');
const { Seeder } = require('/work/wt/messages/dist/bench/support/seed.js');
const { atRate, percentile } = require('/work/wt/messages/dist/bench/support/load.js');
(async () => {
  const service = await startService('probe');
  try {
    const [channel] = (await service.sql.query("SELECT id, key FROM rm_channels WHERE type = 'in_app_feed' ORDER BY created_at LIMIT 1")).rows;
    const seeder = await Seeder.open(service);
    await seeder.users(['reader', 'other0']);
    await seeder.inAppMessages(channel, ['reader'], 10000, 0.3);
    await seeder.close();
    await service.sql.query('ANALYZE');
    await new Promise((r) => setTimeout(r, 15000));
    const auth = { authorization: `Bearer ${service.secretKey}` };
    const url = `${service.url}/v1/users/reader/feeds/${channel.id}`;
    const mode = process.argv[2] || 'feed';
    const target = mode === 'user' ? `${service.url}/v1/users/reader` : url;
    const rec = [];
    const t0 = performance.now();
    await atRate(200, 10, async () => { const s = performance.now(); const r = await fetch(target, { headers: auth }); await r.arrayBuffer(); rec.push([s - t0, performance.now() - s]); });
    const l = rec.map((x) => x[1]);
    console.log(mode, 'p50', percentile(l, 50).toFixed(1), 'p90', percentile(l, 90).toFixed(1), 'p99', percentile(l, 99).toFixed(1), 'max', Math.max(...l).toFixed(1));
    console.log('slow starts (s):', rec.filter((x) => x[1] > 40).map((x) => (x[0] / 1000).toFixed(2) + ':' + x[1].toFixed(0)).slice(0, 40).join(' '));
  } finally { await service.stop(); }
})();
