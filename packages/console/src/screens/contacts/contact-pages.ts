import { must } from '../../api/client.js';
import { keys } from '../../realtime/apply-frame.js';
import type { useServices } from '../../services.js';

/** What the list shows (a search, a tag); the export reads the same pages. */
export type ContactFilter = { readonly searchParam: string; readonly tagId: number | null };

/** The server's page size of `GET /contacts`. */
export const PAGE_SIZE = 20;

/** The query of one page of the list for a filter: under `contacts`, so a `contact` frame refetches the pages shown. */
export function contactPageQuery(api: ReturnType<typeof useServices>['api'], filter: ContactFilter, pageNumber: number) {
  return {
    queryKey: [...keys.contacts, filter, pageNumber] as const,
    queryFn: () =>
      must(
        api.GET('/contacts', {
          params: {
            query: {
              pageNumber,
              ...(filter.searchParam ? { searchParam: filter.searchParam } : {}),
              ...(filter.tagId ? { contactTag: [filter.tagId] } : {}),
            },
          },
          // `contactTag` is a JSON list in the query, as the route reads it.
          querySerializer: (q: Record<string, unknown>) =>
            new URLSearchParams(
              Object.entries(q)
                .filter(([, v]) => v !== undefined)
                .map(([k, v]) => [k, Array.isArray(v) ? JSON.stringify(v) : String(v)]),
            ).toString(),
        }),
      ),
    staleTime: 30_000,
  };
}
