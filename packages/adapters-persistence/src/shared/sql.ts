import { raw } from '@mikro-orm/core';

/** `count` placeholders joined by commas, for `in (...)` lists and multi-row `values`: `marks(3)` → `?, ?, ?`. */
export function marks(count: number, mark = '?'): string {
  return Array.from({ length: count }, () => mark).join(', ');
}

/**
 * The tenancy check of a statement that finds its row by primary key: `company_id = ?`, written
 * so that no index can serve it. Plain, it lets the planner scan a company-leading index for the
 * company and filter the id, which it does when its statistics think the company small: a tenant
 * that grew since the last ANALYZE (a new company beside a large one) then reads all its rows for
 * each single-row statement. The primary key is always the way in; the company is still checked.
 */
export function companyCheck(alias?: string): string {
  return `(${alias ? `${alias}.` : ''}company_id = ?) is true`;
}

/** `companyCheck` as a MikroORM condition, to spread beside the key: `{ id, ...inCompany(companyId) }`. */
export function inCompany(companyId: number): Record<string, never[]> {
  return { [raw((alias: string) => companyCheck(alias), [companyId])]: [] };
}

/**
 * The rounds a batch of changes is written in when a row can take only one change per statement:
 * each item goes one round after the previous item with the same key, so one row's changes apply in
 * the order given. Items whose key is null are left out. Answers the items' indexes, round by round.
 */
export function changeRounds<T>(items: readonly T[], key: (item: T) => string | null): number[][] {
  const rounds: number[][] = [];
  const lastRound = new Map<string, number>();
  items.forEach((item, i) => {
    const k = key(item);
    if (k === null) return;
    const round = (lastRound.get(k) ?? -1) + 1;
    lastRound.set(k, round);
    (rounds[round] ??= []).push(i);
  });
  return rounds;
}

/** `list` in consecutive slices of at most `size`. */
export function slices<T>(list: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let from = 0; from < list.length; from += size) out.push(list.slice(from, from + size));
  return out;
}
