import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/**
 * The error codes a piece of source can raise, found without type checking: the `ERR_` literals
 * inside a declaration, and, transitively, those of every declaration it names (a function it calls,
 * a class it builds or extends, a type it takes as a dependency), followed through imports. A
 * declaration is a whole top-level function, class, variable or type, so a class counts every code
 * of its methods. An over-approximation by design: a code that cannot happen is said in the test's
 * exception list, with why.
 */
export class ReachableCodes {
  private readonly files = new Map<string, SourceInfo>();
  private readonly scanned = new Map<ts.Node, Scan>();

  /** `isCode` tells a catalog code from any other string; `blocked` files are never entered (catalogs, composition roots). */
  constructor(
    roots: readonly string[],
    private readonly isCode: (text: string) => boolean,
    private readonly blocked: (file: string) => boolean,
    /** Where a non-relative import specifier lives (`@servicedesk/core/x` → its source file), or null to not follow it. */
    private readonly resolvePackage: (specifier: string) => string | null,
    /** Files whose nested declarations count too (a route file's helpers live in its factory function); elsewhere only top-level ones. */
    private readonly deep: (file: string) => boolean = () => false,
  ) {
    for (const root of roots) for (const file of sourceFiles(root)) this.files.set(file, this.parse(file));
  }

  /** The top-level classes named `name`, in every file read. */
  classesNamed(name: string): Array<{ file: string; node: ts.Node }> {
    return [...this.files.entries()].flatMap(([file, info]) => {
      const node = info.classes.get(name);
      return node && !this.blocked(file) ? [{ file, node }] : [];
    });
  }

  source(file: string): SourceInfo {
    const info = this.files.get(file);
    if (!info) throw new Error(`not read: ${file}`);
    return info;
  }

  /**
   * The codes `node` (of `file`) names or reaches. With `members`, only those members of the class
   * `node` count (with its constructor, fields and base class: where its dependencies are typed).
   */
  codesOf(file: string, node: ts.Node, members?: readonly string[]): Set<string> {
    return new Set(this.reach(file, node, members).keys());
  }

