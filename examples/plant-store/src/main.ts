import { mkdir } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { InMemoryPlants } from './adapters/in-memory-plants.js';
import { pgliteClient, pgPoolClient } from './adapters/sql-client.js';
import { SqlPlants } from './adapters/sql-plants.js';
import type { NewPlant } from './core/plant.js';
import type { Plants } from './core/plants-port.js';
import { createPlantStoreApp } from './http/app.js';

const DEFAULT_TOKEN = 'plant-store-demo-token';

const DEMO_PLANTS: NewPlant[] = [
  { name: 'Monstera', tag: 'tropical' },
  { name: 'Fern', tag: 'shade' },
  { name: 'Cactus', tag: 'succulent' },
  { name: 'Lavender', tag: 'herb' },
  { name: 'Snake plant' },
];

interface Storage {
  plants: Plants;
  label: string;
  close(): Promise<void>;
}

// Composition root: the only place that picks adapters, so the rest never reads the environment.
const port = parsePort(process.env['PLANT_STORE_PORT'] || '8090');
// Loopback by default: the demo token is public, so exposing it to the network must be a choice.
const host = process.env['PLANT_STORE_HOST'] || '127.0.0.1';
const token = process.env['PLANT_STORE_TOKEN'] || DEFAULT_TOKEN;

const storage = await openStorage();
// Seed only an empty store so restarts on persistent storage keep deletions.
if ((await storage.plants.list(1)).length === 0) {
  for (const plant of DEMO_PLANTS) await storage.plants.add(plant);
}

const server = createPlantStoreApp({ plants: storage.plants, token }).listen(port, host, () => {
  const { port: actualPort } = server.address() as AddressInfo;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${actualPort}`;
  // Print the token only when it is the public demo default, never a configured secret.
  const auth = token === DEFAULT_TOKEN ? DEFAULT_TOKEN : '$PLANT_STORE_TOKEN';
  console.log(`Plant store (${storage.label}) on ${url} — try: curl -H "Authorization: Bearer ${auth}" ${url}/plants (API doc: ${url}/openapi.json)`);
});

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    server.close(() => void storage.close().then(() => process.exit(0)));
    server.closeAllConnections();
  });
}

async function openStorage(): Promise<Storage> {
  const databaseUrl = process.env['PLANT_STORE_DATABASE_URL'];
  const dataDir = process.env['PLANT_STORE_DATA_DIR'];
  // Dynamic imports: only the chosen driver is loaded (PGlite's WebAssembly is sizeable).
  if (databaseUrl) {
    const { Pool } = await import('pg');
    const pool = new Pool({ connectionString: databaseUrl });
    // An idle client losing its connection must not crash the process; the pool reconnects.
    pool.on('error', (error) => console.error('PostgreSQL pool error:', error.message));
    return { plants: await SqlPlants.open(pgPoolClient(pool)), label: 'PostgreSQL', close: () => pool.end() };
  }
  if (dataDir) {
    const { PGlite } = await import('@electric-sql/pglite');
    const dir = resolve(dataDir);
    await mkdir(dir, { recursive: true });
    const db = new PGlite(dir);
    return { plants: await SqlPlants.open(pgliteClient(db)), label: `PGlite at ${dir}`, close: () => db.close() };
  }
  return { plants: new InMemoryPlants(), label: 'in-memory', close: async () => {} };
}

function parsePort(raw: string): number {
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || value > 65535) {
    console.error(`PLANT_STORE_PORT must be an integer from 0 to 65535, got "${raw}"`);
    process.exit(1);
  }
  return value;
}
