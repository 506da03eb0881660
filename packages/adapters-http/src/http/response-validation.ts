import type { z } from 'zod';
import type { RouteSpec } from './route.js';

/** A handler answered a body its route's response schema refuses (found with `validateResponses`). */
export class ResponseSchemaMismatch extends Error {
  constructor(
    readonly route: string,
    readonly issues: ReadonlyArray<{ readonly path: string; readonly message: string }>,
  ) {
    super(`${route} answered a body its response schema refuses: ${issues.map((i) => `at ${i.path}: ${i.message}`).join('; ')}`);
    this.name = 'ResponseSchemaMismatch';
  }
}

/** `$.tags[0].name`: where in the body an issue is. */
function where(path: ReadonlyArray<PropertyKey>): string {
  return path.reduce<string>((at, key) => (typeof key === 'number' ? `${at}[${key}]` : `${at}.${String(key)}`), '$');
}

const isBinary = (value: unknown) =>
  Buffer.isBuffer(value) ||
  value instanceof Uint8Array ||
  (typeof value === 'object' && value !== null && typeof (value as { pipe?: unknown }).pipe === 'function');

/**
 * Checks what a handler returned against its route's declaration, as the client will read it
 * (after JSON serialisation): a 204 route answers nothing; a route with a response schema answers
 * a body that schema accepts. Routes without a schema, and binary bodies, are not checked.
 */
export async function assertResponseMatches(spec: RouteSpec, result: unknown): Promise<void> {
  const route = `${spec.method} ${spec.path}`;
  if (spec.status === 204) {
    if (result !== undefined) throw new ResponseSchemaMismatch(route, [{ path: '$', message: 'a 204 route answered a body' }]);
    return;
  }
  if (!spec.response || isBinary(result)) return;
  const json: unknown = result === undefined ? undefined : JSON.parse(JSON.stringify(result) ?? 'null');
  const checked = await (spec.response as z.ZodType).safeParseAsync(json);
  if (checked.success) return;
  const issues = checked.error.issues.slice(0, 20).map((i) => ({ path: where(i.path), message: i.message }));
  if (result === undefined) issues.unshift({ path: '$', message: 'the handler answered no body (204), the route declares one' });
  throw new ResponseSchemaMismatch(route, issues);
}

/** The routes that declare neither a response schema nor `status: 204`, as `METHOD path`. */
export function routesWithoutResponseSchema(routes: readonly RouteSpec[]): string[] {
  return routes.filter((r) => !r.response && r.status !== 204).map((r) => `${r.method} ${r.path}`);
}