  /**
   * Each code reached, with the way to it: the declarations passed through, as `file: name`. A
   * class named as a value (`new X`, `extends X`) counts whole; named as a type (a dependency), only
   * its members whose names the code holding the dependency reads (`deps.jobs.enqueue` → `enqueue`).
   */
  reach(file: string, node: ts.Node, members?: readonly string[]): Map<string, string[]> {
    const from = new Map<ts.Node, ts.Node | null>();
    const seen = new Map<ts.Node, Set<ReadonlySet<string>>>();
    const widened = new Map<ReadonlySet<string>, Map<ts.Node, ReadonlySet<string>>>();
    const interned = new Map<string, ReadonlySet<string>>();
    const out = new Map<string, string[]>();
    const way = (n: ts.Node): string[] => {
      const steps: string[] = [];
      for (let at: ts.Node | null | undefined = n; at; at = from.get(at)) steps.unshift(`${path.basename(at.getSourceFile().fileName)}: ${nameOf(at)}`);
      return steps;
    };
    /** The read sets made for the members of a class reached as a dependency (see `visitMembers`). */
    const memberContexts = new Set<ReadonlySet<string>>();
    const intern = (names: Iterable<string>): ReadonlySet<string> => {
      const sorted = [...new Set(names)].sort();
      const key = sorted.join(',');
      const set = interned.get(key) ?? new Set(sorted);
      interned.set(key, set);
      return set;
    };
    /**
     * The member names read where `n` is: inside a class reached as a dependency, those its frame and
     * the members wanted of it read; inside a class reached whole, the class's; else those it reads
     * and those read where it was reached from.
     */
    const readsAt = (n: ts.Node, inherited: ReadonlySet<string>): ReadonlySet<string> => {
      const cls = ts.isClassDeclaration(n) ? n : enclosingClass(n);
      if (cls) return !ts.isClassDeclaration(n) && memberContexts.has(inherited) ? inherited : this.scan(cls).reads;
      const byNode = widened.get(inherited) ?? new Map<ts.Node, ReadonlySet<string>>();
      widened.set(inherited, byNode);
      let reads = byNode.get(n);
      if (!reads) {
        // One set per content: the same reads reached twice are one context, so a cycle ends.
        const names = [...new Set([...inherited, ...this.scan(n).reads])].sort();
        const key = names.join(',');
        reads = interned.get(key) ?? new Set(names);
        interned.set(key, reads);
        byNode.set(n, reads);
      }
      return reads;
    };
    const visitNode = (f: string, n: ts.Node, by: ts.Node | null, inherited: ReadonlySet<string>) => {
      const contexts = seen.get(n) ?? new Set();
      if (contexts.has(inherited)) return;
      contexts.add(inherited);
      seen.set(n, contexts);
      if (!from.has(n)) from.set(n, by);
      const { codes, names, types, picks, own } = this.scan(n);
      const reads = readsAt(n, inherited);
      for (const c of codes) if (!out.has(c)) out.set(c, way(n));
      for (const name of names) for (const t of this.resolve(f, name)) visitNode(t.file, t.node, n, reads);
      for (const name of types) for (const t of this.resolve(f, name)) visitMembers(t.file, t.node, [...reads], n, reads);
      for (const pick of picks) for (const t of this.resolve(f, pick.name)) visitMembers(t.file, t.node, pick.members, n, reads);
      const cls = ts.isClassDeclaration(n) ? null : enclosingClass(n);
      if (cls && own.length) visitMembers(f, cls, own, n, reads);
    };
    const visitMembers = (f: string, n: ts.Node, wanted: readonly string[], by: ts.Node | null, inherited: ReadonlySet<string>) => {
      if (!ts.isClassDeclaration(n)) return visitNode(f, n, by, inherited);
      // The members wanted, with those they call on their own class (`this.x`), and the frame: how
      // the class is built and what it extends, where its dependencies are named. The dependencies
      // count only with the members these read: a collaborator used for one of its methods does not
      // bring in what its other methods call.
      const frame = n.members.filter((m) => !isMethodLike(m) || ts.isConstructorDeclaration(m));
      const named = new Set(wanted);
      for (let grew = true; grew; ) {
        grew = false;
        for (const m of n.members)
          if (isMethodLike(m) && m.name && named.has(m.name.getText()))
            for (const o of this.scan(m).own)
              if (!named.has(o)) {
                named.add(o);
                grew = true;
              }
      }
      const members = n.members.filter((m) => isMethodLike(m) && !ts.isConstructorDeclaration(m) && m.name && named.has(m.name.getText()));
      const context = intern([...inherited, ...[...frame, ...members].flatMap((m) => [...this.scan(m).reads])]);
      memberContexts.add(context);
      for (const m of frame) visitNode(f, m, by, context);
      for (const h of n.heritageClauses ?? []) visitNode(f, h, by, context);
      for (const m of members) visitNode(f, m, by, context);
    };
    const none = new Set<string>();
    if (members) visitMembers(file, node, members, null, none);
    else visitNode(file, node, null, none);
    return out;
  }

  /**
   * What a node names: the literals that are codes, the identifiers that may name a declaration as
   * a value and as a type, `Pick<Class, 'a' | 'b'>` (only those members of the class), `this.x` (the
   * member x of its own class), and every member name it reads (`a.b` → `b`).
   */
  scan(node: ts.Node): Scan {
    const cached = this.scanned.get(node);
    if (cached) return cached;
    const result: Scan = { codes: [], names: new Set(), types: new Set(), picks: [], own: [], reads: new Set() };
    const walk = (n: ts.Node) => {
      // A literal type names what may be passed (`code: 'ERR_A' | 'ERR_B'`): the caller's literal is the code raised.
      if ((ts.isStringLiteral(n) || ts.isNoSubstitutionTemplateLiteral(n)) && this.isCode(n.text) && !ts.isLiteralTypeNode(n.parent)) result.codes.push(n.text);
      if (ts.isPropertyAccessExpression(n)) {
        result.reads.add(n.name.text);
        if (n.expression.kind === ts.SyntaxKind.ThisKeyword) result.own.push(n.name.text);
      }
      const pick = picked(n);
      if (pick) {
        result.picks.push(pick);
        return;
      }
      if (ts.isIdentifier(n) && isReference(n)) (ts.isTypeReferenceNode(n.parent) ? result.types : result.names).add(n.text);
      ts.forEachChild(n, walk);
    };
    walk(node);
    this.scanned.set(node, result);
    return result;
  }

