import { MAX_CONTACT_NAME, MAX_EXTRA_INFO, MAX_IDENTIFIERS_PER_CONTACT, type Application } from '@servicedesk/core';
import { z } from 'zod';
import { route } from '../http/route.js';
import { formBoolean, id, idParam, pagedQuery } from '../http/schemas.js';
import { contactChoiceListSchema, contactDeletedSchema, contactDetailsSchema, contactPageSchema, contactProfileSchema } from './contact-schemas.js';
import { contactTagsSchema } from '../tags/tag-schemas.js';

/** Numbers come digits-only or formatted (`+55 (11) 98888-7777`), as text or as a JSON number; the use cases check them. */
const numberField = z.union([z.string().max(40), z.number().int().nonnegative().transform(String)]).meta({
  description:
    'The number with country and area code, digits only or formatted (`+55 (11) 98888-7777`), as text or a JSON number: 8 to 15 digits, ' +
    "unique in the company; a group's number cannot change",
});
const extraInfo = z
  .array(
    z.object({
      name: z.string().max(200).meta({ description: "The note's label, trimmed: 1 to 100 characters (a row with both fields blank is dropped)" }),
      value: z.string().max(2000).meta({ description: 'Its text, up to 1,000 characters' }),
    }),
  )
  .max(MAX_EXTRA_INFO)
  .meta({ description: "Free notes (label and text), in the order shown; they replace the contact's notes" });
/**
 * As `GET /contacts/:contactId` answers them: a phone identifier sent back is accepted and ignored
 * (it follows the number); the LIDs and page-scoped ids given replace the contact's.
 */
const identifiers = z
  .array(
    z.object({
      kind: z
        .enum(['phone', 'lid', 'psid'])
        .meta({ description: '`lid`: a WhatsApp LID; `psid`: a Meta page-scoped user id; `phone` is accepted and ignored (it follows `number`)' }),
      value: z.string().max(200).meta({ description: 'The id as the channel gives it, trimmed: 1 to 100 characters' }),
      pageId: z
        .string()
        .max(200)
        .nullable()
        .optional()
        .meta({ description: 'The page a `psid` belongs to (required for `psid`); ignored for the other kinds' }),
    }),
  )
  .max(MAX_IDENTIFIERS_PER_CONTACT + 1)
  .meta({
    description: `The contact's LIDs and page-scoped ids (up to ${MAX_IDENTIFIERS_PER_CONTACT}, phone identifiers aside), replacing those it has; each may belong to one contact only`,
  });

/**
 * What the contact forms send: the lineage client posts its form values and, on edit, the whole
 * `GET /contacts/:contactId` answer back; the read-only fields of that answer (`id`, `urlPicture`,
 * `tags`, `createdAt`...) and the lineage's fields we do not model (`lgpdAcceptedAt`, `chatappId`,
 * `companyId`...) are ignored. `active: false` (the lineage's name) or `blocked: true` blocks.
 */
const contactFields = z
  .object({
    name: z
      .string()
      .max(MAX_CONTACT_NAME * 2)
      .meta({
        description: `Trimmed, inner spaces collapsed, at most ${MAX_CONTACT_NAME} characters; empty on a create: the number (an edit refuses it)`,
      }),
    number: numberField,
    email: z.string().max(254).nullable().meta({ description: 'Stored lower case; empty or null: none' }),
    extraInfo,
    identifiers,
    acceptAudioMessage: z.boolean().meta({ description: 'Whether the contact may send audio messages; new contacts: true' }),
    disableBot: z.boolean().meta({ description: '`true`: chatbots and queue menus leave the contact alone; new contacts: false' }),
    active: z.boolean().meta({ description: "`false` blocks the contact, `true` unblocks it (the lineage's name; taken over `blocked` when both come)" }),
    blocked: z.boolean().meta({ description: '`true` blocks the contact: its messages are stored but open no ticket; new contacts: false' }),
  })
  .partial();
