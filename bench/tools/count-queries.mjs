// Preloaded into the backend and the runtime by tools/statements.ts (never by the bench itself):
// counts the SQL statements sent through `pg`, by shape, and writes them to
// $BENCH_STATEMENTS_DIR/<pid>.json (then starts over) when the process gets SIGUSR2.
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(path.join(process.cwd(), 'package.json'));
const pg = require('pg');
const counts = new Map();
const query = pg.Client.prototype.query;
pg.Client.prototype.query = function counted(config, ...rest) {
  const text = typeof config === 'string' ? config : config?.text;
  // The statement's shape: literals and numbers folded, so one query per row counts as one shape.
  const shape = String(text ?? '')
    .replace(/\s+/g, ' ')
    .replace(/'(?:[^']|'')*'/g, '?')
    .replace(/\b\d+\b/g, '?')
    .slice(0, 140);
  counts.set(shape, (counts.get(shape) ?? 0) + 1);
  return query.call(this, config, ...rest);
};
process.on('SIGUSR2', () => {
  writeFileSync(path.join(process.env.BENCH_STATEMENTS_DIR ?? '/tmp', `${process.pid}.json`), JSON.stringify([...counts].sort((a, b) => b[1] - a[1])));
  counts.clear();
});
