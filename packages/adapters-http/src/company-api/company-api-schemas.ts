import { z } from 'zod';

/**
 * The views of the company integration API (packages/core/src/company-api): helps, partners,
 * invoices and the platform activity counts, with their pages.
 */

const rowId = (example: number, description?: string) =>
  z
    .number()
    .int()
    .positive()
    .meta({ ...(description ? { description } : {}), example });
const timestamp = (example: string) => z.iso.datetime().meta({ example });
const count = (description: string, example: number) => z.number().int().min(0).meta({ description, example });
const hasMore = z.boolean().meta({ description: 'Whether a next page (of 20) exists', example: false });
/** A money-like decimal with two places, kept as a string so that cents stay exact. */
const decimal = (description: string, example: string) =>
  z
    .string()
    .regex(/^\d{1,10}\.\d{2}$/)
    .meta({ description, example });
const day = (description: string, example: string) => z.iso.date().meta({ description, example });

const CREATED = '2025-01-31T12:00:00.000Z';
const UPDATED = '2025-02-03T09:30:00.000Z';

// ---- helps ----

const HELP_EXAMPLE = {
  id: 3,
  title: 'Connecting a WhatsApp number',
  description: 'Scan the QR code from **Connections**.',
  video: 'https://videos.example.com/connect',
  link: null,
  createdAt: CREATED,
  updatedAt: UPDATED,
};

export const helpSchema = z
  .object({
    id: rowId(3),
    title: z.string().min(1).max(200).meta({ example: 'Connecting a WhatsApp number' }),
    description: z.string().max(10_000).meta({ description: 'Markdown text; empty when none was given', example: 'Scan the QR code from **Connections**.' }),
    video: z.string().max(500).nullable().meta({ description: 'A video address', example: 'https://videos.example.com/connect' }),
    link: z.string().max(500).nullable().meta({ description: 'A link to more reading', example: null }),
    createdAt: timestamp(CREATED),
    updatedAt: timestamp(UPDATED),
  })
  .meta({ id: 'Help', description: "A help article or video shown to every company's operators (platform-wide)", example: HELP_EXAMPLE });

export const helpPageSchema = z
  .object({
    helps: z.array(helpSchema),
    count: count('How many helps match in all', 1),
    hasMore,
  })
  .meta({ id: 'HelpPage', description: 'A page of helps, by title', example: { helps: [HELP_EXAMPLE], count: 1, hasMore: false } });

// ---- partners ----

const PARTNER_EXAMPLE = {
  id: 5,
  name: 'Acme Resellers',
  email: 'sales@acme.example',
  phone: '+55 11 91234-5678',
  document: '11222333000181',
  commission: '10.00',
  typeCommission: 'percent' as const,
  walletId: 'wal_8f2c',
  createdAt: CREATED,
  updatedAt: UPDATED,
};

export const partnerSchema = z
  .object({
    id: rowId(5),
    name: z.string().min(2).max(120).meta({ example: 'Acme Resellers' }),
    email: z.string().max(254).nullable().meta({ description: 'Lower-cased', example: 'sales@acme.example' }),
    phone: z.string().max(40).nullable().meta({ example: '+55 11 91234-5678' }),
    document: z
      .string()
      .regex(/^(\d{11}|\d{14})$/)
      .nullable()
      .meta({ description: 'CPF (11 digits) or CNPJ (14 digits), digits only', example: '11222333000181' }),
    commission: decimal('A percentage or an amount, by `typeCommission`', '10.00'),
    typeCommission: z.enum(['percent', 'fixed']).meta({ description: 'A percentage of the sale or a fixed amount', example: 'percent' }),
    walletId: z.string().max(120).nullable().meta({ description: "The partner's wallet at the payment provider, for split payments", example: 'wal_8f2c' }),
    createdAt: timestamp(CREATED),
    updatedAt: timestamp(UPDATED),
  })
  .meta({ id: 'Partner', description: 'A reseller or affiliate of the platform (platform-wide)', example: PARTNER_EXAMPLE });

