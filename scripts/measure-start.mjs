#!/usr/bin/env node
// Prints how long `npm start` takes to answer `GET /version`: cold (no build output, an empty data
// directory: the build, the migrations and the seed) and warm (everything already there), and the
// build's peak memory. Run it on an idle machine: `node scripts/measure-start.mjs`.
// It removes the executables' dist/ folders (`npm test`'s type-check writes their declarations again).
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const PACKAGES = ['core', 'adapters-persistence', 'adapters-broker', 'adapters-http', 'channel-runtime', 'backend'];

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

async function answers(url) {
  try {
    return (await fetch(url)).ok;
  } catch {
    return false;
  }
}

/** One `npm start` (build, then the backend) until `/version` answers; returns seconds and the build's report. */
async function start(dataDir) {
  const port = await freePort();
  const env = { ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' };
  const began = performance.now();
  const build = spawnSync(process.execPath, [path.join(root, 'scripts/build.mjs'), '--verbose'], { cwd: root, env, encoding: 'utf8' });
  if (build.status !== 0) throw new Error(`build failed:\n${build.stderr}`);
  const buildSeconds = (performance.now() - began) / 1000;
  const server = spawn(process.execPath, [path.join(root, 'packages/backend/dist/src/main.js')], { cwd: root, env, stdio: ['ignore', 'ignore', 'inherit'] });
  try {
    for (;;) {
      if (server.exitCode !== null) throw new Error(`the backend exited with code ${server.exitCode}`);
      if (await answers(`http://127.0.0.1:${port}/version`)) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    return { seconds: (performance.now() - began) / 1000, buildSeconds, buildReport: build.stderr.trim() };
  } finally {
    server.kill('SIGTERM');
    await new Promise((r) => server.once('exit', r));
  }
}

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'sd-start-'));
try {
  for (const name of PACKAGES) rmSync(path.join(root, 'packages', name, 'dist'), { recursive: true, force: true });
  const cold = await start(dataDir);
  const warm = await start(dataDir);
  const load = os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
  console.log(`cold start: /version answered after ${cold.seconds.toFixed(1)} s (build ${cold.buildSeconds.toFixed(1)} s: ${cold.buildReport})`);
  console.log(`warm start: /version answered after ${warm.seconds.toFixed(1)} s (build ${warm.buildSeconds.toFixed(1)} s)`);
  console.log(`targets: cold ≤ 60 s, warm ≤ 8 s, build peak memory ≤ 600 MB · ${os.cpus().length} cores, load average ${load}`);
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
