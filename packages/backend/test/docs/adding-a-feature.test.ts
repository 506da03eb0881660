import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, readlink, rm, symlink, unlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { expect } from 'chai';
import type { Feature } from '../../src/modules/feature.js';
import type { TestBackend } from '../support/test-backend.js';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const PAGE = 'docs/adding-a-feature.md';

interface Example {
  /** Where the block goes (a file of the repository), or `answers`. */
  readonly target: string;
  /** `(add)`: lines added to an existing file rather than a new file. */
  readonly adds: boolean;
  readonly code: string;
}

/** Every code block of the page marked `<!-- feature-example: <where> -->`, in page order. */
function examplesOf(markdown: string): Example[] {
  return [...markdown.matchAll(/<!-- feature-example: (\S+)( \(add\))? -->\n```[a-z]*\n([\s\S]*?)\n```/g)].map((m) => ({
    target: m[1]!,
    adds: Boolean(m[2]),
    code: `${m[3]!}\n`,
  }));
}

/**
 * A copy of the repository in a temporary directory that costs nothing: every directory on the way to
 * a written file is a real directory whose other entries are links to the repository's, so the page's
 * files sit beside the real ones (`../shared/errors.js` resolves) and load the very modules the
 * backend uses. `node_modules/@servicedesk` links to the copy's packages, so `@servicedesk/core/compose/…`
 * finds the page's new files too. Nothing is written into the checkout.
 */
async function overlay(scratch: string) {
  const made = new Set<string>();
  const dir = async (rel: string): Promise<void> => {
    if (made.has(rel)) return;
    if (rel) await dir(path.dirname(rel) === '.' ? '' : path.dirname(rel));
    const at = path.join(scratch, rel);
    if (rel) await unlink(at).catch(() => undefined);
    await mkdir(at, { recursive: true });
    const entries = await readdir(path.join(ROOT, rel), { withFileTypes: true }).catch(() => []);
    for (const e of entries) {
      const from = path.join(ROOT, rel, e.name);
      // A relative link (the workspaces' `../../packages/core`) keeps pointing inside the copy.
      await symlink(e.isSymbolicLink() ? await readlink(from) : from, path.join(at, e.name));
    }
    made.add(rel);
  };
  await dir('node_modules/@servicedesk');
  return {
    async write(rel: string, text: string) {
      await dir(path.dirname(rel));
      await unlink(path.join(scratch, rel)).catch(() => undefined);
      await writeFile(path.join(scratch, rel), text);
    },
  };
}

/**
 * A list with the page's edit (`FEATURES` in modules.ts, `CORE_MODULES` in the core's compose/index.ts):
 * its imports after the file's, its entries at the end of the list it opens.
 */
function withEntries(source: string, addition: string): string {
  const lines = addition.split('\n');
  const imports = lines.filter((l) => l.startsWith('import '));
  const open = lines.findIndex((l) => /^export const \w+ = [[{]$/.test(l));
  expect(imports.length, 'the edit of a list imports the feature').to.be.greaterThan(0);
  expect(open, 'the edit adds to `export const LIST = [ … ] as const;` (or `{ … }`)').to.be.at.least(0);
  const opening = lines[open]!;
  const closing = opening.endsWith('[') ? '] as const;' : '} as const;';
  const close = lines.findIndex((l, i) => i > open && l.startsWith(closing));
  expect(close, `the edit closes its list with \`${closing}\``).to.be.greaterThan(open);
  const entries = lines.slice(open + 1, close).filter((l) => l.trim() && !l.trim().startsWith('//'));
  const file = source.split('\n');
  const lastImport = file.findLastIndex((l) => l.startsWith('import '));
  file.splice(lastImport + 1, 0, ...imports);
  const end = file.findIndex((l, i) => l.startsWith(closing) && file.slice(0, i).some((s) => s === opening));
  expect(end, `the file still has \`${opening}\` … \`${closing}\``).to.be.greaterThan(0);
  file.splice(end, 0, ...entries);
  return file.join('\n');
}

/** One line of the page's answers: `GET /path   200  what comes back  [without a token]`. */
function answersOf(block: string) {
  return block
    .trim()
    .split('\n')
    .map((line) => {
      const m = /^(GET|POST|PUT|DELETE)\s+(\S+)\s+(\d{3})\s+(.*)$/.exec(line);
      expect(m, `an answer line is "METHOD /path STATUS what": ${line}`).to.not.equal(null);
      const rest = m![4]!;
      return {
        line,
        method: m![1]!,
        url: m![2]!,
        status: Number(m![3]),
        error: /"error":"(ERR_[A-Z0-9_]+)"/.exec(rest)?.[1],
        fields: rest.includes('"fields"'),
        named: /named "([^"]+)"/.exec(rest)?.[1],
        anonymous: rest.includes('without a token'),
      };
    });
}

