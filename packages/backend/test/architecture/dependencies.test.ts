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
    else if (/\.ts$/.test(name) && !name.endsWith('.d.ts')) out.push(full);
  }
  return out;
}

/** Module specifiers a file imports or re-exports (static and dynamic). */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const found: string[] = [];
  for (const m of text.matchAll(/(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|(?:^|\n)\s*import\s+['"]([^'"]+)['"]/g)) {
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
