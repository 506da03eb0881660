import { raw } from '@mikro-orm/core';
import { foldForSearch } from '@servicedesk/core';
import { likeTerm } from './context.js';

const ACCENTED = 'ÁÀÂÃÄÅáàâãäåÉÈÊËéèêëÍÌÎÏíìîïÓÒÔÕÖóòôõöÚÙÛÜúùûüÇçÑñÝýÿ';
const PLAIN = 'AAAAAAaaaaaaEEEEeeeeIIIIiiiiOOOOOoooooUUUUuuuuCcNnYyy';

/** SQL for the same folding as `foldForSearch`, without needing the unaccent extension. */
export function foldSql(column: string): string {
  return `lower(translate(coalesce(${column}, ''), '${ACCENTED}', '${PLAIN}'))`;
}

/**
 * A where-clause fragment matching the search term in any of the columns, case- and
 * accent-insensitively. Columns are property-less SQL names relative to the root alias.
 */
export function searchWhere(columns: string[], search: string | undefined): Record<string, unknown> {
  if (!search || !search.trim()) return {};
  const term = likeTerm(foldForSearch(search));
  const expr = (alias: string) => `(${columns.map((c) => `${foldSql(`${alias}.${c}`)} like ?`).join(' or ')})`;
  return {
    [raw(
      expr,
      columns.map(() => term),
    )]: [],
  };
}

/** Orders by a column folded like `foldForSearch`, so that accented names sort with their letter. */
export function foldedOrder(column: string): Record<string, 'asc'> {
  return { [raw((alias: string) => foldSql(`${alias}.${column}`))]: 'asc' };
}