  /** The declarations `name` stands for in `file`: its own (at any depth), else what it imports under that name. */
  resolve(file: string, name: string, depth = 0): Array<{ file: string; node: ts.Node }> {
    const info = this.files.get(file);
    if (!info || this.blocked(file) || depth > 10) return [];
    const own = info.declarations.get(name);
    if (own) return own.map((node) => ({ file, node }));
    const imported = info.imports.get(name);
    if (imported) {
      const target = this.target(file, imported.specifier);
      return target ? this.exported(target, imported.name, depth + 1) : [];
    }
    return [];
  }

  private exported(file: string, name: string, depth: number): Array<{ file: string; node: ts.Node }> {
    const info = this.files.get(file);
    if (!info || this.blocked(file) || depth > 10) return [];
    const own = info.declarations.get(name) ?? [];
    if (own.length) return own.map((node) => ({ file, node }));
    if (info.imports.has(name)) return this.resolve(file, name, depth + 1);
    for (const re of info.reexports) {
      if (re.names && !re.names.has(name)) continue;
      const target = this.target(file, re.specifier);
      const found = target ? this.exported(target, re.names?.get(name) ?? name, depth + 1) : [];
      if (found.length) return found;
    }
    return [];
  }

  private target(from: string, specifier: string): string | null {
    if (!specifier.startsWith('.')) return this.resolvePackage(specifier);
    const base = path.resolve(path.dirname(from), specifier).replace(/\.js$/, '');
    for (const candidate of [`${base}.ts`, path.join(base, 'index.ts')]) if (this.files.has(candidate)) return candidate;
    return null;
  }

  private parse(file: string): SourceInfo {
    const sf = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
    const declarations = new Map<string, ts.Node[]>();
    const classes = new Map<string, ts.Node>();
    const imports = new Map<string, { specifier: string; name: string }>();
    const reexports: SourceInfo['reexports'] = [];
    const declare = (name: string, node: ts.Node) => declarations.set(name, [...(declarations.get(name) ?? []), node]);
    const deep = this.deep(file);
    const walk = (n: ts.Node, topLevel: boolean) => {
      if (ts.isFunctionDeclaration(n) && n.name) declare(n.name.text, n);
      else if (ts.isClassDeclaration(n) && n.name) {
        declare(n.name.text, n);
        if (topLevel) classes.set(n.name.text, n);
      } else if (ts.isVariableDeclaration(n) && ts.isIdentifier(n.name)) declare(n.name.text, n);
      else if ((ts.isInterfaceDeclaration(n) || ts.isTypeAliasDeclaration(n) || ts.isEnumDeclaration(n)) && topLevel) declare(n.name.text, n);
      if (ts.isVariableStatement(n) || ts.isVariableDeclarationList(n)) ts.forEachChild(n, (c) => walk(c, topLevel));
      // Deep: the helpers a top-level function (a route factory) declares, not the locals of the functions within it.
      else if (deep && !(ts.isFunctionLike(n) && !(topLevel && ts.isFunctionDeclaration(n)))) ts.forEachChild(n, (c) => walk(c, false));
    };
    for (const statement of sf.statements) {
      if (ts.isImportDeclaration(statement) && ts.isStringLiteral(statement.moduleSpecifier)) {
        const specifier = statement.moduleSpecifier.text;
        const bindings = statement.importClause?.namedBindings;
        if (bindings && ts.isNamedImports(bindings)) {
          for (const el of bindings.elements) imports.set(el.name.text, { specifier, name: (el.propertyName ?? el.name).text });
        }
        if (statement.importClause?.name) imports.set(statement.importClause.name.text, { specifier, name: 'default' });
      } else if (ts.isExportDeclaration(statement) && statement.moduleSpecifier && ts.isStringLiteral(statement.moduleSpecifier)) {
        const clause = statement.exportClause;
        const names = clause && ts.isNamedExports(clause) ? new Map(clause.elements.map((el) => [el.name.text, (el.propertyName ?? el.name).text])) : null;
        reexports.push({ specifier: statement.moduleSpecifier.text, names });
      } else {
        walk(statement, true);
      }
    }
    return { file, sf, declarations, classes, imports, reexports };
  }
}

