#!/usr/bin/env node
// Prints how long the API reference at /docs takes to render in Chromium: from navigation to the
// operations list drawn (Swagger UI's first operation block visible), and to one operation opened,
// for a few loads in fresh browser profiles. Run it on an idle machine after `npm start` built the
// backend once: `node scripts/measure-docs.mjs` (Debian's chromium at /usr/bin/chromium).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CHROMIUM = '/usr/bin/chromium';
const LOADS = 5;
const main = path.join(root, 'packages/backend/dist/src/main.js');
if (!existsSync(main)) throw new Error('no built backend: run `npm start` (or `node scripts/build.mjs`) once first');
if (!existsSync(CHROMIUM)) throw new Error(`no browser at ${CHROMIUM}: install the chromium package`);

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

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'sd-docs-'));
const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const server = spawn(process.execPath, [main], {
  cwd: root,
  env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' },
  stdio: ['ignore', 'ignore', 'inherit'],
});
const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-background-networking', '--disable-component-update'] });
try {
  for (;;) {
    if (server.exitCode !== null) throw new Error(`the backend exited with code ${server.exitCode}`);
    if (
      await fetch(`${base}/version`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    await new Promise((r) => setTimeout(r, 100));
  }
  const size = (await (await fetch(`${base}/openapi.json`)).text()).length;
  const listed = [];
  const opened = [];
  for (let i = 0; i < LOADS; i++) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    const began = performance.now();
    await page.goto(`${base}/docs`);
    await page.locator('.opblock').first().waitFor({ timeout: 120_000 });
    listed.push(performance.now() - began);
    const at = performance.now();
    await page.locator('.opblock-summary').first().click();
    await page.locator('.opblock-body').first().waitFor({ timeout: 120_000 });
    opened.push(performance.now() - at);
    await context.close();
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const s = (ms) => `${(ms / 1000).toFixed(2)} s`;
  const load = os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
  console.log(`/openapi.json: ${(size / 1024).toFixed(0)} KB`);
  console.log(`/docs to the operations list: median ${s(median(listed))}, worst ${s(Math.max(...listed))} (${LOADS} loads, fresh profiles)`);
  console.log(`opening the first operation: median ${s(median(opened))}, worst ${s(Math.max(...opened))}`);
  console.log(`target: rendered in under 3 s · ${os.cpus().length} cores, load average ${load}`);
} finally {
  await browser.close();
  server.kill('SIGTERM');
  await new Promise((r) => server.once('exit', r));
  rmSync(dataDir, { recursive: true, force: true });
}
