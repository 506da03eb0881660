import { createRequire } from 'node:module';
import { writeFileSync } from 'node:fs';
const require = createRequire(process.cwd() + '/');
const pg = require('pg');
const counts = new Map();
const orig = pg.Client.prototype.query;
pg.Client.prototype.query = function (q, ...rest) {
  const text = typeof q === 'string' ? q : q?.text;
  const k = (text ?? '').replace(/\s+/g, ' ').slice(0, 160);
  counts.set(k, (counts.get(k) ?? 0) + 1);
  return orig.call(this, q, ...rest);
};
process.on('SIGUSR2', () => {
  writeFileSync(`/tmp/queries-${process.pid}.json`, JSON.stringify([...counts].sort((a, b) => b[1] - a[1]), null, 1));
  counts.clear();
});
