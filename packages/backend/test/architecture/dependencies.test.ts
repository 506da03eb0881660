import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
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

/**
 * What a source text imports or re-exports (static and dynamic), each with whether it brings types
 * only: `import type` and `export type` leave nothing at run time (verbatimModuleSyntax), while
 * `import { type A }` still loads its module.
 */
function importEdgesIn(text: string): { spec: string; typeOnly: boolean }[] {
  const found: { spec: string; typeOnly: boolean }[] = [];
  for (const m of text.matchAll(
    /(?:^|\n)\s*(?:import|export)\s+(type\s+)?[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|(?:^|\n)\s*import\s+['"]([^'"]+)['"]/g,
  )) {
    found.push({ spec: m[2] ?? m[3] ?? m[4]!, typeOnly: m[1] !== undefined });
  }
  return found;
}

/** Module specifiers a file imports or re-exports (static and dynamic). */
function importsOf(file: string): string[] {
  return importEdgesIn(readFileSync(file, 'utf8')).map((e) => e.spec);
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

/**
 * The folders of a package's src (or of one of its folders, `under`) and the folders each one
 * imports there (relative imports only; what leaves `under` is the level above's business).
 */
function folderGraph(pkg = 'core', under = ''): Map<string, Set<string>> {
  const src = path.join(ROOT, 'packages', pkg, 'src', under);
  const graph = new Map<string, Set<string>>();
  for (const file of sourceFiles(src)) {
    const folder = path.relative(src, path.dirname(file)).split(path.sep)[0]!;
    if (!folder) continue; // the files at the root (application.ts, index.ts, a server) compose everything
    const edges = graph.get(folder) ?? new Set<string>();
    graph.set(folder, edges);
    for (const spec of importsOf(file).filter((s) => s.startsWith('.'))) {
      const relative = path.relative(src, path.resolve(path.dirname(file), spec));
      if (relative.startsWith('..')) continue;
      const target = relative.split(path.sep)[0]!;
      if (target && target !== folder && !/\.(js|ts|tsx)$/.test(target)) edges.add(target);
    }
  }
  return graph;
}

/** Every folder below `dir`, relative to it. */
function foldersBelow(dir: string, prefix = ''): string[] {
  return readdirSync(dir)
    .filter((name) => statSync(path.join(dir, name)).isDirectory())
    .flatMap((name) => [path.join(prefix, name), ...foldersBelow(path.join(dir, name), path.join(prefix, name))]);
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

  it('in every package, the folders inside a folder import each other without cycles', () => {
    const packages = readdirSync(path.join(ROOT, 'packages')).filter((p) => statSync(path.join(ROOT, 'packages', p, 'src'), { throwIfNoEntry: false }));
    const found: string[] = [];
    let levels = 0;
    for (const pkg of packages) {
      for (const under of foldersBelow(path.join(ROOT, 'packages', pkg, 'src'))) {
        const graph = folderGraph(pkg, under);
        if (graph.size > 1) levels++;
        for (const c of cycles(graph))
          found.push(`${pkg}/${under}: ${c.map((f) => `${f} → ${[...graph.get(f)!].filter((t) => c.includes(t)).join(', ')}`).join('; ')}`);
      }
    }
    expect(levels, 'folders holding more than one folder').to.be.greaterThan(0);
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

/** The source file a relative specifier names (`./x.js` is `x.ts` or `x.tsx`; a folder, its index), if it is one. */
function resolveSource(from: string, spec: string): string | undefined {
  const base = path.resolve(path.dirname(from), spec);
  const stem = base.replace(/\.jsx?$/, '');
  for (const candidate of [`${stem}.ts`, `${stem}.tsx`, base, path.join(base, 'index.ts'), path.join(base, 'index.tsx')])
    if (/\.tsx?$/.test(candidate) && existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  return undefined;
}

/** Each file of a package's src, relative to it, and the files it imports by path: true when every import of that file brings types only. */
function fileGraph(pkg: string): Map<string, Map<string, boolean>> {
  const src = path.join(ROOT, 'packages', pkg, 'src');
  const graph = new Map<string, Map<string, boolean>>();
  for (const file of sourceFiles(src)) {
    const edges = new Map<string, boolean>();
    graph.set(path.relative(src, file), edges);
    for (const { spec, typeOnly } of importEdgesIn(readFileSync(file, 'utf8'))) {
      const target = spec.startsWith('.') ? resolveSource(file, spec) : undefined;
      if (!target || !target.startsWith(src + path.sep)) continue;
      const key = path.relative(src, target);
      edges.set(key, (edges.get(key) ?? true) && typeOnly);
    }
  }
  return graph;
}

/**
 * The imports that lie on a circle of files and load a module at run time. A circle made of
 * `import type` alone is erased by the compiler; one with a run-time import makes which file runs
 * first depend on where the circle is entered. An edge lies on a circle when both its ends sit in
 * the same strongly connected set.
 */
function runtimeCircleEdges(graph: Map<string, Map<string, boolean>>): string[] {
  const components = cycles(new Map([...graph].map(([file, edges]) => [file, new Set([...edges.keys()].filter((t) => graph.has(t)))])));
  const found: string[] = [];
  for (const component of components) {
    const members = new Set(component);
    const runtime = component.flatMap((file) => [...graph.get(file)!].filter(([t, typeOnly]) => members.has(t) && !typeOnly).map(([t]) => `${file} → ${t}`));
    if (runtime.length) found.push(`${component.join(', ')}: ${runtime.join('; ')}`);
  }
  return found;
}

describe('Architecture: files', () => {
  it('in every package, import each other in a circle only through types', () => {
    const packages = readdirSync(path.join(ROOT, 'packages')).filter((p) => statSync(path.join(ROOT, 'packages', p, 'src'), { throwIfNoEntry: false }));
    const found: string[] = [];
    let files = 0;
    for (const pkg of packages) {
      const graph = fileGraph(pkg);
      files += graph.size;
      for (const circle of runtimeCircleEdges(graph)) found.push(`${pkg}: ${circle}`);
    }
    expect(files, 'source files read').to.be.greaterThan(500);
    expect(found, 'files in a circle of imports, with the imports that load a module at run time').to.deep.equal([]);
  });

  it('the import reader tells types-only imports from those that load a module', () => {
    const text = [
      "import type { A } from './a.js';",
      "import { type B } from './b.js';",
      "export type { C } from './c.js';",
      "export { d } from './d.js';",
      "import e, { type E } from './e.js';",
      "const f = await import('./f.js');",
      "import './g.css';",
    ].join('\n');
    expect(importEdgesIn(text)).to.deep.equal([
      { spec: './a.js', typeOnly: true },
      { spec: './b.js', typeOnly: false },
      { spec: './c.js', typeOnly: true },
      { spec: './d.js', typeOnly: false },
      { spec: './e.js', typeOnly: false },
      { spec: './f.js', typeOnly: false },
      { spec: './g.css', typeOnly: false },
    ]);
  });

  it('the circle check refuses a circle with one run-time import and lets one of types alone pass', () => {
    const graph = new Map<string, Map<string, boolean>>([
      ['events.ts', new Map([['view.ts', true]])],
      ['view.ts', new Map([['events.ts', true]])],
      [
        'manage.ts',
        new Map([
          ['tree.ts', false],
          ['events.ts', true],
        ]),
      ],
      ['tree.ts', new Map([['manage.ts', true]])],
      ['leaf.ts', new Map([['manage.ts', false]])],
    ]);
    expect(runtimeCircleEdges(graph)).to.deep.equal(['manage.ts, tree.ts: manage.ts → tree.ts']);
    graph.get('tree.ts')!.delete('manage.ts');
    expect(runtimeCircleEdges(graph)).to.deep.equal([]);
  });
});
