/**
 * A tiny in-memory table with auto-increment ids. Rows are cloned on the way in and out so
 * that callers cannot mutate stored state without calling `update`, as with a real database.
 */
export class InMemoryTable<T extends { id: number }> {
  private readonly rows = new Map<number, T>();
  private nextId = 1;

  insert(row: Omit<T, 'id'>): T {
    const stored = { ...structuredClone(row), id: this.nextId++ } as T;
    this.rows.set(stored.id, stored);
    return structuredClone(stored);
  }

  get(id: number): T | null {
    const row = this.rows.get(id);
    return row ? structuredClone(row) : null;
  }

  replace(row: T): void {
    if (this.rows.has(row.id)) this.rows.set(row.id, structuredClone(row));
  }

  delete(id: number): void {
    this.rows.delete(id);
  }

  filter(predicate: (row: T) => boolean): T[] {
    return [...this.rows.values()].filter(predicate).map((r) => structuredClone(r));
  }

  find(predicate: (row: T) => boolean): T | null {
    for (const row of this.rows.values()) if (predicate(row)) return structuredClone(row);
    return null;
  }
}

import { foldForSearch } from '../shared/text.js';

/** The ordering the SQL adapters use: folded (accent- and case-free), then code point. */
export function compareFolded(a: string, b: string): number {
  const fa = foldForSearch(a);
  const fb = foldForSearch(b);
  return fa < fb ? -1 : fa > fb ? 1 : 0;
}

export function slice<T>(rows: T[], page: { offset: number; limit: number }) {
  return { rows: rows.slice(page.offset, page.offset + page.limit), count: rows.length };
}
