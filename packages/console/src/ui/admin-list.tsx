import { useInfiniteQuery } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormError } from './form.js';
import { useDebounced } from './use-debounced.js';
import './admin.css';

/** One page of a managing screen's list route: its rows (under the screen's own field), whether more follow, the whole count. */
export interface ListPage {
  readonly hasMore: boolean;
  readonly count: number;
}

/** What `usePagedList` gives a screen: the search typed and the one asked, the rows loaded, the total and the query itself. */
export interface PagedList<T> {
  readonly search: string;
  readonly setSearch: (value: string) => void;
  /** The search once the typing paused (trimmed): what the server was asked. */
  readonly searchParam: string;
  readonly items: readonly T[];
  readonly count: number;
  readonly isSuccess: boolean;
  readonly isLoading: boolean;
  readonly error: unknown;
  readonly hasMore: boolean;
  readonly loadingMore: boolean;
  readonly loadMore: () => void;
}

/**
 * A list route read a page at a time (`pageNumber` from 1, the server's `hasMore` and `count`),
 * searched once the typing pauses. The pages live under `key` + `'page'` (or `segment`) + the search, so the
 * frames that invalidate `key` (apply-frame.ts) refetch them as before.
 */
export function usePagedList<P extends ListPage, T>(options: {
  key: readonly unknown[];
  fetch: (pageNumber: number, searchParam: string | undefined) => Promise<P>;
  items: (page: P) => readonly T[];
  debounceMs?: number;
  /** The key's part after `key` (`'page'`), where another reading of the same route holds `'page'` already. */
  segment?: string;
  /** False while the reader may not ask (a gate the screen shows instead). */
  enabled?: boolean;
  retry?: (failures: number, error: Error) => boolean;
}): PagedList<T> {
  const [search, setSearch] = useState('');
  const searchParam = useDebounced(search.trim(), options.debounceMs ?? 250);
  const query = useInfiniteQuery({
    queryKey: [...options.key, options.segment ?? 'page', searchParam],
    initialPageParam: 1,
    queryFn: ({ pageParam }) => options.fetch(pageParam, searchParam || undefined),
    getNextPageParam: (last, pages) => (last.hasMore ? pages.length + 1 : undefined),
    enabled: options.enabled ?? true,
    ...(options.retry ? { retry: options.retry } : {}),
  });
  return {
    search,
    setSearch,
    searchParam,
    items: query.data?.pages.flatMap((p) => options.items(p)) ?? [],
    count: query.data?.pages[0]?.count ?? 0,
    isSuccess: query.isSuccess,
    isLoading: query.isLoading,
    error: query.error,
    hasMore: query.hasNextPage,
    loadingMore: query.isFetchingNextPage,
    loadMore: () => void query.fetchNextPage(),
  };
}

/**
 * The body of a managing screen under its `AdminHeader`: a status region for what was just done
 * (`notice`), the refusals (`errors`), the count (announced politely), then the table labelled by
 * the screen's title, or the empty text (`noMatch` while searching), and "Show more" while the
 * server has more. `head` is the header row's cells, `row` one row (a `tr`) per item.
 */
export function AdminList<T>(props: {
  labelledBy: string;
  /** A `usePagedList`, or a whole list read at once (no `hasMore`). */
  list: Pick<PagedList<T>, 'items' | 'count' | 'isSuccess' | 'isLoading'> & Partial<Pick<PagedList<T>, 'searchParam' | 'hasMore' | 'loadingMore' | 'loadMore'>>;
  count: (count: number) => string;
  empty: ReactNode;
  noMatch?: ReactNode;
  notice?: string;
  errors?: readonly (string | null | undefined | false)[];
  head: ReactNode;
  row: (item: T) => ReactNode;
  className?: string;
  moreLabel?: string;
}) {
  const { t } = useTranslation();
  const { list } = props;
  return (
    <>
      <p className="visually-hidden" role="status">
        {props.notice ?? ''}
      </p>
      {[...new Set(props.errors?.filter((e): e is string => !!e))].map((text) => (
        <FormError key={text} text={text} />
      ))}
      <p className="list-count" aria-live="polite">
        {list.isSuccess && props.count(list.count)}
      </p>
      {list.isSuccess && list.items.length === 0 ? (
        <p className="placeholder">{list.searchParam && props.noMatch ? props.noMatch : props.empty}</p>
      ) : (
        <table className={props.className ? `admin-table ${props.className}` : 'admin-table'} aria-labelledby={props.labelledBy} aria-busy={list.isLoading}>
          <thead>
            <tr>{props.head}</tr>
          </thead>
          <tbody>{list.items.map((item) => props.row(item))}</tbody>
        </table>
      )}
      {list.hasMore && list.loadMore && (
        <button type="button" onClick={list.loadMore} disabled={list.loadingMore}>
          {props.moreLabel ?? t('list.more')}
        </button>
      )}
    </>
  );
}
