import pg from 'pg';
const c = new pg.Client({ connectionString: 'postgres://postgres@127.0.0.1:5432/postgres' });
await c.connect();
await c.query('create temp table if not exists x (a int)');
await c.query('create table if not exists bench_fsync_probe (a int)');
for (const mode of ['on', 'off']) {
  await c.query(`set synchronous_commit = ${mode}`);
  const t0 = performance.now();
  for (let i = 0; i < 100; i++) { await c.query('begin'); await c.query('insert into bench_fsync_probe values ($1)', [i]); await c.query('commit'); }
  console.log('synchronous_commit', mode, ((performance.now() - t0) / 100).toFixed(2), 'ms per commit');
}
await c.query('drop table bench_fsync_probe');
const s = await c.query("select name, setting from pg_settings where name in ('fsync','synchronous_commit','wal_sync_method','shared_buffers','commit_delay')");
console.log(s.rows);
await c.end();