const CONTACT_BODY_EXAMPLE = {
  name: 'Maria Souza',
  number: '+55 (11) 98888-7777',
  email: 'maria@example.com',
  extraInfo: [{ name: 'CPF', value: '123.456.789-09' }],
  identifiers: [{ kind: 'lid', value: '140211234567890' }],
  disableBot: false,
};

/** The form's values as the use cases take them. */
function contactInput(body: z.infer<typeof contactFields>) {
  const { identifiers: given, acceptAudioMessage, active, blocked, ...rest } = body;
  return {
    ...rest,
    ...(given === undefined ? {} : { identifiers: given.filter((i) => i.kind !== 'phone') }),
    ...(acceptAudioMessage === undefined ? {} : { acceptAudio: acceptAudioMessage }),
    ...(active === undefined ? (blocked === undefined ? {} : { blocked }) : { blocked: !active }),
  };
}

/** The lineage's `contactTag`: a JSON list of tag ids (`"[3,5]"`, `"[]"`), or the ids repeated as `contactTag[]`. */
const tagIdList = z.preprocess((v) => {
  if (typeof v !== 'string') return v;
  if (v.trim() === '') return [];
  try {
    return JSON.parse(v) as unknown;
  } catch {
    return v;
  }
}, z.array(id).max(100));

/**
 * Contacts: the company's address book with search and paging, one contact with its identifiers
 * and tags, the settings operators toggle (audio, bot, block), its owner ("wallet") and the
 * platform user it is, and a number's public profile asked of the connection's provider.
 * Reading and editing are open to every operator; deleting, wallets and linked users need an admin.
 */
