import { z } from 'zod';

/** The sellers and responsibility views (`SellerView`, `ResponsibleSellerView` of packages/core/src/contact-sellers). */

const SELLER_EXAMPLE = { id: 3, name: 'Ana Souza', email: 'ana@loja.example', profile: 'user' as const };

export const sellerSchema = z
  .object({
    id: z.number().int().positive(),
    name: z.string(),
    email: z.string(),
    profile: z.enum(['user', 'admin']).meta({ description: 'As the user routes answer it: a super user is an `admin`' }),
  })
  .meta({ id: 'Seller', description: "A user who can be a contact's responsible seller", example: SELLER_EXAMPLE });

export const sellerListSchema = z.array(sellerSchema).meta({ id: 'SellerList', description: 'Every user of the company, by name', example: [SELLER_EXAMPLE] });

const namedUser = z.object({ id: z.number().int().positive(), name: z.string() });

export const responsibleSellerSchema = z
  .object({
    contactId: z.number().int().positive(),
    seller: namedUser.nullable().meta({ description: "The contact's responsible seller (its wallet's owner, `walletUserId`); null: none" }),
    since: z.iso.datetime().nullable().meta({ description: 'When the current seller was assigned (or the contact released); null when no record says' }),
    assignedBy: namedUser.nullable().meta({ description: 'Who assigned them; null when no record says, or that user is gone' }),
  })
  .meta({
    id: 'ResponsibleSeller',
    description: 'Who is responsible for a contact, and since when',
    example: { contactId: 42, seller: { id: 3, name: 'Ana Souza' }, since: '2026-02-01T12:00:00.000Z', assignedBy: { id: 1, name: 'Admin' } },
  });
