import { CAMPAIGN_STATUSES, RECIPIENT_STATES } from '@servicedesk/core';
import { z } from 'zod';

/**
 * The campaign views the API answers (packages/core/src/campaigns: `CampaignView`, the progress
 * of `GET /campaigns/:id`, `RecipientRow`, the stored settings rows), under the lineage client's
 * names except its brand words (`chatappId`, `chatapp`).
 */

const timestamp = z.iso.datetime();
const count = (description: string, example: number) => z.number().int().min(0).meta({ description, example });
const text = (description: string, example = '') => z.string().meta({ description, example });
const refId = (description: string, example: number | null) => z.number().int().positive().nullable().meta({ description, example });

const namedRefSchema = z
  .object({
    id: z.number().int().positive(),
    name: z.string(),
  })
  .meta({ id: 'CampaignReference', description: 'The id and name of what a campaign points at', example: { id: 3, name: 'Clientes 2025' } });
const namedRef = (description: string, example: { id: number; name: string }) => namedRefSchema.nullable().meta({ description, example });

const CAMPAIGN_EXAMPLE = {
  id: 12,
  companyId: 1,
  name: 'Black Friday',
  message1: 'Olá {nome}, nossa promoção começou!',
  message2: 'Oi {nome}! A promoção já está valendo.',
  message3: '',
  message4: '',
  message5: '',
  confirmationMessage1: '',
  confirmationMessage2: '',
  confirmationMessage3: '',
  confirmationMessage4: '',
  confirmationMessage5: '',
  confirmation: false,
  status: 'PROGRAMADA' as const,
  scheduledAt: '2025-11-28T12:00:00.000Z',
  completedAt: null,
  mediaPath: null,
  mediaName: null,
  contactListId: 3,
  tagListId: null,
  chatappId: 2,
  userId: null,
  queueId: null,
  statusTicket: 'closed' as const,
  openTicket: 'disabled' as const,
  materializedAt: null,
  failureReason: null,
  createdAt: '2025-11-20T09:00:00.000Z',
  updatedAt: '2025-11-20T09:05:00.000Z',
  contactList: { id: 3, name: 'Clientes 2025' },
  tagList: null,
  chatapp: { id: 2, name: 'Vendas' },
  user: null,
  queue: null,
};

const campaignFields = {
  id: z.number().int().positive().meta({ description: 'The campaign id', example: 12 }),
  companyId: z.number().int().positive().meta({ description: 'The owning company', example: 1 }),
  name: z.string().min(1).max(255).meta({ description: "The campaign's name", example: 'Black Friday' }),
  message1: text("Message variant 1 (`{nome}`, `{numero}`, `{email}`, the list's columns and the company variables are replaced)", 'Olá {nome}!'),
  message2: text('Message variant 2; one non-empty variant is chosen at random per recipient'),
  message3: text('Message variant 3'),
  message4: text('Message variant 4'),
  message5: text('Message variant 5'),
  confirmationMessage1: text('Variant 1 of the opt-in question sent first when `confirmation` is on'),
  confirmationMessage2: text('Opt-in question variant 2'),
  confirmationMessage3: text('Opt-in question variant 3'),
  confirmationMessage4: text('Opt-in question variant 4'),
  confirmationMessage5: text('Opt-in question variant 5'),
  confirmation: z.boolean().meta({ description: 'Two steps: the question first, the message after the recipient says yes', example: false }),
  status: z.enum(CAMPAIGN_STATUSES).meta({
    description:
      '`INATIVA` (draft), `PROGRAMADA` (scheduled), `EM_ANDAMENTO` (running), `PAUSADA`, `CANCELADA`, `FINALIZADA`, `FALHOU` (could not run: see `failureReason`)',
    example: 'PROGRAMADA',
  }),
  scheduledAt: timestamp.nullable().meta({ description: 'When it starts by itself; null for a draft', example: '2025-11-28T12:00:00.000Z' }),
  completedAt: timestamp.nullable().meta({ description: 'When it finished', example: null }),
  mediaPath: z.string().nullable().meta({ description: "The attachment's file key (served at `/<mediaPath>`), null without one", example: null }),
  mediaName: z.string().nullable().meta({ description: "The attachment's original file name", example: null }),
  contactListId: refId('The contact list it sends to', 3),
  tagListId: refId('The tag whose contacts it sends to (with or instead of the list)', null),
  chatappId: refId('The sending connection', 2),
  userId: refId('Owner of the tickets it opens (`openTicket`)', null),
  queueId: refId('Queue of the tickets it opens', null),
  statusTicket: z.enum(['open', 'pending', 'closed']).meta({ description: 'Status of the tickets it opens', example: 'closed' }),
  openTicket: z.enum(['enabled', 'disabled']).meta({ description: '`enabled`: each message goes through a ticket of the contact', example: 'disabled' }),
  materializedAt: timestamp.nullable().meta({ description: 'When its recipients were fixed (at the first start)', example: null }),
  failureReason: z.string().nullable().meta({ description: 'Why it ended `FALHOU` (an error code)', example: null }),
  createdAt: timestamp.meta({ example: '2025-11-20T09:00:00.000Z' }),
  updatedAt: timestamp.meta({ example: '2025-11-20T09:05:00.000Z' }),
  contactList: namedRef("The contact list's id and name", { id: 3, name: 'Clientes 2025' }),
  tagList: namedRef("The tag's id and name", { id: 7, name: 'VIP' }),
  chatapp: namedRef("The connection's id and name", { id: 2, name: 'Vendas' }),
  user: namedRef("The ticket owner's id and name", { id: 4, name: 'Ana Lima' }),
  queue: namedRef("The queue's id and name", { id: 1, name: 'Suporte' }),
};

