import { z } from 'zod';
import { tagSummarySchema } from '../tags/tag-schemas.js';

/**
 * The contact views the API answers (see `ContactView`, `ContactPresenter` and the import status
 * in packages/core/src/contacts/), defined once: other features embed them.
 */

const timestamp = z.iso.datetime();

export const contactExtraInfoSchema = z
  .object({
    name: z.string().meta({ description: "The note's label", example: 'CPF' }),
    value: z.string().meta({ description: 'Its text', example: '123.456.789-09' }),
  })
  .meta({ id: 'ContactExtraInfo', description: 'A free key/value note kept on a contact', example: { name: 'CPF', value: '123.456.789-09' } });

export const contactIdentifierSchema = z
  .object({
    kind: z.enum(['phone', 'lid', 'psid']).meta({ description: 'A phone number, a WhatsApp LID, or a Meta page-scoped user id', example: 'lid' }),
    value: z.string().meta({ description: 'For `phone` the canonical number; otherwise as the channel gave it', example: '140211234567890' }),
    pageId: z.string().nullable().meta({ description: 'The page a `psid` belongs to; null for the other kinds', example: null }),
  })
  .meta({
    id: 'ContactIdentifier',
    description: 'One way a channel names the contact; each belongs to one contact of the company',
    example: { kind: 'lid', value: '140211234567890', pageId: null },
  });

const CONTACT_EXAMPLE = {
  id: 42,
  companyId: 1,
  name: 'Maria Souza',
  number: '5511988887777',
  email: 'maria@example.com',
  isGroup: false,
  urlPicture: null,
  blocked: false,
  active: true,
  acceptAudioMessage: true,
  disableBot: false,
  walletUserId: null,
  linkedUserId: null,
  extraInfo: [{ name: 'CPF', value: '123.456.789-09' }],
  createdAt: '2025-01-31T12:00:00.000Z',
  updatedAt: '2025-02-01T09:30:00.000Z',
};

const contactFields = {
  id: z.number().int().meta({ example: 42 }),
  companyId: z.number().int().meta({ example: 1 }),
  name: z.string().meta({ example: 'Maria Souza' }),
  number: z.string().meta({ description: 'Digits only (country, area, number), or a group id', example: '5511988887777' }),
  email: z.string().nullable().meta({ example: 'maria@example.com' }),
  isGroup: z.boolean().meta({ example: false }),
  urlPicture: z.string().nullable().meta({ description: 'The picture the channel last gave', example: null }),
  blocked: z.boolean().meta({ description: 'Its messages are stored but open no ticket and reach no operator (the opposite of `active`)', example: false }),
  active: z.boolean().meta({ description: "Not blocked (the lineage client's name)", example: true }),
  acceptAudioMessage: z.boolean().meta({ description: 'Whether the contact may send audio messages', example: true }),
  disableBot: z.boolean().meta({ description: 'Chatbots and queue menus leave the contact alone', example: false }),
  walletUserId: z.number().int().nullable().meta({ description: 'The operator who owns the contact (its "wallet")', example: null }),
  linkedUserId: z.number().int().nullable().meta({ description: "The platform user this contact is (an employee's own number)", example: null }),
  extraInfo: z.array(contactExtraInfoSchema).meta({ description: 'Notes, in the order the operator gave them' }),
  createdAt: timestamp.meta({ example: '2025-01-31T12:00:00.000Z' }),
  updatedAt: timestamp.meta({ example: '2025-02-01T09:30:00.000Z' }),
};

/** `ContactView`: a contact as lists and realtime events show it. */
export const contactViewSchema = z.object(contactFields).meta({ id: 'Contact', description: 'A contact of the company', example: CONTACT_EXAMPLE });

/** A row of `GET /contacts`: the contact with its tags. */
export const contactListRowSchema = z
  .object({
    ...contactFields,
    tags: z.array(tagSummarySchema).optional().meta({ description: 'Its tags, by name' }),
  })
  .meta({ id: 'ContactListRow', description: 'A contact of the company with its tags', example: { ...CONTACT_EXAMPLE, tags: [] } });

/** `ContactDetails`: one contact opened, with its identifiers and tags. */
export const contactDetailsSchema = z
  .object({
    ...contactFields,
    identifiers: z.array(contactIdentifierSchema).meta({ description: 'Its phone identifier, LIDs and page-scoped ids' }),
    tags: z.array(tagSummarySchema).meta({ description: 'Its tags, by name' }),
  })
  .meta({
    id: 'ContactDetails',
    description: 'A contact with its identifiers and tags',
    example: {
      ...CONTACT_EXAMPLE,
      identifiers: [
        { kind: 'phone', value: '5511988887777', pageId: null },
        { kind: 'lid', value: '140211234567890', pageId: null },
      ],
      tags: [{ id: 7, name: 'Billing', color: '#3b82f6', kanban: true }],
    },
  });

