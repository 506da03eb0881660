import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';

const ROOT = new URL('../../../../', import.meta.url).pathname;
const ADAPTERS = ['adapters-http', 'adapters-broker', 'adapters-persistence'];
/** Only composition roots know inversify and every adapter. */
const COMPOSITION_ROOTS = ['backend', 'channel-runtime'];

function sourceFiles(dir: string): string[] {
  let out: string[] = [];
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) out = out.concat(sourceFiles(full));
    else if (/\.tsx?$/.test(name) && !name.endsWith('.d.ts')) out.push(full);
  }
  return out;
}

/** Module specifiers a file imports or re-exports (static and dynamic). */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const found: string[] = [];
  for (const m of text.matchAll(
    /(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|(?:^|\n)\s*import\s+['"]([^'"]+)['"]/g,
  )) {
    found.push(m[1] ?? m[2] ?? m[3]!);
  }
  return found;
}

function packageJson(pkg: string) {
  return JSON.parse(readFileSync(path.join(ROOT, 'packages', pkg, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> };
}

describe('Architecture: the dependency rule', () => {
  it('core source imports nothing outside itself but node built-ins', () => {
    for (const file of sourceFiles(path.join(ROOT, 'packages/core/src'))) {
      for (const spec of importsOf(file)) {
        expect(spec.startsWith('.') || spec.startsWith('node:'), `${path.relative(ROOT, file)} imports ${spec}`).to.equal(true);
      }
    }
    expect(Object.keys(packageJson('core').dependencies ?? {})).to.deep.equal([]);
  });

  it('no adapter imports or depends on a sibling adapter, a composition root, or inversify', () => {
    for (const pkg of ADAPTERS) {
      const forbidden = [...ADAPTERS.filter((a) => a !== pkg), ...COMPOSITION_ROOTS].map((a) => `@servicedesk/${a}`).concat(['inversify', 'reflect-metadata']);
      for (const dep of Object.keys(packageJson(pkg).dependencies ?? {})) expect(forbidden, `${pkg} depends on ${dep}`).to.not.include(dep);
      for (const file of [...sourceFiles(path.join(ROOT, 'packages', pkg, 'src')), ...sourceFiles(path.join(ROOT, 'packages', pkg, 'test'))]) {
        for (const spec of importsOf(file)) {
          const name = spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!;
          expect(forbidden, `${path.relative(ROOT, file)} imports ${spec}`).to.not.include(name);
          expect(spec.includes('../../../'), `${path.relative(ROOT, file)} reaches into another package: ${spec}`).to.equal(false);
        }
      }
    }
  });

  it('the checker itself sees imports (it would catch a violation)', () => {
    const sample = sourceFiles(path.join(ROOT, 'packages/adapters-http/src')).flatMap(importsOf);
    expect(sample).to.include('@servicedesk/core');
    expect(sample).to.include('koa');
  });
});

/** The folders of a package's src and the folders each one imports (relative imports only). */
function folderGraph(pkg = 'core'): Map<string, Set<string>> {
  const src = path.join(ROOT, 'packages', pkg, 'src');
  const graph = new Map<string, Set<string>>();
  for (const file of sourceFiles(src)) {
    const folder = path.relative(src, path.dirname(file)).split(path.sep)[0]!;
    if (!folder) continue; // the files at the root (application.ts, index.ts, a server) compose everything
    const edges = graph.get(folder) ?? new Set<string>();
    graph.set(folder, edges);
    for (const spec of importsOf(file).filter((s) => s.startsWith('.'))) {
      const target = path.relative(src, path.resolve(path.dirname(file), spec)).split(path.sep)[0]!;
      if (target && target !== folder && !/\.(js|ts|tsx)$/.test(target)) edges.add(target);
    }
  }
  return graph;
}

/** Every strongly connected set of more than one folder (Tarjan): each is a cycle. */
function cycles(graph: Map<string, Set<string>>): string[][] {
  let index = 0;
  const stack: string[] = [];
  const meta = new Map<string, { index: number; low: number; onStack: boolean }>();
  const found: string[][] = [];
  const visit = (v: string) => {
    meta.set(v, { index, low: index, onStack: true });
    index++;
    stack.push(v);
    for (const w of graph.get(v) ?? []) {
      if (!meta.has(w)) {
        visit(w);
        meta.get(v)!.low = Math.min(meta.get(v)!.low, meta.get(w)!.low);
      } else if (meta.get(w)!.onStack) {
        meta.get(v)!.low = Math.min(meta.get(v)!.low, meta.get(w)!.index);
      }
    }
    if (meta.get(v)!.low === meta.get(v)!.index) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        meta.get(w)!.onStack = false;
        component.push(w);
      } while (w !== v);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!meta.has(v)) visit(v);
  return found;
}

/**
 * Composition layers: they import every feature folder, and no feature folder imports them.
 * `events` gathers every feature's realtime events into one union; features type their publishers
 * with their own events, so none of them needs it.
 */
const COMPOSITION_FOLDERS = ['compose', 'in-memory', 'events'];

describe('Architecture: folders', () => {
  it('import each other without cycles', () => {
    const graph = folderGraph();
    const found = cycles(graph);
    const describe = (c: string[]) => c.map((f) => `${f} → ${[...graph.get(f)!].filter((t) => c.includes(t)).join(', ')}`).join('; ');
    expect(found.map(describe), 'folders that import each other in a circle').to.deep.equal([]);
  });

  it('in every package, import each other without cycles', () => {
    const packages = readdirSync(path.join(ROOT, 'packages')).filter((p) => statSync(path.join(ROOT, 'packages', p, 'src'), { throwIfNoEntry: false }));
    expect(packages).to.include.members(['core', 'adapters-http', 'adapters-persistence', 'adapters-broker', 'channel-runtime', 'backend', 'console']);
    const found: string[] = [];
    for (const pkg of packages) {
      const graph = folderGraph(pkg);
      for (const c of cycles(graph)) found.push(`${pkg}: ${c.map((f) => `${f} → ${[...graph.get(f)!].filter((t) => c.includes(t)).join(', ')}`).join('; ')}`);
    }
    expect(found, 'folders that import each other in a circle').to.deep.equal([]);
  });

  it('never import a composition layer from a feature folder', () => {
    for (const [folder, edges] of folderGraph()) {
      if (COMPOSITION_FOLDERS.includes(folder)) continue;
      for (const c of COMPOSITION_FOLDERS) expect(edges.has(c), `${folder} imports ${c}`).to.equal(false);
    }
  });

  it('the cycle finder finds a cycle (it would catch one)', () => {
    const graph = new Map([
      ['a', new Set(['b'])],
      ['b', new Set(['c'])],
      ['c', new Set(['a'])],
      ['d', new Set(['a'])],
    ]);
    expect(cycles(graph)).to.deep.equal([['a', 'b', 'c']]);
  });
});