/**
 * Under `npm test` the repository's `tsc -b` runs beside the tests (scripts/test.mjs): the
 * declarations this test compiles against exist once it has ended. Run alone, the declarations
 * are those of the last `npx tsc -b`.
 */
async function typecheckEnded() {
  const marker = process.env.SERVICEDESK_TYPECHECK_DONE;
  if (!marker) return;
  for (;;) {
    const code = await readFile(marker, 'utf8').catch(() => null);
    if (code !== null) {
      expect(code.trim(), 'the repository type-check (tsc -b) failed: its output is in the run').to.equal('0');
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

describe('Docs: adding a feature builds from the page', function () {
  this.timeout(300_000);
  let scratch: string;
  let examples: Example[];
  /** The page's files as written: repository path → text. */
  let written: Map<string, string>;
  let features: readonly Feature<any, any>[];
  let listed: readonly Feature<any, any>[];
  let support: typeof import('../support/test-backend.js');
  let b: TestBackend;

  before(async () => {
    examples = examplesOf(await readFile(path.join(ROOT, PAGE), 'utf8'));
    scratch = await mkdtemp(path.join(os.tmpdir(), 'sd-feature-doc-'));
    const copy = await overlay(path.join(scratch, 'run'));
    written = new Map();
    for (const e of examples.filter((x) => x.target !== 'answers')) {
      expect(written.has(e.target), `${e.target} is written once`).to.equal(false);
      written.set(e.target, e.adds ? withEntries(await readFile(path.join(ROOT, e.target), 'utf8'), e.code) : e.code);
      await copy.write(e.target, written.get(e.target)!);
    }
    // The list as the page's edit leaves it: the backend serves exactly that. The backend is imported
    // the same way (`import()`), so both share one copy of every module (mocha may load this file as
    // CommonJS, whose static imports would be a second copy: its errors would not be the server's).
    ({ FEATURES: features } = await import(pathToFileURL(path.join(scratch, 'run/packages/backend/src/modules.ts')).href));
    ({ FEATURES: listed } = await import('../../src/modules.js'));
    support = await import('../support/test-backend.js');
    b = await support.startTestBackend({}, { features });
  });
  after(async () => {
    await b?.close();
    if (scratch) await rm(scratch, { recursive: true, force: true });
  });

  it('has new files in the core, the HTTP adapter and the backend, and two lists edited: the core module map and modules.ts', () => {
    const created = examples.filter((e) => e.target !== 'answers' && !e.adds).map((e) => e.target);
    for (const pkg of ['packages/core/src/', 'packages/adapters-http/src/', 'packages/backend/src/modules/'])
      expect(
        created.some((f) => f.startsWith(pkg)),
        pkg,
      ).to.equal(true);
    expect(examples.filter((e) => e.adds).map((e) => e.target)).to.deep.equal(['packages/core/src/compose/index.ts', 'packages/backend/src/modules.ts']);
    expect(
      features.slice(0, -1).map((f) => f.name),
      'the edit adds to the list, in its place',
    ).to.deep.equal(listed.map((f) => f.name));
  });

  it('type-checks: the namespace reaches the application type and the route file with its types', async () => {
    // Only the page's files, beside nothing: a relative import (`../shared/errors.js`) finds the real
    // file through `rootDirs`, and every file of the packages is read as its built declaration (the
    // project references), so the check is of the page's code, against the packages as built.
    const types = path.join(scratch, 'types');
    for (const [rel, text] of written) {
      await mkdir(path.dirname(path.join(types, rel)), { recursive: true });
      await writeFile(path.join(types, rel), text);
    }
    // The backend's application type carries the new namespace, and refuses one nobody provides (so
    // the check cannot pass on an `any`).
    await writeFile(
      path.join(types, 'probe.ts'),
      [
        "import type { BackendApplication } from './packages/backend/src/modules.js';",
        "import type { Application } from './packages/core/src/compose/index.js';",
        "const namespaces: Array<keyof BackendApplication> = ['tagLookup'];",
        "const core: Array<keyof Application> = ['tagLookup'];",
        '// @ts-expect-error: no feature provides it',
        "const missing: Array<keyof BackendApplication> = ['noSuchNamespace'];",
        '// @ts-expect-error: no module of the core provides it',
        "const missingInCore: Array<keyof Application> = ['noSuchNamespace'];",
        'export { namespaces, core, missing, missingInCore };',
        '',
      ].join('\n'),
    );
    await writeFile(path.join(types, 'package.json'), '{ "type": "module" }\n');
    await symlink(path.join(ROOT, 'node_modules'), path.join(types, 'node_modules'));
    const sources = [...new Set([...written.keys()].map((rel) => /^packages\/[^/]+\/src/.exec(rel)![0]))];
    // `@servicedesk/core/compose/tag-lookup` and the like: the page's files imported by package path.
    const paths = Object.fromEntries(
      [...written.keys()].flatMap((rel) => {
        const m = /^packages\/([^/]+)\/src\/(.+)\.ts$/.exec(rel)!;
        return [[`@servicedesk/${m[1]}/${m[2]}`, [`./${rel}`]]];
      }),
    );
    await writeFile(
      path.join(types, 'tsconfig.json'),
      JSON.stringify({
        extends: path.join(ROOT, 'tsconfig.base.json'),
        compilerOptions: {
          noEmit: true,
          composite: false,
          incremental: false,
          declaration: false,
          emitDeclarationOnly: false,
          declarationMap: false,
          types: ['node'],
          rootDirs: sources.flatMap((src) => [path.join(types, src), path.join(ROOT, src)]),
          paths,
        },
        files: [...written.keys(), 'probe.ts'],
        references: ['core', 'adapters-persistence', 'adapters-broker', 'adapters-http', 'channel-runtime', 'backend'].map((p) => ({
          path: path.join(ROOT, 'packages', p),
        })),
      }),
    );
    await typecheckEnded();
    const tsc = path.join(ROOT, 'node_modules/typescript/bin/tsc');
    const run = await promisify(execFile)(process.execPath, [tsc, '-p', path.join(types, 'tsconfig.json'), '--pretty', 'false'], { cwd: types }).then(
      () => ({ ok: true, out: '' }),
      (err: { stdout?: string; stderr?: string }) => ({ ok: false, out: `${err.stdout ?? ''}${err.stderr ?? ''}` }),
    );
    expect(run.out, "tsc on the page's files, against the packages' declarations as `npx tsc -b` last built them").to.equal('');
    expect(run.ok).to.equal(true);
  });

  it('serves the route with the answers the page promises', async () => {
    const { api, token } = await support.newCompanyWithAdmin(b);
    const answers = answersOf(examples.find((e) => e.target === 'answers')!.code);
    expect(answers.length).to.be.greaterThan(0);
    const created = new Map<string, number>();
    for (const name of new Set(answers.flatMap((a) => (a.named ? [a.named] : [])))) {
      const res = await api.post('/tags', { name, color: '#3b82f6' });
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      created.set(name, res.body.id);
    }
    for (const a of answers) {
      const res = await support.client(b.url, a.anonymous ? undefined : token).call(a.method, a.url);
      expect(res.status, `${a.line}\n${JSON.stringify(res.body)}`).to.equal(a.status);
      if (a.error) expect(res.body, a.line).to.include({ error: a.error });
      if (a.fields) expect(res.body.fields, a.line).to.be.an('array').that.is.not.empty;
      if (a.named) expect(res.body, a.line).to.include({ id: created.get(a.named), name: a.named });
      if (a.status >= 400) expect(Object.keys(res.body), a.line).to.include('error');
    }
  });

  it("finds only the caller's company's tags", async () => {
    const answers = answersOf(examples.find((e) => e.target === 'answers')!.code);
    const found = answers.find((a) => a.named)!;
    const owner = await support.newCompanyWithAdmin(b);
    expect((await owner.api.post('/tags', { name: found.named, color: '#3b82f6' })).status).to.equal(201);
    expect((await owner.api.get(found.url)).status).to.equal(200);
    const other = await support.newCompanyWithAdmin(b);
    const res = await other.api.get(found.url);
    expect(res.status).to.equal(404);
    expect(res.body).to.deep.equal({ error: 'ERR_NO_TAG_FOUND' });
  });
});
