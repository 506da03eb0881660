#!/usr/bin/env node
// Builds the JavaScript that `npm start` runs, without type-checking (that is `npm test`'s job):
// esbuild transpiles each changed source file on its own into the package's dist/src, the layout
// `tsc -b` produces too, so either build serves the packages' `exports`. A stamp per package
// records each source's size and mtime; a start with nothing changed reads the stamps and stops.
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
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

const started = performance.now();
let files = 0;
try {
  for (const name of PACKAGES) files += await buildPackage(name);
} catch {
  // esbuild has printed each syntax error with its file and line; a stack trace would add nothing.
  console.error('build failed: the errors above name the files');
  process.exit(1);
}
if (files > 0 || process.argv.includes('--verbose')) {
  const ms = Math.round(performance.now() - started);
  const mb = Math.round(process.resourceUsage().maxRSS / 1024);
  console.error(`build: ${files} file${files === 1 ? '' : 's'} transpiled in ${ms} ms, peak memory ${mb} MB`);
}
