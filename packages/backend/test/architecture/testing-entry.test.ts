import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';

const ROOT = new URL('../../../../', import.meta.url).pathname;
const CORE_SRC = path.join(ROOT, 'packages/core/src');
/** Examples that run the core on its in-memory stores, as their READMEs say. */
const EXAMPLES_ON_FAKES = ['examples/embed-core/src', 'examples/swap-adapters/src'];

function sourceFiles(dir: string): string[] {
  let out: string[] = [];
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) out = out.concat(sourceFiles(full));
    else if (/\.tsx?$/.test(name) && !name.endsWith('.d.ts')) out.push(full);
  }
  return out;
}

/** The `src` folders of every package and example. */
function sourceRoots(): string[] {
  const roots: string[] = [];
  for (const parent of ['packages', 'examples']) {
    for (const name of readdirSync(path.join(ROOT, parent))) {
      const src = path.join(ROOT, parent, name, 'src');
      if (statSync(src, { throwIfNoEntry: false })?.isDirectory()) roots.push(src);
    }
  }
  return roots;
}

/** Module specifiers a source text imports or re-exports (static and dynamic). */
function importsIn(text: string): string[] {
  return [...text.matchAll(/(?:^|\n)\s*(?:import|export)\s+[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g)].map((m) => (m[1] ?? m[2])!);
}

/** A fake of core: a file of the in-memory folder or a feature's `in-memory-*` adapter. */
function isCoreFake(file: string): boolean {
  const rel = path.relative(CORE_SRC, file);
  return !rel.startsWith('..') && (rel.startsWith(`in-memory${path.sep}`) || path.basename(rel).startsWith('in-memory-'));
}

/** Why a source file breaks the rule, or null: only fakes, the testing entry and the listed examples reach the fakes. */
function reachesFakes(file: string, text: string): string | null {
  const rel = path.relative(ROOT, file);
  if (EXAMPLES_ON_FAKES.some((dir) => rel.startsWith(`${dir}/`))) return null;
  if (file === path.join(CORE_SRC, 'testing.ts') || isCoreFake(file)) return null;
  for (const spec of importsIn(text)) {
    if (spec === '@servicedesk/core/testing' || spec.startsWith('@servicedesk/core/in-memory/')) return `${rel} imports ${spec}`;
    if (spec.startsWith('.') && isCoreFake(path.resolve(path.dirname(file), spec).replace(/\.js$/, '.ts'))) return `${rel} imports the fake ${spec}`;
  }
  return null;
}

const isClass = (value: unknown) => typeof value === 'function' && Function.prototype.toString.call(value).startsWith('class');

describe('Architecture: the core fakes are reached only through @servicedesk/core/testing', () => {
  it('no production source imports a fake (the in-memory examples aside)', () => {
    const offenders: string[] = [];
    for (const root of sourceRoots()) {
      for (const file of sourceFiles(root)) {
        const why = reachesFakes(file, readFileSync(file, 'utf8'));
        if (why) offenders.push(why);
      }
    }
    expect(sourceRoots().length, 'finds the packages').to.be.greaterThan(3);
    expect(offenders).to.deep.equal([]);
  });

  it('the checker catches a production file that imports a fake, by path or through the testing entry', () => {
    const inCore = path.join(CORE_SRC, 'tickets/some-use-case.ts');
    expect(reachesFakes(inCore, "import { InMemoryTags } from '../in-memory/tags.js';")).to.match(/imports the fake/);
    expect(reachesFakes(inCore, "import { InMemoryCampaigns } from '../campaigns/in-memory-campaigns.js';")).to.match(/imports the fake/);
    const elsewhere = path.join(ROOT, 'packages/backend/src/some-wiring.ts');
    expect(reachesFakes(elsewhere, "import { FixedClock } from '@servicedesk/core/testing';")).to.match(/imports @servicedesk\/core\/testing/);
    expect(reachesFakes(elsewhere, "const m = await import('@servicedesk/core/in-memory/tags');")).to.match(/in-memory\/tags/);
    expect(reachesFakes(elsewhere, "import { InMemoryCache } from '@servicedesk/core';")).to.equal(null);
    expect(reachesFakes(path.join(CORE_SRC, 'in-memory/ports.ts'), "import { InMemorySchedules } from '../schedules/in-memory-schedules.js';")).to.equal(null);
  });

  // A feature's own in-memory-* adapter need not be listed in testing.ts (a new feature edits no more
  // lists than its module entries): the in-memory port set reaches it. The in-memory folder's are.
  it('the production entry exports nothing of a fake module, and the testing entry every class of the in-memory folder', async () => {
    const production = await import('@servicedesk/core');
    const testing: Record<string, unknown> = await import('@servicedesk/core/testing');
    const fakes = sourceFiles(CORE_SRC).filter(isCoreFake);
    expect(fakes.length, 'finds the fakes').to.be.greaterThan(30);
    let classes = 0;
    for (const file of fakes) {
      const module: Record<string, unknown> = await import(file);
      for (const [name, value] of Object.entries(module)) {
        const listed = isClass(value) && !path.basename(file).startsWith('in-memory-');
        if (listed) classes++;
        if (listed) expect(testing[name], `${path.relative(CORE_SRC, file)}: ${name} from the testing entry`).to.equal(value);
        expect(Object.values(production), `${path.relative(CORE_SRC, file)}: ${name} from the production entry`).to.not.include(value);
      }
    }
    expect(classes, 'finds the fake classes').to.be.greaterThan(80);
    expect(Object.keys(production)).to.include.members(['InMemoryCache', 'InProcessBroker', 'InProcessRealtimeFanout']);
  });

  it('the package closes the by-path route to the fakes', async () => {
    for (const spec of ['@servicedesk/core/in-memory/tags', '@servicedesk/core/campaigns/in-memory-campaigns', '@servicedesk/core/jobs/in-memory-job-store']) {
      const error = await import(spec).then(
        () => null,
        (err: NodeJS.ErrnoException) => err,
      );
      expect(error?.code, spec).to.equal('ERR_PACKAGE_PATH_NOT_EXPORTED');
    }
    const exports = JSON.parse(readFileSync(path.join(ROOT, 'packages/core/package.json'), 'utf8')).exports;
    expect(Object.keys(exports['./testing'])).to.deep.equal(Object.keys(exports['.']));
  });
});
