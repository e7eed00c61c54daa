require('reflect-metadata');
const { startService } = require('/work/wt/messages/dist/bench/support/service.js');
const { Seeder } = require('/work/wt/messages/dist/bench/support/seed.js');
(async () => {
  const service = await startService('probe');
  try {
    const [channel] = (await service.sql.query("SELECT id, key FROM rm_channels WHERE type = 'in_app_feed' ORDER BY created_at LIMIT 1")).rows;
    const seeder = await Seeder.open(service);
    await seeder.users(['reader', 'other0']);
    await seeder.inAppMessages(channel, ['reader'], 10000, 0.3);
    await seeder.close();
    await service.sql.query('ANALYZE');
    const auth = { authorization: `Bearer ${service.secretKey}` };
    const url = `${service.url}/v1/users/reader/feeds/${channel.id}`;
    for (let i = 0; i < 30; i++) { const t0 = performance.now(); const r = await fetch(url, { headers: auth }); await r.arrayBuffer(); console.log('feed', r.status, (performance.now() - t0).toFixed(1)); }
    for (let i = 0; i < 3; i++) { const t0 = performance.now(); const r = await fetch(`${service.url}/v1/users/reader`, { headers: auth }); await r.arrayBuffer(); console.log('user', r.status, (performance.now() - t0).toFixed(1)); }
    const q = async (sql, p) => { const r = await service.sql.query('EXPLAIN ANALYZE ' + sql, p); console.log(r.rows.map((x) => x['QUERY PLAN']).join('\n')); };
    await q(`SELECT m.id FROM rm_messages m WHERE m.environment = $1 AND m.recipient_type = $2 AND m.recipient_id = $3 AND m.channel_id = $4 AND m.channel_type = $5 AND m.archived_at IS NULL ORDER BY m.inserted_at DESC, m.id DESC LIMIT 51`, ['development', 'user', 'reader', channel.id, 'in_app_feed']);
    await q(`SELECT * FROM rm_variables`, []);
    console.log(JSON.stringify((await service.sql.query('SELECT * FROM projection_checkpoints')).rows.map(r => [r.name, r.events_applied])));
  } finally { await service.stop(); }
})();