export function contactRoutes(app: Pick<Application, 'contacts'>) {
  const tag = 'Contacts';
  const byId = idParam('contactId');
  return [
    route({
      method: 'GET',
      path: '/contacts',
      auth: 'isAuth',
      tag,
      summary: 'Page through the contacts by name, searching name, e-mail or number',
      description:
        'Any operator of the company. Twenty contacts a page, ordered by name, each with its tags; `searchParam` matches name, e-mail or number, ' +
        '`contactTag` (a JSON list of tag ids, as the lineage client sends it) keeps the contacts with any of those tags, `isGroup` only groups or only people. ' +
        '`dateStart`/`dateEnd` (`YYYY-MM-DD`, UTC, both days included) the contacts created within (the dashboard counts them). ' +
        "The lineage client's other filters (`channel`, `date`) are accepted and ignored.",
      response: contactPageSchema,
      errors: [{ status: 422, codes: ['ERR_INVALID_DATE'] }],
      query: pagedQuery.extend({
        contactTag: tagIdList
          .optional()
          .meta({ description: 'Only contacts with any of these tags: a JSON list of tag ids (`[3,5]`); `[]` or empty: any', example: [3, 5] }),
        'contactTag[]': z
          .union([id, z.array(id).max(100)])
          .optional()
          .meta({ description: 'The same tag ids, the parameter repeated (`contactTag[]=3&contactTag[]=5`); `contactTag` wins when both come', example: 3 }),
        isGroup: formBoolean.optional().meta({ description: '`true` or `1`: only groups; `false` or `0`: only people; absent: both' }),
        dateStart: z.string().max(10).optional().meta({ description: 'First creation day, `YYYY-MM-DD` (UTC), included', example: '2025-03-01' }),
        dateEnd: z.string().max(10).optional().meta({ description: 'Last creation day, `YYYY-MM-DD` (UTC), included', example: '2025-03-31' }),
      }),
      handler: async ({ actor, query }) => {
        const listed = query['contactTag[]'];
        const tagIds = query.contactTag ?? (listed === undefined ? undefined : [listed].flat());
        const { searchParam, pageNumber, isGroup, dateStart, dateEnd } = query;
        return app.contacts.listContacts.execute({ actor, searchParam, pageNumber, tagIds, isGroup, dateStart, dateEnd });
      },
    }),
    // Before `/contacts/:contactId`, which would take "list" for an id.
    route({
      method: 'GET',
      path: '/contacts/list',
      auth: 'isAuth',
      tag,
      summary: 'Id, name and number of the contacts, by name, for pickers',
      description: 'Any operator of the company. At most `limit` contacts (1,000 by default, 5,000 at most), ordered by name.',
      response: contactChoiceListSchema,
      query: z.object({
        searchParam: z
          .string()
          .max(200)
          .optional()
          .meta({ description: 'Text to look for in the name, e-mail or number (ignoring case and accents); empty or absent: every contact' }),
        limit: z.coerce.number().int().positive().max(5000).optional().meta({ description: 'How many contacts at most; absent: 1,000', example: 200 }),
      }),
      handler: async ({ actor, query }) => app.contacts.listContactChoices.execute({ actor, ...query }),
    }),
    route({
      method: 'GET',
      path: '/contacts/profile/:number',
      auth: 'isAuth',
      tag,
      summary: "Ask the connection's provider for a number's name and picture",
      description:
        "Any operator. Asks the given connection (`connectionId`, or the lineage's `chatappId`), else the default one, else the first connected session; " +
        'when the number reaches a contact whose picture changed, the contact is updated and `company-<id>-contact` is emitted.',
      response: contactProfileSchema,
      errors: [
        { status: 404, codes: ['ERR_NO_CONNECTION_FOUND', 'ERR_NO_DEFAULT_CONNECTION'] },
        { status: 409, codes: ['ERR_SESSION_NOT_CONNECTED'] },
        { status: 422, codes: ['ERR_MISSING_NUMBER', 'ERR_INVALID_NUMBER'] },
      ],
      params: z.object({
        number: z
          .string()
          .min(1)
          .max(40)
          .meta({ description: 'The number to look up, with country and area code, digits only or formatted', example: '5511988887777' }),
      }),
      query: z.object({
        chatappId: id.optional().meta({ description: "The lineage's name for `connectionId`", example: 2 }),
        connectionId: id.optional().meta({
          description: 'The connection to ask; absent: the default connection, else the first connected session',
          example: 2,
        }),
      }),
      handler: async ({ actor, params, query }) =>
        app.contacts.getContactProfile.execute({ actor, number: params.number, connectionId: query.connectionId ?? query.chatappId }),
    }),
    route({
      method: 'GET',
      path: '/contacts/:contactId',
      auth: 'isAuth',
      tag,
      summary: 'Show a contact with its identifiers and tags',
      params: byId,
      description: 'Any operator of the company.',
      response: contactDetailsSchema,
      errors: [{ status: 404, codes: ['ERR_NO_CONTACT_FOUND'] }],
      handler: async ({ actor, params }) => app.contacts.showContact.execute({ actor, contactId: params.contactId }),
    }),
    route({
      method: 'POST',
      path: '/contacts',
      auth: 'isAuth',
      tag,
      summary: 'Create a contact (409 when the number already reaches one)',
      status: 201,
      description: "Any operator. An empty name takes the number; e-mails are stored lower case. Emits `company-<id>-contact` (`action: 'create'`).",
      response: contactDetailsSchema,
      errors: [
        { status: 409, codes: ['ERR_DUPLICATED_CONTACT'] },
        {
          status: 422,
          codes: [
            'ERR_MISSING_NUMBER',
            'ERR_INVALID_NUMBER',
            'ERR_NAME_TOO_LONG',
            'ERR_INVALID_EMAIL',
            'ERR_TOO_MANY_EXTRA_INFO',
            'ERR_INVALID_EXTRA_INFO',
            'ERR_TOO_MANY_IDENTIFIERS',
            'ERR_INVALID_IDENTIFIER',
          ],
        },
      ],
      body: contactFields.extend({ number: numberField }).meta({ example: CONTACT_BODY_EXAMPLE }),
      handler: async ({ actor, body }) => app.contacts.createContact.execute({ actor, ...contactInput(body) }),
    }),
    route({
      method: 'PUT',
      path: '/contacts/:contactId',
      auth: 'isAuth',
      tag,
      summary: 'Change a contact (identifiers given replace its LIDs and page ids)',
      description: "Any operator. Changes the fields given; a group keeps its number. Emits `company-<id>-contact` (`action: 'update'`, the contact).",
      response: contactDetailsSchema,
      errors: [
        { status: 404, codes: ['ERR_NO_CONTACT_FOUND'] },
        { status: 409, codes: ['ERR_DUPLICATED_CONTACT'] },
        {
          status: 422,
          codes: [
            'ERR_MISSING_NUMBER',
            'ERR_INVALID_NUMBER',
            'ERR_GROUP_NUMBER_FIXED',
            'ERR_INVALID_NAME',
            'ERR_NAME_TOO_LONG',
            'ERR_INVALID_EMAIL',
            'ERR_TOO_MANY_EXTRA_INFO',
            'ERR_INVALID_EXTRA_INFO',
            'ERR_TOO_MANY_IDENTIFIERS',
            'ERR_INVALID_IDENTIFIER',
          ],
        },
      ],
      params: byId,
      body: contactFields.meta({ example: { ...CONTACT_BODY_EXAMPLE, acceptAudioMessage: false } }),
      handler: async ({ actor, params, body }) => app.contacts.updateContact.execute({ actor, contactId: params.contactId, ...contactInput(body) }),
    }),
    route({
      method: 'DELETE',
      path: '/contacts/:contactId',
      auth: 'isAuth',
      tag,
      summary: 'Delete a contact with its tickets and messages (admin)',
      params: byId,
      description:
        "Admins only: removes the contact with its identifiers, tags, tickets and messages. Emits `company-<id>-contact` (`action: 'delete'`, `contactId`).",
      response: contactDeletedSchema,
      errors: [
        { status: 403, codes: ['ERR_NO_PERMISSION'] },
        { status: 404, codes: ['ERR_NO_CONTACT_FOUND'] },
      ],
      handler: async ({ actor, params }) => {
        await app.contacts.deleteContact.execute({ actor, contactId: params.contactId });
        return { message: 'Contact deleted' as const };
      },
    }),
    route({
      method: 'PUT',
      path: '/contacts/toggleAcceptAudio/:contactId',
      auth: 'isAuth',
      tag,
      summary: 'Set or flip whether the contact may send audio',
      description:
        "Any operator; without `acceptAudioMessage` the value flips (the lineage client sends no body). Emits `company-<id>-contact` (`action: 'update'`, the contact).",
      response: contactDetailsSchema,
      errors: [{ status: 404, codes: ['ERR_NO_CONTACT_FOUND'] }],
      params: byId,
      body: z
        .object({
          acceptAudioMessage: z.boolean().optional().meta({ description: 'Whether the contact may send audio messages; absent: the opposite of now' }),
        })
        .meta({ example: { acceptAudioMessage: false } }),
      handler: async ({ actor, params, body }) =>
        app.contacts.toggleAcceptAudio.execute({ actor, contactId: params.contactId, acceptAudio: body.acceptAudioMessage }),
    }),
    route({
      method: 'PUT',
      path: '/contacts/block/:contactId',
      auth: 'isAuth',
      tag,
      summary: "Block (`active: false` or `blocked: true`), unblock, or flip without a body; a blocked contact's messages open no ticket",
      description: "Any operator. Emits `company-<id>-contact` (`action: 'update'`, the contact).",
      response: contactDetailsSchema,
      errors: [{ status: 404, codes: ['ERR_NO_CONTACT_FOUND'] }],
      params: byId,
      body: z
        .object({
          active: z.boolean().optional().meta({ description: "`false` blocks, `true` unblocks (the lineage's name); `blocked` wins when both come" }),
          blocked: z.boolean().optional().meta({ description: '`true` blocks, `false` unblocks; with neither field the block flips' }),
        })
        .meta({ example: { blocked: true } }),
      handler: async ({ actor, params, body }) =>
        app.contacts.setContactBlocked.execute({
          actor,
          contactId: params.contactId,
          blocked: body.blocked ?? (body.active === undefined ? undefined : !body.active),
        }),
    }),
    route({
      method: 'PUT',
      path: '/contacts/toggleDisableBot/:contactId',
      auth: 'isAuth',
      tag,
      summary: 'Set or flip whether chatbots leave the contact alone',
      description: "Any operator; without `disableBot` the value flips. Emits `company-<id>-contact` (`action: 'update'`, the contact).",
      response: contactDetailsSchema,
      errors: [{ status: 404, codes: ['ERR_NO_CONTACT_FOUND'] }],
      params: byId,
      body: z
        .object({
          disableBot: z.boolean().optional().meta({ description: '`true`: chatbots and queue menus leave the contact alone; absent: the opposite of now' }),
        })
        .meta({ example: { disableBot: true } }),
      handler: async ({ actor, params, body }) => app.contacts.toggleDisableBot.execute({ actor, contactId: params.contactId, disableBot: body.disableBot }),
    }),
    route({
      method: 'GET',
      path: '/contactTags/:contactId',
      auth: 'isAuth',
      tag,
      summary: "The contact's tags, by name",
      params: byId,
      description: 'Any operator of the company. Answers `{contactId, tags}`, as the lineage client reads it.',
      response: contactTagsSchema,
      errors: [{ status: 404, codes: ['ERR_NO_CONTACT_FOUND'] }],
      handler: async ({ actor, params }) => ({
        contactId: params.contactId,
        tags: await app.contacts.listContactTags.execute({ actor, contactId: params.contactId }),
      }),
    }),
    route({
      method: 'PUT',
      path: '/contact-wallet/:contactId',
      auth: 'isAuth',
      tag,
      summary: 'Give the contact to an operator of the company, or to nobody (admin)',
      description: "Admins only: sets the contact's `walletUserId`. Emits `company-<id>-contact` (`action: 'update'`, the contact).",
      response: contactDetailsSchema,
      errors: [
        { status: 403, codes: ['ERR_NO_PERMISSION'] },
        { status: 404, codes: ['ERR_NO_CONTACT_FOUND', 'ERR_NO_USER_FOUND'] },
        { status: 409, codes: ['ERR_CONTACT_SELLER_CHANGED'] },
      ],
      params: byId,
      body: z
        .object({
          userId: id.nullable().meta({ description: 'The user of the company who owns the contact from now on (its responsible seller); null: nobody' }),
        })
        .meta({ example: { userId: 5 } }),
      handler: async ({ actor, params, body }) => app.contacts.setContactWallet.execute({ actor, contactId: params.contactId, userId: body.userId }),
    }),
    route({
      method: 'PUT',
      path: '/contacts/:contactId/link-user',
      auth: 'isAuth',
      tag,
      summary: "Mark the contact as a platform user of the company, e.g. an employee's own number (admin; one contact per user)",
      description: "Admins only: sets the contact's `linkedUserId`. Emits `company-<id>-contact` (`action: 'update'`, the contact).",
      response: contactDetailsSchema,
      errors: [
        { status: 403, codes: ['ERR_NO_PERMISSION'] },
        { status: 404, codes: ['ERR_NO_CONTACT_FOUND', 'ERR_NO_USER_FOUND'] },
        { status: 409, codes: ['ERR_USER_ALREADY_LINKED'] },
      ],
      params: byId,
      body: z
        .object({ userId: id.meta({ description: 'The user of the company this contact is; a user may be linked to one contact only' }) })
        .meta({ example: { userId: 5 } }),
      handler: async ({ actor, params, body }) => app.contacts.linkContactUser.execute({ actor, contactId: params.contactId, userId: body.userId }),
    }),
    route({
      method: 'PUT',
      path: '/contacts/:contactId/unlink-user',
      auth: 'isAuth',
      tag,
      summary: "Remove the contact's link to a platform user (admin)",
      description: "Admins only: clears the contact's `linkedUserId`. Emits `company-<id>-contact` (`action: 'update'`, the contact).",
      response: contactDetailsSchema,
      errors: [
        { status: 403, codes: ['ERR_NO_PERMISSION'] },
        { status: 404, codes: ['ERR_NO_CONTACT_FOUND'] },
      ],
      params: byId,
      handler: async ({ actor, params }) => app.contacts.unlinkContactUser.execute({ actor, contactId: params.contactId }),
    }),
  ];
}
