import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import ts from 'typescript';

const ROOT = new URL('../../../../', import.meta.url).pathname;
const CORE = path.join(ROOT, 'packages/core/src');
/** The production in-process broker and the fakes publish as adapters do; they are not use cases. */
const NOT_USE_CASES = path.join(CORE, 'in-memory');

/** A use case may take this many dependencies; past it, it is split or takes a cohesive port. */
const MOST_DEPENDENCIES = 8;

/**
 * The use cases over the limit, `file:Class` → how many dependencies they take: none today (the
 * last were split into collaborators of one job each). A ratchet: none may be added.
 */
const OVER_THE_LIMIT: Record<string, number> = {};

/** `realtime.publish(` call sites in core (fakes aside). A ratchet too: it may only fall. */
const PUBLISH_CALL_SITES = 95;

function sourceFiles(dir: string): string[] {
  let out: string[] = [];
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) {
      if (full !== NOT_USE_CASES) out = out.concat(sourceFiles(full));
    } else if (name.endsWith('.ts') && !name.endsWith('.d.ts')) out.push(full);
  }
  return out;
}

/**
 * Every class whose constructor takes a `deps` parameter, with the number of members of that
 * parameter's type as the type checker resolves it (named aliases, intersections, Pick and Omit
 * included). `sources` maps a file to its text; files it does not hold are read from disk.
 */
export function dependencyCounts(files: readonly string[], sources: ReadonlyMap<string, string> = new Map()): Map<string, number> {
  const options: ts.CompilerOptions = {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    types: [],
    lib: ['lib.es2023.d.ts'],
  };
  const host = ts.createCompilerHost(options);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (name, version, onError) => {
    const text = sources.get(name);
    return text === undefined ? getSourceFile(name, version, onError) : ts.createSourceFile(name, text, version, true);
  };
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (name) => sources.has(name) || fileExists(name);
  const program = ts.createProgram(files, options, host);
  const checker = program.getTypeChecker();
  const counts = new Map<string, number>();
  for (const file of files) {
    const sf = program.getSourceFile(file);
    if (!sf) continue;
    const visit = (node: ts.Node): void => {
      if (ts.isClassDeclaration(node) && node.name) {
        const ctor = node.members.find(ts.isConstructorDeclaration);
        const deps = ctor?.parameters.find((p) => ts.isIdentifier(p.name) && p.name.text === 'deps');
        if (deps) {
          const type = checker.getTypeAtLocation(deps);
          counts.set(`${path.relative(CORE, file)}:${node.name.text}`, checker.getPropertiesOfType(checker.getNonNullableType(type)).length);
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(sf);
  }
  return counts;
}

/** `realtime.publish(` call sites in these texts. */
export function publishCallSites(texts: readonly string[]): number {
  return texts.reduce((sum, text) => sum + [...text.matchAll(/realtime\.publish\(/g)].length, 0);
}

/** What breaks the ratchet: a use case newly over the limit, a listed one that grew, more publish calls. */
export function ratchetBreaches(
  counts: ReadonlyMap<string, number>,
  publishes: number,
  allowed = OVER_THE_LIMIT,
  allowedPublishes = PUBLISH_CALL_SITES,
): string[] {
  const out: string[] = [];
  for (const [name, count] of counts) {
    if (count <= MOST_DEPENDENCIES) continue;
    const listed = allowed[name];
    if (listed === undefined) out.push(`${name} takes ${count} dependencies (at most ${MOST_DEPENDENCIES}): split it or give it a cohesive port`);
    else if (count > listed) out.push(`${name} takes ${count} dependencies, more than the ${listed} it took`);
  }
  if (publishes > allowedPublishes) out.push(`core has ${publishes} realtime.publish( call sites, more than ${allowedPublishes}`);
  return out;
}

describe('Architecture: use cases with many dependencies (a ratchet)', () => {
  const files = sourceFiles(CORE);
  let counts: Map<string, number>;
  before(function () {
    this.timeout(120_000);
    counts = dependencyCounts(files);
  });

  it('no core use case takes more than 8 dependencies but those listed, and none of those takes more than before', () => {
    expect(counts.size, 'use cases found').to.be.greaterThan(100);
    expect(ratchetBreaches(counts, 0)).to.deep.equal([]);
  });

  it('core does not call realtime.publish( more often than before', () => {
    const publishes = publishCallSites(files.map((f) => readFileSync(f, 'utf8')));
    expect(ratchetBreaches(new Map(), publishes)).to.deep.equal([]);
  });

  it('the listed figures are today’s (lower them as a use case is reduced)', () => {
    const stale = Object.entries(OVER_THE_LIMIT).filter(([name, listed]) => (counts.get(name) ?? 0) < listed);
    expect(
      stale.map(([name, listed]) => `${name}: listed ${listed}, takes ${counts.get(name) ?? 'no longer exists'}`),
      'lower these entries',
    ).to.deep.equal([]);
    expect(publishCallSites(files.map((f) => readFileSync(f, 'utf8'))), 'publish call sites: lower PUBLISH_CALL_SITES').to.equal(PUBLISH_CALL_SITES);
  });

  it('the checker resolves a deps type and reports a use case over the limit, a listed one that grew and more publishes', () => {
    const file = path.join(CORE, 'synthetic/too-many.ts');
    const text = `
      type Clock = { now(): Date };
      interface Base { a: Clock; b: Clock; c: Clock; d: Clock }
      type Deps = Base & { e: Clock; f: Clock; g?: Clock };
      export class Small { constructor(private readonly deps: Pick<Deps, 'a' | 'b'>) {} }
      export class Wide { constructor(private readonly deps: Deps & { h: Clock; i: Clock }) {} }
      export class Grown { constructor(private readonly deps: Omit<Deps, 'a'> & { x: Clock; y: Clock; z: Clock }) {} }
      export class NoDeps { constructor(private readonly clock: Clock) {} }
      export function f(realtime: { publish(n: number): void }) { realtime.publish(1); realtime.publish(2); }
    `;
    const synthetic = dependencyCounts([file], new Map([[file, text]]));
    expect(Object.fromEntries(synthetic)).to.deep.equal({
      'synthetic/too-many.ts:Small': 2,
      'synthetic/too-many.ts:Wide': 9,
      'synthetic/too-many.ts:Grown': 9,
    });
    expect(publishCallSites([text])).to.equal(2);
    expect(ratchetBreaches(synthetic, 3, { 'synthetic/too-many.ts:Grown': 8 }, 2)).to.deep.equal([
      'synthetic/too-many.ts:Wide takes 9 dependencies (at most 8): split it or give it a cohesive port',
      'synthetic/too-many.ts:Grown takes 9 dependencies, more than the 8 it took',
      'core has 3 realtime.publish( call sites, more than 2',
    ]);
    expect(ratchetBreaches(synthetic, 2, { 'synthetic/too-many.ts:Wide': 9, 'synthetic/too-many.ts:Grown': 9 }, 2)).to.deep.equal([]);
  });
});
