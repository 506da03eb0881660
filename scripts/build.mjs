#!/usr/bin/env node
// Builds the JavaScript that `npm start` runs, without type-checking (that is `npm test`'s job):
// esbuild transpiles each changed source file on its own into the package's dist/src, where the
// packages' `exports` look for it (`tsc -b` writes only the declarations beside it). A stamp per package
// records each source's size and mtime; a start with nothing changed reads the stamps and stops.
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { build } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** The packages the executables load at run time, in dependency order. */
const PACKAGES = ['core', 'adapters-persistence', 'adapters-broker', 'adapters-http', 'channel-runtime', 'backend'];
const STAMP = '.build-stamp.json';

function sourcesOf(srcDir) {
  return readdirSync(srcDir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts') && !e.name.endsWith('.d.ts'))
    .map((e) => path.relative(srcDir, path.join(e.parentPath ?? e.path, e.name)))
    .sort();
}

function readStamp(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return {};
  }
}

async function buildPackage(name) {
  const pkgDir = path.join(root, 'packages', name);
  const srcDir = path.join(pkgDir, 'src');
  const outDir = path.join(pkgDir, 'dist', 'src');
  const stampFile = path.join(pkgDir, 'dist', STAMP);
  const before = readStamp(stampFile);
  const now = {};
  const changed = [];
  for (const rel of sourcesOf(srcDir)) {
    const st = statSync(path.join(srcDir, rel));
    const key = `${st.size}:${Math.trunc(st.mtimeMs)}`;
    now[rel] = key;
    const out = path.join(outDir, rel.replace(/\.ts$/, '.js'));
    if (before[rel] !== key || !existsSync(out)) changed.push(rel);
  }
  // A source that is gone takes its output with it, so nothing can import a stale module.
  for (const rel of Object.keys(before)) {
    if (now[rel]) continue;
    const out = path.join(outDir, rel.replace(/\.ts$/, '.js'));
    rmSync(out, { force: true });
    rmSync(`${out}.map`, { force: true });
  }
  if (changed.length > 0) {
    await build({
      entryPoints: changed.map((rel) => path.join(srcDir, rel)),
      outdir: outDir,
      outbase: srcDir,
      bundle: false,
      format: 'esm',
      platform: 'node',
      target: 'node20',
      sourcemap: true,
      logLevel: 'warning',
    });
  }
  mkdirSync(path.dirname(stampFile), { recursive: true });
  writeFileSync(stampFile, JSON.stringify(now));
  return changed.length;
}

/** The operator console's sources: any change rebuilds it whole (Vite, a few seconds). */
function consoleSources(dir) {
  const files = ['index.html', 'vite.config.ts', 'package.json'];
  for (const e of readdirSync(path.join(dir, 'src'), { recursive: true, withFileTypes: true })) {
    if (e.isFile()) files.push(path.relative(dir, path.join(e.parentPath ?? e.path, e.name)));
  }
  return Object.fromEntries(
    files.sort().map((rel) => {
      const st = statSync(path.join(dir, rel));
      return [rel, `${st.size}:${Math.trunc(st.mtimeMs)}`];
    }),
  );
}

/**
 * Builds the console with Vite into packages/console/dist/web when its sources changed, then writes
 * a Brotli and a gzip copy beside each text file, which the backend serves to browsers that accept them.
 */
async function buildConsole() {
  const dir = path.join(root, 'packages', 'console');
  if (!existsSync(dir)) return 0;
  const outDir = path.join(dir, 'dist', 'web');
  const stampFile = path.join(dir, 'dist', STAMP);
  const now = consoleSources(dir);
  if (JSON.stringify(readStamp(stampFile)) === JSON.stringify(now) && existsSync(path.join(outDir, 'index.html'))) return 0;
  const vite = await import('vite');
  await vite.build({ root: dir, configFile: path.join(dir, 'vite.config.ts'), logLevel: 'warn' });
  const brotli = promisify(brotliCompress);
  const gz = promisify(gzip);
  for (const e of readdirSync(outDir, { recursive: true, withFileTypes: true })) {
    if (!e.isFile() || !/\.(js|css|html|svg|json)$/.test(e.name)) continue;
    const file = path.join(e.parentPath ?? e.path, e.name);
    const data = readFileSync(file);
    if (data.length < 1024) continue;
    writeFileSync(`${file}.br`, await brotli(data, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: data.length } }));
    writeFileSync(`${file}.gz`, await gz(data, { level: 9 }));
  }
  writeFileSync(stampFile, JSON.stringify(now));
  return Object.keys(now).length;
}

const started = performance.now();
let files = 0;
try {
  for (const name of PACKAGES) files += await buildPackage(name);
} catch {
  // esbuild has printed each syntax error with its file and line; a stack trace would add nothing.
  console.error('build failed: the errors above name the files');
  process.exit(1);
}
try {
  files += await buildConsole();
} catch (err) {
  // Vite prints only that it failed: its error names the file and the import or syntax at fault.
  console.error(`console build failed: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
}
if (files > 0 || process.argv.includes('--verbose')) {
  const ms = Math.round(performance.now() - started);
  const mb = Math.round(process.resourceUsage().maxRSS / 1024);
  console.error(`build: ${files} file${files === 1 ? '' : 's'} transpiled in ${ms} ms, peak memory ${mb} MB`);
}