/** `CampaignView`: a campaign with the names of what it points at (as lists and frames show it). */
export const campaignSchema = z.object(campaignFields).meta({
  id: 'Campaign',
  description: 'A campaign with the id and name of its list, tag, connection, user and queue',
  example: CAMPAIGN_EXAMPLE,
});

export const campaignListSchema = z.array(campaignSchema).meta({
  id: 'CampaignList',
  description: 'Every campaign of the company, by name',
  example: [CAMPAIGN_EXAMPLE],
});

export const campaignPageSchema = z
  .object({
    records: z.array(campaignSchema),
    count: count('How many campaigns match in all', 1),
    hasMore: z.boolean().meta({ description: 'Whether a next page exists', example: false }),
  })
  .meta({
    id: 'CampaignPage',
    description: 'A page (20) of campaigns found by name',
    example: { records: [CAMPAIGN_EXAMPLE], count: 1, hasMore: false },
  });

const byReason = z.record(z.string(), z.number().int().min(0));

const PROGRESS_EXAMPLE = {
  total: 120,
  pending: 70,
  sent: 10,
  delivered: 25,
  read: 10,
  failed: 3,
  skipped: 2,
  awaitingConfirmation: 0,
  confirmationRequested: 0,
  confirmed: 0,
  failedByReason: { 'not-on-network': 3 },
  skippedByReason: { suppressed: 2 },
};

export const campaignProgressSchema = z
  .object({
    total: count('Recipients in all (fixed at the first start; 0 before)', 120),
    pending: count('Not sent yet', 70),
    sent: count('Accepted by the send path, not yet acknowledged', 10),
    delivered: count("Delivered to the recipient's device", 25),
    read: count('Read', 10),
    failed: count('Failed (see `failedByReason`)', 3),
    skipped: count('Never sent: blocked, suppressed, invalid, a stop word, no confirmation (see `skippedByReason`)', 2),
    awaitingConfirmation: count('Asked the opt-in question and still waiting for the answer', 0),
    confirmationRequested: count('Asked the opt-in question', 0),
    confirmed: count('Answered yes', 0),
    failedByReason: byReason.meta({ description: 'Failed recipients per reason', example: { 'not-on-network': 3 } }),
    skippedByReason: byReason.meta({ description: 'Skipped recipients per reason', example: { suppressed: 2 } }),
  })
  .meta({ id: 'CampaignProgress', description: 'Recipients per state and per reason', example: PROGRESS_EXAMPLE });

