import type { Schema } from '../../api/client.js';

type Category = Schema<'Category'>;

/** The categories in the order they show: each top-level one followed by its subcategories. */
export function categoryTree(categories: readonly Category[]): Array<Category & { depth: 0 | 1 }> {
  const tops = categories.filter((c) => c.parentId === null || !categories.some((p) => p.id === c.parentId));
  return tops.flatMap((top) => [{ ...top, depth: 0 as const }, ...categories.filter((c) => c.parentId === top.id).map((c) => ({ ...c, depth: 1 as const }))]);
}
