/** The reports' routes answer pages of 20. */
export const PAGE_SIZE = 20;

/**
 * Every row a paged route holds for one filter: the first page says how many there are, the
 * others are asked `parallel` at a time; a row seen twice (the list moved while it was read) is
 * kept once, in page order. `progress` hears how many rows have arrived.
 */
export async function readAllPages<R extends { id: number }>(
  page: (n: number) => Promise<{ rows: readonly R[]; count: number }>,
  options: { parallel?: number; progress?: (done: number, total: number) => void } = {},
): Promise<R[]> {
  const first = await page(1);
  const pageCount = Math.max(1, Math.ceil(first.count / PAGE_SIZE));
  const pages: Array<readonly R[]> = [first.rows];
  let done = first.rows.length;
  options.progress?.(done, first.count);
  let next = 2;
  const worker = async () => {
    while (next <= pageCount) {
      const n = next++;
      const { rows } = await page(n);
      pages[n - 1] = rows;
      done += rows.length;
      options.progress?.(done, first.count);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, options.parallel ?? 4) }, worker));
  const seen = new Set<number>();
  return pages.flat().filter((r) => !seen.has(r.id) && seen.add(r.id));
}

/** Saves text as a file through a temporary link (the browser's download). */
export function download(text: string, name: string, type = 'text/csv;charset=utf-8'): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** `SP, 21 , rj` → `['SP', '21', 'RJ']`: the states or area codes the report takes. */
export function dddsOf(text: string): string[] {
  return text
    .split(/[\s,;]+/)
    .map((x) => x.trim().toUpperCase())
    .filter(Boolean);
}