interface Scan {
  readonly codes: string[];
  readonly names: Set<string>;
  readonly types: Set<string>;
  readonly picks: Array<{ name: string; members: string[] }>;
  readonly own: string[];
  readonly reads: Set<string>;
}

function isMethodLike(m: ts.ClassElement): boolean {
  return (
    ts.isMethodDeclaration(m) ||
    ts.isGetAccessor(m) ||
    ts.isSetAccessor(m) ||
    ts.isConstructorDeclaration(m) ||
    (ts.isPropertyDeclaration(m) && !!m.initializer && (ts.isArrowFunction(m.initializer) || ts.isFunctionExpression(m.initializer)))
  );
}

/** A declaration's name as a way step: `Class.member`, `function`, or the kind of node. */
function nameOf(n: ts.Node): string {
  const named = (x: ts.Node) => ('name' in x && x.name && ts.isIdentifier(x.name as ts.Node) ? (x.name as ts.Identifier).text : null);
  const cls = enclosingClass(n);
  const own = named(n) ?? (ts.isConstructorDeclaration(n) ? 'constructor' : ts.isHeritageClause(n) ? 'extends' : ts.SyntaxKind[n.kind]);
  return cls && cls !== n ? `${cls.name?.text ?? '?'}.${own}` : own;
}

function enclosingClass(n: ts.Node): ts.ClassDeclaration | null {
  for (let p = n.parent; p; p = p.parent) if (ts.isClassDeclaration(p)) return p;
  return null;
}

/** `Pick<X, 'a' | 'b'>`: X and the members named. */
function picked(n: ts.Node): { name: string; members: string[] } | null {
  if (!ts.isTypeReferenceNode(n) || !ts.isIdentifier(n.typeName) || n.typeName.text !== 'Pick') return null;
  const [target, keys] = n.typeArguments ?? [];
  if (!target || !keys || !ts.isTypeReferenceNode(target) || !ts.isIdentifier(target.typeName)) return null;
  const literals = ts.isUnionTypeNode(keys) ? keys.types : [keys];
  const members = literals.map((k) => (ts.isLiteralTypeNode(k) && ts.isStringLiteral(k.literal) ? k.literal.text : null));
  return members.every((m) => m !== null) ? { name: target.typeName.text, members: members as string[] } : null;
}

export interface SourceInfo {
  readonly file: string;
  readonly sf: ts.SourceFile;
  /** Every top-level function, class, variable and type (and, in deep files, nested functions, classes and variables). */
  readonly declarations: Map<string, ts.Node[]>;
  readonly classes: Map<string, ts.Node>;
  readonly imports: Map<string, { specifier: string; name: string }>;
  readonly reexports: Array<{ specifier: string; names: Map<string, string> | null }>;
}

/** Whether the identifier may name a declaration (not a property name after a dot or before a colon). */
function isReference(id: ts.Identifier): boolean {
  const p = id.parent;
  if (ts.isPropertyAccessExpression(p) && p.name === id) return false;
  if (
    (ts.isPropertyAssignment(p) ||
      ts.isPropertyDeclaration(p) ||
      ts.isPropertySignature(p) ||
      ts.isMethodDeclaration(p) ||
      ts.isMethodSignature(p) ||
      ts.isGetAccessor(p) ||
      ts.isSetAccessor(p) ||
      ts.isParameter(p) ||
      ts.isBindingElement(p)) &&
    p.name === id
  )
    return false;
  if (ts.isQualifiedName(p) && p.right === id) return false;
  if (
    (ts.isFunctionDeclaration(p) || ts.isClassDeclaration(p) || ts.isVariableDeclaration(p) || ts.isInterfaceDeclaration(p) || ts.isTypeAliasDeclaration(p)) &&
    p.name === id
  )
    return false;
  return true;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return /\.ts$/.test(name) && !name.endsWith('.d.ts') ? [full] : [];
  });
}
