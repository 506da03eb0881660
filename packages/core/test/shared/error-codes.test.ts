import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { ERROR_CODES, isErrorCode, kindsOf, type ErrorCodeEntry, type ErrorKind } from '../../src/index.js';

const ROOT = new URL('../../../../', import.meta.url).pathname;
const CATALOG_FILE = 'packages/core/src/shared/error-codes.ts';

/** The kind of each error class of core; subclasses found in the sources inherit theirs. */
const KIND_OF_CLASS: Readonly<Record<string, ErrorKind>> = {
  ValidationError: 'validation',
  BadRequestError: 'bad-request',
  UnauthorizedError: 'unauthorized',
  ForbiddenError: 'forbidden',
  NotFoundError: 'not-found',
  ConflictError: 'conflict',
  PayloadTooLargeError: 'too-large',
  TooManyRequestsError: 'too-many-requests',
  ServiceUnavailableError: 'unavailable',
};

/**
 * Codes written in the sources that are deliberately not in the catalog, because no client sees
 * them as a code of ours. Each must still occur (the list cannot rot) and stay out of the catalog.
 */
const NOT_IN_CATALOG: Readonly<Record<string, string>> = {
  ERR_GIVEN_UP: 'channel runtime: an edit or revoke dropped after its last attempt, only logged',
  ERR_UNKNOWN_MESSAGE: 'sandbox connector: an edit or revoke of a message it no longer keeps, only logged',
  ERR_GRAPH_: "graph connector: prefix of Meta's own error code in a failureReason (`ERR_GRAPH_<code>: <message>`)",
};

type Sources = Readonly<Record<string, string>>;
type Catalog = Readonly<Record<string, ErrorCodeEntry>>;

interface Literal {
  readonly value: string;
  readonly start: number;
  readonly template: boolean;
}
interface Scanned {
  readonly code: string;
  readonly literals: readonly Literal[];
}

/**
 * Splits a TypeScript text into its string literals (a template literal: up to its first `${`)
 * and its code, where comments and the insides of literals and regular expressions are blanked
 * (same offsets), so brackets and calls can be matched on the code alone.
 */
