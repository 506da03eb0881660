import { completeSchema, openDatabase } from '@servicedesk/adapters-persistence';
import type { Container } from 'inversify';
import { createContainer } from './container.js';
import { inMemoryAdapters } from './in-memory-adapters.js';
import { pgliteAdapters } from './pglite-adapters.js';
import { runScenario, type ScenarioOutcome } from './scenario.js';

interface AdapterSet {
  readonly name: string;
  open(): Promise<{ container: Container; close(): Promise<void> }>;
}

const ADAPTER_SETS: AdapterSet[] = [
  { name: 'in-memory', open: async () => ({ container: createContainer(inMemoryAdapters), close: async () => undefined }) },
  {
    name: 'PGlite',
    open: async () => {
      // In-memory PGlite, owned by this Database: closing it stops the engine too.
      const db = await openDatabase(completeSchema());
      await db.migrate();
      return { container: createContainer(pgliteAdapters(db)), close: () => db.close() };
    },
  },
];

const results: Array<{ name: string; outcome: ScenarioOutcome; setupMs: number; scenarioMs: number }> = [];
for (const set of ADAPTER_SETS) {
  const t0 = performance.now();
  const { container, close } = await set.open();
  const t1 = performance.now();
  try {
    results.push({ name: set.name, outcome: await runScenario(container), setupMs: t1 - t0, scenarioMs: performance.now() - t1 });
  } finally {
    await close();
  }
}

const show = (v: unknown) => (Array.isArray(v) ? `${v.length} messages` : String(v));
const rows: string[][] = [['', ...results.map((r) => r.name)]];
const keys = Object.keys(results[0]!.outcome) as Array<keyof ScenarioOutcome>;
for (const key of keys) rows.push([key, ...results.map((r) => show(r.outcome[key]))]);
rows.push(['setup ms', ...results.map((r) => r.setupMs.toFixed(0))], ['scenario ms', ...results.map((r) => r.scenarioMs.toFixed(0))]);
const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)));
for (const row of rows)
  console.log(
    row
      .map((cell, i) => cell.padEnd(widths[i]!))
      .join('  ')
      .trimEnd(),
  );

console.log('\nConversation:');
for (const line of results[0]!.outcome.conversation) console.log(`  ${line}`);
const differing = keys.filter((k) => results.some((r) => JSON.stringify(r.outcome[k]) !== JSON.stringify(results[0]!.outcome[k])));
console.log(differing.length ? `\nThe adapter sets DISAGREE on: ${differing.join(', ')}` : '\nSame outcome on every adapter set.');
if (differing.length) process.exitCode = 1;
