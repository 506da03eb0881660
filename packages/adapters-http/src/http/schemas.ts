import { z } from 'zod';

/** A positive integer id from a path segment. */
export const id = z.coerce.number().int().positive().max(2_147_483_647);
/** `ticketId` → "The ticket's id"; a bare `id` is the id of the row the path names. */
export const paramDescription = (name: string) =>
  name === 'id'
    ? "The id of the row the path names, in the caller's company"
    : `The ${name
        .replace(/Id$/, '')
        .replace(/([a-z])([A-Z])/g, '$1 $2')
        .toLowerCase()}'s id`;
export const idParam = <K extends string>(name: K) =>
  z.object({ [name]: id.meta({ description: paramDescription(name), example: 1 }) } as Record<K, typeof id>);

/** The lineage's list query: `searchParam` and a 1-based `pageNumber`. */
export const pagedQuery = z.object({
  searchParam: z.string().max(200).optional().meta({ description: 'Text to look for (ignoring case and accents); empty or absent: everything' }),
  pageNumber: z.coerce.number().int().positive().max(1_000_000).optional().meta({ description: 'The page to answer, from 1 (the default)', example: 1 }),
});

/** Form fields arrive as strings; accept the usual spellings of a boolean. */
export const formBoolean = z.union([z.boolean(), z.enum(['true', 'false', '1', '0'])]).transform((v) => v === true || v === 'true' || v === '1');

export const email = z.string().trim().max(254).email();
export const password = z.string().min(1).max(128);
