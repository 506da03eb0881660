import type { RouteSpec } from './route.js';

const words = (text: string) => text.split(/[^A-Za-z0-9]+/).filter(Boolean);
const capitalized = (word: string) => word[0]!.toUpperCase() + word.slice(1);

/**
 * The operation id derived from method and path, camelCase: `GET /tags/:tagId` → `getTagsByTagId`,
 * `DELETE /tags-contacts/:tagId/:contactId` → `deleteTagsContactsByTagIdAndContactId`, `POST /` → `postRoot`.
 */
export function deriveOperationId(method: string, path: string): string {
  const segments = path.split('/').filter(Boolean);
  if (!segments.length) return `${method.toLowerCase()}Root`;
  let id = method.toLowerCase();
  let afterParam = false;
  for (const segment of segments) {
    const isParam = segment.startsWith(':') || segment.startsWith('*');
    const name = words(isParam ? segment.slice(1) : segment)
      .map(capitalized)
      .join('');
    id += isParam ? `${afterParam ? 'And' : 'By'}${name}` : name;
    afterParam = isParam;
  }
  return id;
}

/**
 * The operation id of every route: its declared `operationId`, else the derived one. Two paths
 * deriving the same id (`/contacts/import` and `/contactsImport`) are told apart by a number, given
 * in path order so the result does not depend on the order of registration. Two routes declaring
 * the same id are a mistake, refused here.
 */
export function operationIds(routes: readonly RouteSpec[]): Map<RouteSpec, string> {
  const ids = new Map<RouteSpec, string>();
  const taken = new Set<string>();
  for (const r of routes) {
    if (r.operationId === undefined) continue;
    if (taken.has(r.operationId)) throw new Error(`operationId ${r.operationId} is declared twice (${r.method} ${r.path})`);
    taken.add(r.operationId);
    ids.set(r, r.operationId);
  }
  const derived = new Map<string, RouteSpec[]>();
  for (const r of routes) {
    if (r.operationId !== undefined) continue;
    const id = deriveOperationId(r.method, r.path);
    derived.set(id, [...(derived.get(id) ?? []), r]);
  }
  for (const [id, group] of derived) {
    const ordered = [...group].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    let n = 1;
    for (const r of ordered) {
      let candidate = n === 1 ? id : `${id}${n}`;
      while (taken.has(candidate)) candidate = `${id}${++n}`;
      taken.add(candidate);
      ids.set(r, candidate);
      n++;
    }
  }
  return ids;
}