const RECIPIENT_EXAMPLE = {
  id: 501,
  number: '5511987654321',
  name: 'Joana',
  state: 'delivered' as const,
  reason: null,
  variant: 2,
  sentAt: '2025-11-28T12:00:21.000Z',
  deliveredAt: '2025-11-28T12:00:23.000Z',
  readAt: null,
  confirmationRequestedAt: null,
  confirmedAt: null,
};

export const campaignRecipientSchema = z
  .object({
    id: z.number().int().positive().meta({ example: 501 }),
    number: z.string().meta({ description: 'The number sent to', example: '5511987654321' }),
    name: z.string().meta({ description: "The recipient's name (the list item's or the contact's)", example: 'Joana' }),
    state: z.enum(RECIPIENT_STATES).meta({ description: 'Where the recipient stands', example: 'delivered' }),
    reason: z.string().nullable().meta({ description: 'Why it failed or was skipped', example: null }),
    variant: z.number().int().min(0).meta({ description: 'The message variant chosen (1..5)', example: 2 }),
    sentAt: timestamp.nullable(),
    deliveredAt: timestamp.nullable(),
    readAt: timestamp.nullable(),
    confirmationRequestedAt: timestamp.nullable(),
    confirmedAt: timestamp.nullable(),
  })
  .meta({ id: 'CampaignRecipient', description: 'One recipient of the report', example: RECIPIENT_EXAMPLE });

export const campaignRecipientPageSchema = z
  .object({
    records: z.array(campaignRecipientSchema),
    count: count('How many recipients (in the state asked) in all', 1),
    hasMore: z.boolean().meta({ example: false }),
  })
  .meta({
    id: 'CampaignRecipientPage',
    description: "A page (20) of a campaign's recipients",
    example: { records: [RECIPIENT_EXAMPLE], count: 1, hasMore: false },
  });

/** `GET /campaigns/:id`: the campaign, its counts and a page of its recipients (the report). */
export const campaignReportSchema = z
  .object({
    ...campaignFields,
    progress: campaignProgressSchema,
    recipients: campaignRecipientPageSchema,
  })
  .meta({
    id: 'CampaignReport',
    description: 'A campaign with its progress and a page of its recipients',
    example: { ...CAMPAIGN_EXAMPLE, progress: PROGRESS_EXAMPLE, recipients: { records: [RECIPIENT_EXAMPLE], count: 1, hasMore: false } },
  });

/** The attachment routes: the lineage's `mensagem`, with the campaign as it is now. */
export const campaignMediaSchema = z
  .object({
    ...campaignFields,
    mensagem: z.string().meta({ description: "The lineage's confirmation text", example: 'Mensagem enviada' }),
  })
  .meta({
    id: 'CampaignMediaChanged',
    description: "The campaign after its attachment changed, with the lineage's confirmation text",
    example: {
      ...CAMPAIGN_EXAMPLE,
      mediaPath: 'public/company-1/campaigns/12/3f1c2a7e-5b7d-4a59-9a57-0e2f6c1d8b44-promo.jpg',
      mediaName: 'promo.jpg',
      mensagem: 'Mensagem enviada',
    },
  });

const SETTING_EXAMPLE = {
  id: 1,
  key: 'messageInterval',
  value: '20',
  companyId: 1,
  createdAt: '2025-11-20T09:00:00.000Z',
  updatedAt: '2025-11-20T09:00:00.000Z',
};

export const campaignSettingRowsSchema = z
  .array(
    z
      .object({
        id: z.number().int().positive(),
        key: z.string().meta({ description: "The setting's name", example: 'messageInterval' }),
        value: z.string().meta({ description: 'Its value as text (lists JSON-encoded, booleans `true`/`false`)', example: '20' }),
        companyId: z.number().int().positive(),
        createdAt: timestamp,
        updatedAt: timestamp,
      })
      .meta({ id: 'CampaignSetting', description: 'One stored campaign setting of the company', example: SETTING_EXAMPLE }),
  )
  .meta({
    id: 'CampaignSettingList',
    description: "The company's stored campaign settings (keys never saved take their defaults)",
    example: [SETTING_EXAMPLE],
  });
