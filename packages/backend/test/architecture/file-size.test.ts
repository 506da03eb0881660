import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';

const ROOT = new URL('../../../../', import.meta.url).pathname;
/** A file may hold several classes only while it stays this short. */
const MAX_LINES = 300;

function sourceFiles(dir: string): string[] {
  let out: string[] = [];
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) out = out.concat(sourceFiles(full));
    else if (/\.tsx?$/.test(name) && !name.endsWith('.d.ts') && name !== 'schema.gen.ts') out.push(full);
  }
  return out;
}

/** The `src` folders of every package and example. */
function sourceRoots(): string[] {
  const roots: string[] = [];
  for (const parent of ['packages', 'examples']) {
    const dir = path.join(ROOT, parent);
    for (const name of readdirSync(dir)) {
      const src = path.join(dir, name, 'src');
      if (statSync(path.join(dir, name)).isDirectory() && statSync(src, { throwIfNoEntry: false })?.isDirectory()) roots.push(src);
    }
  }
  return roots;
}

/** The classes a file declares at the start of a line (`class`, `export class`, `export default abstract class`…). */
function classesOf(text: string): string[] {
  return [...text.matchAll(/^[ \t]*(?:export[ \t]+)?(?:default[ \t]+)?(?:abstract[ \t]+)?class[ \t]+([A-Za-z_$][\w$]*)/gm)].map((m) => m[1]!);
}

/** Why the text breaks the rule, or null when it keeps it. */
function tooBigWithManyClasses(text: string): string | null {
  const lines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
  const classes = classesOf(text);
  return lines > MAX_LINES && classes.length > 1 ? `${lines} lines, ${classes.length} classes (${classes.join(', ')})` : null;
}

describe('Architecture: one class per file in the big source files', () => {
  it(`no source file over ${MAX_LINES} lines declares more than one class`, () => {
    const offenders: string[] = [];
    for (const root of sourceRoots()) {
      for (const file of sourceFiles(root)) {
        const why = tooBigWithManyClasses(readFileSync(file, 'utf8'));
        if (why) offenders.push(`${path.relative(ROOT, file)}: ${why}`);
      }
    }
    expect(sourceRoots().length, 'finds the packages').to.be.greaterThan(3);
    expect(offenders, 'split these so that each class has a file of its own').to.deep.equal([]);
  });

  it('the checker itself catches a file of two classes over the limit (and lets shorter or single-class ones be)', () => {
    const filler = Array.from({ length: MAX_LINES }, (_, i) => `  m${i}() {}`).join('\n');
    const two = `export class First {\n${filler}\n}\n\nclass Second {}\n`;
    expect(tooBigWithManyClasses(two)).to.match(/2 classes \(First, Second\)/);
    expect(tooBigWithManyClasses(`export abstract class A {}\nexport default class B {}\n${'\n'.repeat(MAX_LINES)}`)).to.not.equal(null);
    expect(tooBigWithManyClasses(`export class Only {\n${filler}\n}\n`)).to.equal(null);
    expect(tooBigWithManyClasses('export class A {}\nclass B {}\n')).to.equal(null);
    expect(tooBigWithManyClasses(`// a class is not one\nconst s = 'class X {}';\n${filler}\nclass Y {}\n`)).to.equal(null);
  });
});
