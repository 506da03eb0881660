import { readdirSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { derivedErrorStatuses, STANDARD_ERRORS, type RouteSpec } from '@servicedesk/adapters-http';
import { isErrorCode, placesOf } from '@servicedesk/core';
import { ReachableCodes } from './reachable-codes.js';

const ROOT = new URL('../../../../', import.meta.url).pathname;
const CORE = path.join(ROOT, 'packages/core/src');
const HTTP = path.join(ROOT, 'packages/adapters-http/src');

/** A route as its file declares it: where its handler is, the codes it reaches, the use cases it calls. */
export interface RouteReach {
  readonly key: string;
  readonly file: string;
  /** Each code reached, with the way to it (for a failure's message). */
  readonly codes: ReadonlyMap<string, readonly string[]>;
  /** `namespace.useCase` of every application call the handler makes that could not be traced to a core class. */
  readonly untraced: readonly string[];
}

/**
 * The codes each route's handler can answer, statically: the codes named in the handler and in the
 * route file's helpers it uses, those of the adapters and core functions they call, and those of
 * the core use case classes behind each `app.<namespace>.<useCase>` it calls (found through the live
 * application object: the class its use case is an instance of), each followed through what it
 * names and imports. Composition roots and the code catalog are not entered.
 */
export function routeReach(app: Record<string, Record<string, unknown>>): RouteReach[] {
  const codes = new ReachableCodes(
    [CORE, HTTP],
    (text) => isErrorCode(text) && placesOf(text).includes('answer'),
    (file) => file.startsWith(path.join(CORE, 'compose/')) || file === path.join(CORE, 'application.ts') || file === path.join(CORE, 'shared/error-codes.ts'),
    (specifier) => {
      const m = /^@servicedesk\/core(?:\/(.+))?$/.exec(specifier);
      return m ? path.join(CORE, `${m[1] ?? 'index'}.ts`) : null;
    },
    (file) => file.startsWith(HTTP) && file.endsWith('-routes.ts'),
  );
  const files = readdirSync(HTTP, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .flatMap((d) =>
      readdirSync(path.join(HTTP, d.name))
        .filter((n) => n.endsWith('-routes.ts'))
        .map((n) => path.join(HTTP, d.name, n)),
    );
  const out: RouteReach[] = [];
  for (const file of files) {
    const info = codes.source(file);
    const aliases = namespaceAliases(info.sf);
    const visit = (n: ts.Node) => {
      const spec = routeCall(n);
      if (spec) {
        const { key, handler } = spec;
        const found = new Map(codes.reach(file, handler));
        const untraced: string[] = [];
        for (const [namespace, useCase, methods] of appCalls(codes, file, handler, aliases)) {
          // A decorated use case (one that announces what it did) is read through to the one it wraps.
          const found_ = app[namespace]?.[useCase] as { decorates?: object } | undefined;
          const instance = (found_?.decorates ?? found_) as object | undefined;
          const classes = instance ? codes.classesNamed(instance.constructor.name) : [];
          if (!classes.length) untraced.push(`${namespace}.${useCase}`);
          for (const c of classes)
            for (const [code, way] of codes.reach(c.file, c.node, methods)) if (!found.has(code)) found.set(code, [`${namespace}.${useCase}`, ...way]);
        }
        out.push({ key, file: path.relative(ROOT, file), codes: found, untraced });
      }
      ts.forEachChild(n, visit);
    };
    visit(info.sf);
  }
  return out;
}

/** The codes a route tells its clients about: those it declares, and those the standard answers of its statuses name. */
export function declaredCodes(r: RouteSpec): Set<string> {
  const declared = new Set<string>();
  const statuses = new Set(derivedErrorStatuses(r));
  for (const e of r.errors ?? []) {
    if (typeof e === 'number') {
      statuses.add(e);
      continue;
    }
    statuses.add(e.status);
    for (const c of e.codes ?? []) declared.add(c);
  }
  for (const s of statuses) for (const [c] of (STANDARD_ERRORS[s]?.description ?? '').matchAll(/ERR_[A-Z0-9_]+/g)) declared.add(c);
  return declared;
}

/** `route({ method: 'GET', path: '/x', …, handler })`, or a file's wrapper of `route` called so: its key and handler. */
function routeCall(n: ts.Node): { key: string; handler: ts.Node } | null {
  const [arg] = ts.isCallExpression(n) ? n.arguments : [];
  if (!arg || !ts.isObjectLiteralExpression(arg)) return null;
  const prop = (name: string) =>
    arg.properties.find((p): p is ts.PropertyAssignment => ts.isPropertyAssignment(p) && ts.isIdentifier(p.name) && p.name.text === name)?.initializer;
  const method = prop('method'),
    route = prop('path'),
    handler = prop('handler');
  if (!method || !route || !handler || !ts.isStringLiteralLike(method) || !ts.isStringLiteralLike(route)) return null;
  return { key: `${method.text} ${route.text}`, handler };
}

/** `const o = app.orders`: the names a route file gives to application namespaces. */
function namespaceAliases(sf: ts.SourceFile): Map<string, string> {
  const aliases = new Map<string, string>();
  const visit = (n: ts.Node) => {
    if (
      ts.isVariableDeclaration(n) &&
      ts.isIdentifier(n.name) &&
      n.initializer &&
      ts.isPropertyAccessExpression(n.initializer) &&
      ts.isIdentifier(n.initializer.expression) &&
      n.initializer.expression.text === 'app'
    )
      aliases.set(n.name.text, n.initializer.name.text);
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return aliases;
}

/**
 * The `[namespace, useCase, methods]` the handler (and the route file's helpers it uses) call:
 * `app.ns.useCase.method(…)`, `alias.useCase.method(…)`; methods undefined when the use case is
 * handed on whole.
 */
function appCalls(codes: ReachableCodes, file: string, handler: ts.Node, aliases: Map<string, string>): Array<[string, string, string[] | undefined]> {
  const calls = new Map<string, [string, string, string[] | undefined]>();
  const seen = new Set<ts.Node>();
  const visitDeclaration = (n: ts.Node) => {
    if (seen.has(n)) return;
    seen.add(n);
    const walk = (c: ts.Node) => {
      if (ts.isPropertyAccessExpression(c)) {
        const target = c.expression;
        const namespace = ts.isIdentifier(target)
          ? shadowed(target)
            ? undefined
            : aliases.get(target.text)
          : ts.isPropertyAccessExpression(target) && /(^|\.)app$/.test(target.expression.getText())
            ? target.name.text
            : undefined;
        if (namespace) {
          const key = `${namespace}.${c.name.text}`;
          const method = ts.isPropertyAccessExpression(c.parent) && c.parent.expression === c ? c.parent.name.text : null;
          const before = calls.get(key);
          const methods = method === null || (before && !before[2]) ? undefined : [...(before?.[2] ?? []), method];
          calls.set(key, [namespace, c.name.text, methods]);
        }
      }
      if (ts.isIdentifier(c)) for (const d of codes.resolve(file, c.text)) if (d.file === file) visitDeclaration(d.node);
      ts.forEachChild(c, walk);
    };
    walk(n);
  };
  visitDeclaration(handler);
  return [...calls.values()];
}

/** Whether a parameter or a variable of a function around `id` takes its name (a helper's own `files`, not the namespace alias). */
function shadowed(id: ts.Identifier): boolean {
  const binds = (name: ts.BindingName): boolean =>
    ts.isIdentifier(name) ? name.text === id.text : name.elements.some((e) => !ts.isOmittedExpression(e) && binds(e.name));
  for (let p: ts.Node | undefined = id.parent; p; p = p.parent) {
    if (!ts.isFunctionLike(p)) continue;
    if (p.parameters.some((param) => binds(param.name))) return true;
    let declared = false;
    const body = (p as ts.FunctionLikeDeclaration).body;
    const visit = (n: ts.Node) => {
      if (declared || (n !== body && ts.isFunctionLike(n))) return;
      const alias =
        ts.isVariableDeclaration(n) && n.initializer && ts.isPropertyAccessExpression(n.initializer) && n.initializer.expression.getText() === 'app';
      if (ts.isVariableDeclaration(n) && binds(n.name) && !alias) declared = true;
      ts.forEachChild(n, visit);
    };
    if (body) visit(body);
    if (declared) return true;
  }
  return false;
}
