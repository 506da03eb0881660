// Mocha root hooks (.mocharc.json `require`): at the end of a run, print the ten slowest tests and
// the ten files that took the most wall-clock time (their hooks included), so the suite's time
// stays visible as it grows. Set TEST_TIMINGS=0 to leave them out, TEST_TIMINGS_FILE=<path> to
// have every file's time written there as JSON.
import { writeFileSync } from 'node:fs';
import path from 'node:path';

const tests = [];
const files = new Map();
let last = Date.now();
const started = last;

export const mochaHooks = {
  afterEach() {
    const now = Date.now();
    const test = this.currentTest;
    if (test) {
      const file = test.file ? path.relative(process.cwd(), test.file) : '(unknown)';
      tests.push({ title: test.fullTitle(), file, ms: test.duration ?? 0 });
      files.set(file, (files.get(file) ?? 0) + (now - last));
    }
    last = now;
  },
  afterAll() {
    if (process.env.TEST_TIMINGS === '0' || tests.length < 20) return;
    const seconds = (ms) => `${(ms / 1000).toFixed(1).padStart(6)} s`;
    const lines = ['', `  Timings (${tests.length} tests, ${seconds(Date.now() - started).trim()} in all)`, '  The ten slowest tests:'];
    for (const t of [...tests].sort((a, b) => b.ms - a.ms).slice(0, 10)) lines.push(`  ${seconds(t.ms)}  ${t.title} (${t.file})`);
    lines.push('  The ten slowest files (hooks included):');
    for (const [file, ms] of [...files].sort((a, b) => b[1] - a[1]).slice(0, 10)) lines.push(`  ${seconds(ms)}  ${file}`);
    console.log(lines.join('\n'));
    // Every file's time, for finding where the suite's time goes: TEST_TIMINGS_FILE=path.json.
    if (process.env.TEST_TIMINGS_FILE)
      writeFileSync(process.env.TEST_TIMINGS_FILE, JSON.stringify(Object.fromEntries([...files].sort((a, b) => b[1] - a[1])), null, 1));
  },
};
