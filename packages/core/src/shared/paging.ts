export interface PageRequest {
  readonly offset: number;
  readonly limit: number;
}
export interface Page<T> {
  readonly rows: T[];
  readonly count: number;
}

export const DEFAULT_PAGE_SIZE = 20;

/** The lineage's `pageNumber` (1-based) converted to an offset window. */
export function pageFromNumber(pageNumber: number | undefined, pageSize = DEFAULT_PAGE_SIZE): PageRequest {
  const n = pageNumber && pageNumber > 0 ? Math.floor(pageNumber) : 1;
  return { offset: (n - 1) * pageSize, limit: pageSize };
}

export function hasMore(page: PageRequest, count: number): boolean {
  return page.offset + page.limit < count;
}
