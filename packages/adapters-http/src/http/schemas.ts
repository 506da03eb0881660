import { z } from 'zod';

/** A positive integer id from a path segment. */
export const id = z.coerce.number().int().positive().max(2_147_483_647);
export const idParam = <K extends string>(name: K) => z.object({ [name]: id } as Record<K, typeof id>);

/** The lineage's list query: `searchParam` and a 1-based `pageNumber`. */
export const pagedQuery = z.object({
  searchParam: z.string().max(200).optional(),
  pageNumber: z.coerce.number().int().positive().max(1_000_000).optional(),
});

/** Form fields arrive as strings; accept the usual spellings of a boolean. */
export const formBoolean = z.union([z.boolean(), z.enum(['true', 'false', '1', '0'])]).transform((v) => v === true || v === 'true' || v === '1');

export const email = z.string().trim().max(254).email();
export const password = z.string().min(1).max(128);