export const partnerPageSchema = z
  .object({
    partners: z.array(partnerSchema),
    count: count('How many partners match in all', 1),
    hasMore,
  })
  .meta({ id: 'PartnerPage', description: 'A page of partners, by name', example: { partners: [PARTNER_EXAMPLE], count: 1, hasMore: false } });

// ---- invoices ----

const INVOICE_EXAMPLE = {
  id: 21,
  companyId: 1,
  detail: 'Plan Pro, March 2025',
  status: 'paid' as const,
  value: '199.90',
  dueDate: '2025-03-10',
  paidAt: '2025-03-08T14:12:00.000Z',
  createdAt: CREATED,
  updatedAt: '2025-03-08T14:12:00.000Z',
};

export const invoiceSchema = z
  .object({
    id: rowId(21),
    companyId: rowId(1, 'The billed company'),
    detail: z.string().min(1).max(500).meta({ example: 'Plan Pro, March 2025' }),
    status: z.enum(['open', 'paid', 'cancelled']).meta({ example: 'paid' }),
    value: decimal('The amount due', '199.90'),
    dueDate: day('The calendar day the invoice falls due', '2025-03-10'),
    paidAt: z.iso.datetime().nullable().meta({ description: 'When it was marked paid; null while open or cancelled', example: '2025-03-08T14:12:00.000Z' }),
    createdAt: timestamp(CREATED),
    updatedAt: timestamp('2025-03-08T14:12:00.000Z'),
  })
  .meta({ id: 'Invoice', description: 'What a company owes the platform for one period', example: INVOICE_EXAMPLE });

export const invoicePageSchema = z
  .object({
    invoices: z.array(invoiceSchema),
    count: count('How many invoices match in all', 1),
    hasMore,
  })
  .meta({ id: 'InvoicePage', description: 'A page of invoices, newest first', example: { invoices: [INVOICE_EXAMPLE], count: 1, hasMore: false } });

// ---- platform activity ----

const PLATFORM_CONTACT_EXAMPLE = { id: 42, companyId: 1, name: 'Maria Souza', number: '5511912345678', email: 'maria@example.com', createdAt: CREATED };

export const platformContactSchema = z
  .object({
    id: rowId(42),
    companyId: rowId(1, 'The company the contact belongs to'),
    name: z.string().meta({ example: 'Maria Souza' }),
    number: z.string().meta({ description: "The contact's number (or group id)", example: '5511912345678' }),
    email: z.string().nullable().meta({ example: 'maria@example.com' }),
    createdAt: timestamp(CREATED),
  })
  .meta({ id: 'PlatformContact', description: 'A contact as the integration API reports it', example: PLATFORM_CONTACT_EXAMPLE });

export const platformContactPageSchema = z
  .object({
    contacts: z.array(platformContactSchema),
    count: count('How many contacts match in all', 1),
    hasMore,
  })
  .meta({
    id: 'PlatformContactPage',
    description: 'A page of contacts of every company (or one), by name',
    example: { contacts: [PLATFORM_CONTACT_EXAMPLE], count: 1, hasMore: false },
  });

export const contactCountSchema = z
  .object({
    count: count('How many contacts', 1532),
  })
  .meta({ id: 'PlatformContactCount', description: 'How many contacts every company (or one) has', example: { count: 1532 } });

export const messageRangeCountSchema = z
  .object({
    count: count('How many messages were created in the range', 9021),
    dateFrom: z.iso.datetime().meta({ description: "The range's first instant (a day starts at 00:00 UTC)", example: '2025-03-01T00:00:00.000Z' }),
    dateTo: z.iso.datetime().meta({ description: "The range's last instant, included (a day ends at 23:59:59.999 UTC)", example: '2025-03-31T23:59:59.999Z' }),
  })
  .meta({
    id: 'MessageRangeCount',
    description: 'How many messages were sent or received in the range',
    example: { count: 9021, dateFrom: '2025-03-01T00:00:00.000Z', dateTo: '2025-03-31T23:59:59.999Z' },
  });

/** What the integration API's deletes answer. */
export const deletedSchema = z
  .object({
    message: z.string().meta({ example: 'Help deleted' }),
  })
  .meta({ id: 'DeletedMessage', description: 'A confirmation that the row is gone', example: { message: 'Help deleted' } });