export function scan(text: string): Scanned {
  const code = text.split('');
  const literals: Literal[] = [];
  const blank = (from: number, to: number) => {
    for (let k = from; k < to; k++) if (code[k] !== '\n') code[k] = ' ';
  };
  /** Brace depth of each open `${`, innermost last. */
  const templates: number[] = [];
  let depth = 0;
  let i = 0;
  const lastSignificant = (at: number) => {
    let k = at - 1;
    while (k >= 0 && /\s/.test(code[k]!)) k--;
    return k;
  };
  /** Reads a template literal's text from `i` (just after its backtick or `}`) to its end or its next `${`. */
  const templateText = (head: boolean) => {
    const start = i;
    while (i < text.length && text[i] !== '`' && !(text[i] === '$' && text[i + 1] === '{')) i += text[i] === '\\' ? 2 : 1;
    if (head) literals.push({ value: text.slice(start, i), start: start - 1, template: true });
    blank(start, i);
    if (text[i] === '`') {
      i++;
      return;
    }
    templates.push(depth);
    i += 2;
  };
  while (i < text.length) {
    const c = text[i]!;
    const next = text[i + 1];
    if (c === '/' && next === '/') {
      const end = text.indexOf('\n', i);
      blank(i, end < 0 ? text.length : end);
      i = end < 0 ? text.length : end;
      continue;
    }
    if (c === '/' && next === '*') {
      const end = text.indexOf('*/', i + 2) + 2;
      blank(i, end);
      i = end;
      continue;
    }
    if (c === "'" || c === '"') {
      const start = ++i;
      while (i < text.length && text[i] !== c) i += text[i] === '\\' ? 2 : 1;
      literals.push({ value: text.slice(start, i), start: start - 1, template: false });
      blank(start, i);
      i++;
      continue;
    }
    if (c === '`') {
      i++;
      templateText(true);
      continue;
    }
    if (c === '/') {
      const before = lastSignificant(i);
      const prev = before < 0 ? '' : code[before]!;
      const word = /\w/.test(prev) ? /(\w+)$/.exec(text.slice(0, before + 1))![1]! : '';
      if (!prev || /[(,=:[!&|?{};+\-*%<>~^]/.test(prev) || ['return', 'typeof', 'case', 'of', 'in'].includes(word)) {
        const start = ++i;
        let inClass = false;
        while (i < text.length && (text[i] !== '/' || inClass)) {
          if (text[i] === '\\') i++;
          else if (text[i] === '[') inClass = true;
          else if (text[i] === ']') inClass = false;
          i++;
        }
        blank(start, i);
        i++;
        continue;
      }
    }
    if (c === '{') depth++;
    if (c === '}') {
      if (templates.length && templates.at(-1) === depth) {
        templates.pop();
        i++;
        templateText(false);
        continue;
      }
      depth--;
    }
    i++;
  }
  return { code: code.join(''), literals };
}

/** The code a literal stands for: all of it, or what precedes `: ` (a failure reason with details). */
function codeOf(literal: Literal): string | null {
  const m = /^(ERR_[A-Z0-9_]+)(?::|$)/.exec(literal.value);
  return m ? m[1]! : null;
}

/** From an opening bracket or brace in `code`, the offset just past its match. */
function closing(code: string, open: number): number {
  let depth = 0;
  for (let k = open; k < code.length; k++) {
    if ('([{'.includes(code[k]!)) depth++;
    else if (')]}'.includes(code[k]!) && --depth === 0) return k + 1;
  }
  return code.length;
}

/**
 * Where codes are only documented, not used: `codes: [...]` of a route's errors, a list typed
 * `ErrorCode[] = [...]` for them, and `example:` values of the OpenAPI schemas.
 */
function documentationSpans(code: string): Array<[number, number]> {
  const spans: Array<[number, number]> = [];
  for (const m of code.matchAll(/\bcodes\s*:\s*\[|ErrorCode\[\]\s*=\s*\[|\bexamples?\s*:\s*(?=\S)/g)) {
    let at = m.index + m[0].length;
    if (m[0].endsWith('[')) at--;
    spans.push([at, '[{'.includes(code[at]!) ? closing(code, at) : at + 1]);
  }
  return spans;
}

/** Codes used (thrown, answered, returned, stored) in the sources, outside comments and documentation. */
export function usedCodes(sources: Sources): Set<string> {
  const used = new Set<string>();
  for (const text of Object.values(sources)) {
    const { code, literals } = scan(text);
    const docs = documentationSpans(code);
    for (const l of literals) {
      const c = codeOf(l);
      if (c && !docs.some(([from, to]) => l.start >= from && l.start < to)) used.add(c);
    }
  }
  return used;
}

/** Every code-like literal of the sources, documentation included. */
export function writtenCodes(sources: Sources): Set<string> {
  return new Set(
    Object.values(sources).flatMap((text) =>
      scan(text)
        .literals.map(codeOf)
        .filter((c): c is string => c !== null),
    ),
  );
}

/** Catalog entries no source uses: dead entries. */
export function deadEntries(catalog: Catalog, sources: Sources): string[] {
  const used = usedCodes(sources);
  return Object.keys(catalog).filter((c) => !used.has(c));
}

/** Each class of the sources that extends, directly or not, one of `KIND_OF_CLASS`, with that kind. */
function classKinds(sources: Sources): Map<string, ErrorKind> {
  const parent = new Map<string, string>();
  for (const text of Object.values(sources)) for (const m of scan(text).code.matchAll(/\bclass\s+(\w+)\s+extends\s+(\w+)/g)) parent.set(m[1]!, m[2]!);
  const kinds = new Map(Object.entries(KIND_OF_CLASS));
  const kindOf = (name: string, seen = new Set<string>()): ErrorKind | undefined => {
    if (kinds.has(name) || seen.has(name)) return kinds.get(name);
    const p = parent.get(name);
    return p === undefined ? undefined : kindOf(p, seen.add(name));
  };
  for (const name of parent.keys()) {
    const k = kindOf(name);
    if (k) kinds.set(name, k);
  }
  return kinds;
}

export interface ThrowSite {
  readonly file: string;
  readonly line: number;
  readonly className: string;
  readonly codes: readonly string[];
  readonly status?: string;
}

/**
 * Every `new <Class>(...)` and `super(...)` whose code argument holds code literals (both branches
 * of a conditional count); for `HttpError` the code is the second argument, after the status.
 */
export function throwSites(sources: Sources): ThrowSite[] {
  const sites: ThrowSite[] = [];
  for (const [file, text] of Object.entries(sources)) {
    const { code, literals } = scan(text);
    const classes = [...code.matchAll(/\bclass\s+(\w+)\s+extends\s+\w+[^{]*\{/g)].map((m) => ({
      name: m[1]!,
      from: m.index,
      to: closing(code, m.index + m[0].length - 1),
    }));
    for (const m of code.matchAll(/\bnew\s+([A-Z]\w*)\s*\(|\bsuper\s*\(/g)) {
      const className = m[1] ?? classes.filter((c) => m.index > c.from && m.index < c.to).at(-1)?.name;
      if (!className) continue;
      const open = m.index + m[0].length - 1;
      const end = closing(code, open) - 1;
      const commas = [open];
      let depth = 0;
      for (let k = open + 1; k < end; k++) {
        if ('([{'.includes(code[k]!)) depth++;
        else if (')]}'.includes(code[k]!)) depth--;
        else if (code[k] === ',' && depth === 0) commas.push(k);
      }
      commas.push(end);
      const arg = className === 'HttpError' ? 1 : 0;
      const [from, to] = [commas[arg] ?? end, commas[arg + 1] ?? end];
      /** Directly in the argument, not in a call or function nested in it (`new Promise((_, reject) => ...)`). */
      const direct = (at: number) => {
        let d = 0;
        for (let k = open + 1; k < at; k++)
          if ('([{'.includes(code[k]!)) d++;
          else if (')]}'.includes(code[k]!)) d--;
        return d === 0;
      };
      const codes = literals
        .filter((l) => l.start > from && l.start < to && direct(l.start))
        .map(codeOf)
        .filter((c): c is string => c !== null);
      if (!codes.length) continue;
      const line = text.slice(0, m.index).split('\n').length;
      const status = className === 'HttpError' ? code.slice(open + 1, commas[1]).trim() : undefined;
      sites.push({ file, line, className, codes, ...(status !== undefined ? { status } : {}) });
    }
  }
  return sites;
}

/**
 * Throw sites whose class does not fit the catalog: a domain error class whose kind the catalog
 * does not list for the code, a failure reason the catalog does not mark as one, a code outside
 * the catalog, or a class nobody mapped (`HttpError`'s status is checked where its table lives).
 */
export function kindProblems(catalog: Catalog, sources: Sources): string[] {
  const kinds = classKinds(sources);
  const problems: string[] = [];
  for (const site of throwSites(sources)) {
    for (const c of site.codes) {
      const where = `${site.file}:${site.line} new ${site.className}('${c}')`;
      const entry = catalog[c];
      if (!entry) {
        if (!(c in NOT_IN_CATALOG)) problems.push(`${where}: not in the catalog`);
        continue;
      }
      const listed: readonly ErrorKind[] = typeof entry.kind === 'string' ? [entry.kind] : entry.kind;
      const kind = kinds.get(site.className);
      if (kind) {
        if (!listed.includes(kind)) problems.push(`${where}: kind ${kind}, the catalog lists ${listed.join(', ')}`);
      } else if (site.className === 'PermanentSendError') {
        if (!entry.where?.includes('failureReason')) problems.push(`${where}: a failure reason the catalog does not mark as one`);
      } else if (site.className !== 'HttpError') problems.push(`${where}: ${site.className} has no kind; map it`);
    }
  }
  return problems;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return /\.ts$/.test(name) && !name.endsWith('.d.ts') ? [full] : [];
  });
}

/** The text of every source file of every package, by path from the repository root (the catalog's own file left out). */
function packageSources(): Sources {
  const packages = readdirSync(path.join(ROOT, 'packages')).filter((p) =>
    statSync(path.join(ROOT, 'packages', p, 'src'), { throwIfNoEntry: false })?.isDirectory(),
  );
  return Object.fromEntries(
    packages
      .flatMap((p) => sourceFiles(path.join(ROOT, 'packages', p, 'src')))
      .map((f) => [path.relative(ROOT, f), readFileSync(f, 'utf8')] as const)
      .filter(([f]) => f !== CATALOG_FILE),
  );
}

describe('Shared: the catalog of error codes', () => {
  const sources = packageSources();

  it('describes every code with one kind or two and a sentence', () => {
    for (const [code, entry] of Object.entries(ERROR_CODES) as Array<[string, ErrorCodeEntry]>) {
      expect(code, code).to.match(/^ERR_[A-Z0-9]+(_[A-Z0-9]+)*$/);
      const kinds = typeof entry.kind === 'string' ? [entry.kind] : entry.kind;
      expect(kinds.length, code).to.be.within(1, 2);
      expect(new Set(kinds).size, code).to.equal(kinds.length);
      expect(entry.description, code).to.match(/^[A-Z`].{10,200}\.$/);
    }
    expect(kindsOf('ERR_FILE_TOO_LARGE')).to.deep.equal(['too-large', 'validation']);
    expect(kindsOf('ERR_NO_TICKET_FOUND')).to.deep.equal(['not-found']);
    expect(isErrorCode('ERR_NO_TICKET_FOUND')).to.equal(true);
    expect(isErrorCode('ERR_NOT_A_CODE')).to.equal(false);
    expect(isErrorCode('toString')).to.equal(false);
  });

  it('has no dead entry: every code is thrown, answered or reported somewhere in packages/*/src', () => {
    expect(Object.keys(sources).length).to.be.greaterThan(100);
    expect(deadEntries(ERROR_CODES, sources)).to.deep.equal([]);
  });

  it("lists, for every `new <Kind>Error('ERR_X'` site, the kind of its class", () => {
    expect(throwSites(sources).length).to.be.greaterThan(300);
    expect(kindProblems(ERROR_CODES, sources)).to.deep.equal([]);
  });

  it('holds every code the sources write (failure reasons too), but for the few no client sees', () => {
    const written = writtenCodes(sources);
    expect([...written].filter((c) => !isErrorCode(c) && !(c in NOT_IN_CATALOG)).sort(), 'codes outside the catalog').to.deep.equal([]);
    for (const c of Object.keys(NOT_IN_CATALOG)) {
      expect(written.has(c), `${c} still occurs`).to.equal(true);
      expect(isErrorCode(c), `${c} is not in the catalog`).to.equal(false);
    }
  });

  describe('(the checks themselves, on a small fake source)', () => {
    const catalog: Catalog = {
      ERR_USED: { kind: 'not-found', description: 'Used.' },
      ERR_DEAD: { kind: 'conflict', description: 'Only in comments, prose and a regular expression.' },
      ERR_ONLY_DOCUMENTED: { kind: 'conflict', description: 'Only declared on a route and in an example.' },
      ERR_TWO: { kind: ['too-large', 'validation'], description: 'Thrown with two kinds.' },
      ERR_REASON: { kind: 'unavailable', description: 'A failure reason.', where: ['failureReason'] },
      ERR_STATUS: { kind: 'unavailable', description: 'Not a failure reason.' },
    };
    const fake: Sources = {
      'fake/a.ts': [
        "// ERR_DEAD in a comment, and 'ERR_DEAD' quoted in one",
        "/* new ConflictError('ERR_USED') in a block comment */",
        "const notFound = { status: 404, codes: ['ERR_ONLY_DOCUMENTED'] } as const;",
        "const rules: ErrorCode[] = ['ERR_ONLY_DOCUMENTED'];",
        "const schema = z.string().meta({ example: 'ERR_ONLY_DOCUMENTED', description: 'Answers `ERR_DEAD` at times' });",
        "const body = { example: { error: 'ERR_ONLY_DOCUMENTED' } };",
        "const re = /'ERR_DEAD'/g; const half = total / 2; const again = `ERR_DEAD is ${half}`;",
        'export function find(kind: string) {',
        "  if (kind === 'x') throw new NotFoundError(kind === 'y' ? 'ERR_USED' : 'ERR_USED');",
        "  if (kind === 'z') throw new ConflictError('ERR_USED', { kind });",
        "  if (kind === 'w') throw new PayloadTooLargeError('ERR_TWO');",
        "  throw new ValidationError('ERR_TWO');",
        '}',
        'export class GoneError extends ValidationError {',
        "  constructor() { super('ERR_USED'); }",
        '}',
        'throw new GoneError();',
        "throw new OddError('ERR_USED');",
        "throw new HttpError(413, 'ERR_TWO');",
        'throw new PermanentSendError(`ERR_REASON: ${err.message}`);',
        "throw new PermanentSendError('ERR_STATUS');",
        "return new Promise((resolve, reject) => reject(new ConflictError('ERR_USED')));",
      ].join('\n'),
    };

    it('finds the dead entries: mentioned only in comments, prose, a regular expression, route declarations or examples', () => {
      expect(deadEntries(catalog, fake)).to.deep.equal(['ERR_DEAD', 'ERR_ONLY_DOCUMENTED']);
      expect(deadEntries(catalog, { ...fake, 'fake/b.ts': "export const REASON = 'ERR_DEAD';" })).to.deep.equal(['ERR_ONLY_DOCUMENTED']);
    });

    it('finds a class whose kind the catalog does not list, through subclasses and super calls too', () => {
      expect(throwSites(fake).map((s) => `${s.line} ${s.className} ${s.codes.join(' ')}${s.status ? ` ${s.status}` : ''}`)).to.deep.equal([
        '9 NotFoundError ERR_USED ERR_USED',
        '10 ConflictError ERR_USED',
        '11 PayloadTooLargeError ERR_TWO',
        '12 ValidationError ERR_TWO',
        '15 GoneError ERR_USED',
        '18 OddError ERR_USED',
        '19 HttpError ERR_TWO 413',
        '20 PermanentSendError ERR_REASON',
        '21 PermanentSendError ERR_STATUS',
        '22 ConflictError ERR_USED',
      ]);
      expect(kindProblems(catalog, fake)).to.deep.equal([
        "fake/a.ts:10 new ConflictError('ERR_USED'): kind conflict, the catalog lists not-found",
        "fake/a.ts:15 new GoneError('ERR_USED'): kind validation, the catalog lists not-found",
        "fake/a.ts:18 new OddError('ERR_USED'): OddError has no kind; map it",
        "fake/a.ts:21 new PermanentSendError('ERR_STATUS'): a failure reason the catalog does not mark as one",
        "fake/a.ts:22 new ConflictError('ERR_USED'): kind conflict, the catalog lists not-found",
      ]);
    });
  });
});