/** What a ticket (or another view) carries of its contact (`ContactSummary` of the ticket presenter). */
export const contactSummarySchema = z
  .object({
    id: z.number().int().meta({ example: 42 }),
    name: z.string().meta({ example: 'Maria Souza' }),
    number: z.string().meta({ example: '5511988887777' }),
    profilePicUrl: z.string().nullable().meta({ example: null }),
  })
  .meta({
    id: 'ContactSummary',
    description: 'The contact a ticket is with',
    example: { id: 42, name: 'Maria Souza', number: '5511988887777', profilePicUrl: null },
  });

export const contactChoiceSchema = z
  .object({
    id: z.number().int().meta({ example: 42 }),
    name: z.string().meta({ example: 'Maria Souza' }),
    number: z.string().meta({ example: '5511988887777' }),
  })
  .meta({ id: 'ContactChoice', description: 'What a contact picker needs', example: { id: 42, name: 'Maria Souza', number: '5511988887777' } });

export const contactPageSchema = z
  .object({
    contacts: z.array(contactListRowSchema).meta({ description: 'This page, by name (20 a page)' }),
    count: z.number().int().nonnegative().meta({ description: 'How many contacts match', example: 1 }),
    hasMore: z.boolean().meta({ description: 'Whether a next page exists', example: false }),
  })
  .meta({ id: 'ContactPage', description: 'A page of contacts', example: { contacts: [CONTACT_EXAMPLE], count: 1, hasMore: false } });

export const contactProfileSchema = z
  .object({
    number: z.string().meta({ description: 'The number asked, digits only', example: '5511988887777' }),
    name: z.string().nullable().meta({ description: 'The public name the provider gave, if any', example: 'Maria' }),
    urlPicture: z.string().nullable().meta({ description: 'The public picture the provider gave, if any', example: 'https://pps.example.net/v/t61/abc.jpg' }),
    contactId: z.number().int().nullable().meta({ description: "The id of the company's contact the number reaches; null when none", example: null }),
    contact: contactViewSchema.nullable().meta({ description: "The company's contact the number reaches (its picture refreshed), if any" }),
  })
  .meta({
    id: 'ContactProfile',
    description: "A number's public profile, as the connection's provider answers it",
    example: { number: '5511988887777', name: 'Maria', urlPicture: 'https://pps.example.net/v/t61/abc.jpg', contactId: null, contact: null },
  });

export const importRowErrorSchema = z
  .object({
    row: z.number().int().meta({ description: 'The row (the header of a file is row 1; a list starts at 1)', example: 3 }),
    reason: z.string().meta({ description: 'The error code of the refusal', example: 'ERR_INVALID_NUMBER' }),
  })
  .meta({ id: 'ContactImportRowError', description: 'A row an import refused', example: { row: 3, reason: 'ERR_INVALID_NUMBER' } });

export const contactImportStatusSchema = z
  .object({
    importId: z
      .string()
      .meta({ description: 'Ask `POST /contactsImport` with it for the progress or report (kept a day)', example: '4f1c2b8e-9d7a-4c1e-8b0a-2f6d5e3c1a90' }),
    source: z.enum(['file', 'list', 'addressBook']).meta({ example: 'file' }),
    fileName: z.string().nullable().meta({ description: "The file's name, or the connection's for an address book", example: 'contacts.csv' }),
    status: z.enum(['running', 'done', 'failed']).meta({ example: 'running' }),
    total: z.number().int().nonnegative().meta({ description: 'Rows to import', example: 120 }),
    processed: z.number().int().nonnegative().meta({ example: 0 }),
    created: z.number().int().nonnegative().meta({ example: 0 }),
    merged: z.number().int().nonnegative().meta({ description: 'Rows merged into an existing contact or an earlier row', example: 0 }),
    failed: z.number().int().nonnegative().meta({ description: 'Rows refused (all of them, even past the 1,000 listed)', example: 0 }),
    errors: z.array(importRowErrorSchema).meta({ description: 'The first 1,000 refused rows' }),
    errorsTruncated: z.boolean().meta({ example: false }),
    error: z.string().nullable().meta({ description: 'Why a failed import stopped (earlier batches stay imported)', example: null }),
    startedAt: timestamp.meta({ example: '2025-02-01T09:30:00.000Z' }),
    finishedAt: timestamp.nullable().meta({ example: null }),
  })
  .meta({
    id: 'ContactImportStatus',
    description: 'The progress, then the report, of a contact import',
    example: {
      importId: '4f1c2b8e-9d7a-4c1e-8b0a-2f6d5e3c1a90',
      source: 'file',
      fileName: 'contacts.csv',
      status: 'running',
      total: 120,
      processed: 0,
      created: 0,
      merged: 0,
      failed: 0,
      errors: [],
      errorsTruncated: false,
      error: null,
      startedAt: '2025-02-01T09:30:00.000Z',
      finishedAt: null,
    },
  });

export const contactDeletedSchema = z
  .object({ message: z.literal('Contact deleted') })
  .meta({ id: 'ContactDeleted', description: 'The contact is gone, with its tickets and messages', example: { message: 'Contact deleted' } });

export const contactChoiceListSchema = z
  .array(contactChoiceSchema)
  .meta({ id: 'ContactChoiceList', description: 'Contacts by name, for pickers', example: [{ id: 42, name: 'Maria Souza', number: '5511988887777' }] });
