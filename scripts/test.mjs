// `npm test`'s test step: every test file of every package and example, split between mocha
// processes that run side by side (TEST_JOBS, default 2: this kind of machine has 2 cores). Most of
// the suite's time is spent waiting (browsers, backends started as processes, kill -9 and restart), so
// two processes take about half the wall-clock time of one. Each process gets a share of the files
// of about the same weight (scripts/test-weights.json: seconds per file from a run with
// TEST_TIMINGS_FILE; a file not listed weighs 1 s), its output is kept in a file and printed whole
// when it ends, so the reports do not interleave. Exits non-zero when any process fails.
// TEST_JOBS=1 runs one mocha over everything, as `npm run test:unit` does.
//
// The type-check (`tsc -b`, declarations only: esbuild writes the JavaScript) runs beside the mocha
// processes instead of before them: it is one core for about a minute and a half that the
// suite's waits leave free. A test that reads the declarations it writes waits for it through
// SERVICEDESK_TYPECHECK_DONE (a file holding tsc's exit code once it ended); a failed type-check fails
// the run after the reports.
import { spawn } from 'node:child_process';
import { createWriteStream, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const jobs = Math.max(1, Number(process.env.TEST_JOBS ?? 2) || 1);

/** Every `*.test.ts` under the `test/` folder of each package and example, relative to the root. */
function testFiles() {
  const found = [];
  const walk = (dir) => {
    for (const name of readdirSync(dir)) {
      const full = path.join(dir, name);
      if (name === 'node_modules') continue;
      if (statSync(full).isDirectory()) walk(full);
      else if (name.endsWith('.test.ts')) found.push(path.relative(ROOT, full));
    }
  };
  for (const parent of ['packages', 'examples']) {
    for (const name of readdirSync(path.join(ROOT, parent))) {
      const test = path.join(ROOT, parent, name, 'test');
      if (statSync(test, { throwIfNoEntry: false })?.isDirectory()) walk(test);
    }
  }
  return found.sort();
}

/** The files in `jobs` shares of about equal weight: the heaviest first, each to the lightest share. */
function shares(files) {
  const weights = JSON.parse(readFileSync(path.join(ROOT, 'scripts/test-weights.json'), 'utf8'));
  const out = Array.from({ length: jobs }, () => ({ files: [], weight: 0 }));
  const weight = (f) => weights[f] ?? 1;
  for (const file of [...files].sort((a, b) => weight(b) - weight(a) || a.localeCompare(b))) {
    const lightest = out.reduce((min, s) => (s.weight < min.weight ? s : min));
    lightest.files.push(file);
    lightest.weight += weight(file);
  }
  // Mocha runs a share's files in the order given: keep the repository's order within each.
  return out.filter((s) => s.files.length).map((s) => ({ ...s, files: s.files.sort() }));
}

// `node scripts/test.mjs --refresh-weights <timings.json>`: the weights from a run's TEST_TIMINGS_FILE.
if (process.argv[2] === '--refresh-weights') {
  const timings = JSON.parse(readFileSync(process.argv[3], 'utf8'));
  const weights = Object.entries(timings)
    .filter(([file]) => file.endsWith('.test.ts'))
    .map(([file, ms]) => [file, Math.max(1, Math.round(ms / 1000))])
    .sort(([a], [b]) => a.localeCompare(b));
  writeFileSync(path.join(ROOT, 'scripts/test-weights.json'), `${JSON.stringify(Object.fromEntries(weights), null, 2)}\n`);
  console.log(`wrote the weights of ${weights.length} files`);
  process.exit(0);
}

const mocha = path.join(ROOT, 'node_modules/mocha/bin/mocha.js');
const tsc = path.join(ROOT, 'node_modules/typescript/bin/tsc');
const started = Date.now();

/** `tsc -b` over the repository, its output kept; resolves with its exit code and output once it ends. */
function typecheck(stdio) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [tsc, '-b'], { cwd: ROOT, stdio: stdio === 'inherit' ? 'inherit' : 'pipe' });
    let output = '';
    child.stdout?.on('data', (d) => {
      output += d;
    });
    child.stderr?.on('data', (d) => {
      output += d;
    });
    child.on('exit', (code, signal) => resolve({ code: code ?? (signal ? 1 : 0), output, seconds: ((Date.now() - started) / 1000).toFixed(0) }));
  });
}

if (jobs === 1) {
  const checked = await typecheck('inherit');
  if (checked.code !== 0) process.exit(checked.code);
  const child = spawn(process.execPath, [mocha, ...testFiles()], { cwd: ROOT, stdio: 'inherit' });
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
} else {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'servicedesk-test-'));
  const typecheckDone = path.join(dir, 'typecheck-exit-code');
  const typechecked = typecheck('pipe').then((result) => {
    writeFileSync(typecheckDone, String(result.code));
    console.log(`\n===== type-check (tsc -b) ended after ${result.seconds} s: ${result.code === 0 ? 'no errors' : `exit code ${result.code}`} =====`);
    process.stdout.write(result.output);
    return result;
  });
  const list = shares(testFiles());
  console.log(
    `Running ${list.reduce((n, s) => n + s.files.length, 0)} test files in ${list.length} mocha processes (TEST_JOBS=${jobs}); their reports follow as each ends.`,
  );
  const results = await Promise.all(
    list.map(
      (share, i) =>
        new Promise((resolve) => {
          const log = path.join(dir, `share-${i + 1}.log`);
          const out = createWriteStream(log);
          // Colours only when the reports are printed to a terminal, as mocha itself decides.
          const child = spawn(process.execPath, [mocha, process.stdout.isTTY ? '--color' : '--no-color', ...share.files], {
            cwd: ROOT,
            env: { ...process.env, SERVICEDESK_TYPECHECK_DONE: typecheckDone },
          });
          child.stdout.pipe(out);
          child.stderr.pipe(out);
          child.on('exit', (code, signal) => {
            out.end(() => {
              const seconds = ((Date.now() - started) / 1000).toFixed(0);
              console.log(
                `\n===== share ${i + 1} of ${list.length}: ${share.files.length} files, ended after ${seconds} s with ${signal ?? `exit code ${code}`} =====`,
              );
              process.stdout.write(readFileSync(log));
              resolve({ code: code ?? 1, text: readFileSync(log, 'utf8') });
            });
          });
        }),
    ),
  );
  const count = (word) => results.reduce((n, r) => n + Number(r.text.match(new RegExp(`^\\s+(\\d+) ${word}`, 'm'))?.[1] ?? 0), 0);
  const failed = results.filter((r) => r.code !== 0).length;
  const checked = await typechecked;
  // CI keeps the end of a long log: the failures of every share again, last, where they are read.
  for (const [i, r] of results.entries()) {
    const at = r.text.search(/^\s+\d+ failing/m);
    if (at < 0) continue;
    const lines = r.text.slice(at).split('\n');
    console.log(`\n===== the failures of share ${i + 1} again =====`);
    console.log(lines.slice(0, 150).join('\n') + (lines.length > 150 ? `\n… ${lines.length - 150} more lines in share ${i + 1}'s report above` : ''));
  }
  console.log(
    `\nAll shares: ${count('passing')} passing, ${count('failing')} failing, ${count('pending')} pending in ${((Date.now() - started) / 1000).toFixed(0)} s` +
      (failed ? ` (${failed} of ${results.length} mocha processes failed)` : '') +
      (checked.code === 0 ? '; type-check clean' : '; THE TYPE-CHECK FAILED (its output is above)'),
  );
  process.exit(failed || checked.code !== 0 ? 1 : 0);
}
