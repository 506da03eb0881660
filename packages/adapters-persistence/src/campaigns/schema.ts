import { EntitySchema } from '@mikro-orm/core';
import { CAMPAIGN_STATUSES, RECIPIENT_STATES } from '@servicedesk/core';
import { foreignKeysOf } from '../shared/columns.js';

/*
 * The campaign tables as m0015 creates them. The repositories read and write them with SQL (claims
 * need SKIP LOCKED, recipients are inserted in batches), so these rows are the tables' shape, not
 * the domain's: the schema drift test compares them with the migration.
 */

export interface CampaignRow {
  id: number;
  companyId: number;
  name: string;
  message1: string;
  message2: string;
  message3: string;
  message4: string;
  message5: string;
  confirmationMessage1: string;
  confirmationMessage2: string;
  confirmationMessage3: string;
  confirmationMessage4: string;
  confirmationMessage5: string;
  confirmation: boolean;
  status: string;
  scheduledAt: Date | null;
  completedAt: Date | null;
  mediaPath: string | null;
  mediaName: string | null;
  mediaContentType: string | null;
  mediaSize: number | null;
  contactListId: number | null;
  tagListId: number | null;
  chatappId: number | null;
  userId: number | null;
  queueId: number | null;
  statusTicket: string;
  openTicket: string;
  materializedAt: Date | null;
  failureReason: string | null;
  createdAt: Date;
  updatedAt: Date;
}

const campaigns = foreignKeysOf('campaigns');
const variant = { type: 'text', default: '' } as const;

export const CampaignSchema = new EntitySchema<CampaignRow>({
  name: 'Campaign',
  tableName: 'campaigns',
  properties: {
    id: { type: 'number', primary: true, autoincrement: true },
    companyId: campaigns('company_id', 'Company', 'cascade'),
    name: { type: 'string', length: 255 },
    message1: variant,
    message2: variant,
    message3: variant,
    message4: variant,
    message5: variant,
    confirmationMessage1: variant,
    confirmationMessage2: variant,
    confirmationMessage3: variant,
    confirmationMessage4: variant,
    confirmationMessage5: variant,
    confirmation: { type: 'boolean', default: false },
    status: { type: 'string', enum: true, items: [...CAMPAIGN_STATUSES], columnType: 'varchar(20)', default: 'INATIVA' },
    scheduledAt: { type: 'Date', nullable: true },
    completedAt: { type: 'Date', nullable: true },
    mediaPath: { type: 'string', length: 500, nullable: true },
    mediaName: { type: 'string', length: 255, nullable: true },
    mediaContentType: { type: 'string', length: 255, nullable: true },
    mediaSize: { type: 'number', nullable: true },
    contactListId: campaigns('contact_list_id', 'ContactList', 'set null', { nullable: true }),
    tagListId: campaigns('tag_list_id', 'Tag', 'set null', { nullable: true }),
    chatappId: campaigns('chatapp_id', 'Connection', 'set null', { nullable: true }),
    userId: campaigns('user_id', 'User', 'set null', { nullable: true }),
    queueId: campaigns('queue_id', 'Queue', 'set null', { nullable: true }),
    statusTicket: { type: 'string', enum: true, items: ['open', 'pending', 'closed'], columnType: 'varchar(10)', default: 'closed' },
    openTicket: { type: 'string', enum: true, items: ['enabled', 'disabled'], columnType: 'varchar(10)', default: 'disabled' },
    materializedAt: { type: 'Date', nullable: true },
    failureReason: { type: 'text', nullable: true },
    createdAt: { type: 'Date' },
    updatedAt: { type: 'Date' },
  },
  indexes: [
    { name: 'campaigns_status_scheduled_at_idx', properties: ['status', 'scheduledAt'] },
    { name: 'campaigns_company_id_status_scheduled_at_idx', properties: ['companyId', 'status', 'scheduledAt'] },
    { name: 'campaigns_chatapp_id_status_idx', properties: ['chatappId', 'status'] },
    { name: 'campaigns_contact_list_id_idx', properties: ['contactListId'] },
  ],
});

export interface CampaignRecipientRow {
  id: number;
  companyId: number;
  campaignId: number;
  connectionId: number;
  number: string;
  name: string;
  contactId: number | null;
  listItemId: number | null;
  variables: Record<string, string>;
  variant: number;
  body: string;
  confirmationBody: string | null;
  mediaPath: string | null;
  mediaName: string | null;
  mediaContentType: string | null;
  mediaSize: number | null;
  stage: string;
  state: string;
  reason: string | null;
  dueAt: Date;
  claimedUntil: Date | null;
  attempts: number;
  messageId: string | null;
  sentAt: Date | null;
  deliveredAt: Date | null;
  readAt: Date | null;
  confirmationRequestedAt: Date | null;
  confirmedAt: Date | null;
  awaitingUntil: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

const recipients = foreignKeysOf('campaign_recipients');

export const CampaignRecipientSchema = new EntitySchema<CampaignRecipientRow>({
  name: 'CampaignRecipient',
  tableName: 'campaign_recipients',
  properties: {
    id: { type: 'number', primary: true, autoincrement: true },
    companyId: recipients('company_id', 'Company', 'cascade'),
    campaignId: recipients('campaign_id', 'Campaign', 'cascade'),
    connectionId: { type: 'number' },
    number: { type: 'string', length: 64 },
    name: { type: 'string', length: 255, default: '' },
    contactId: { type: 'number', nullable: true },
    listItemId: { type: 'number', nullable: true },
    variables: { type: 'json', defaultRaw: `'{}'` },
    variant: { type: 'number', columnType: 'smallint', default: 0 },
    body: { type: 'text', default: '' },
    confirmationBody: { type: 'text', nullable: true },
    mediaPath: { type: 'string', length: 500, nullable: true },
    mediaName: { type: 'string', length: 255, nullable: true },
    mediaContentType: { type: 'string', length: 255, nullable: true },
    mediaSize: { type: 'number', nullable: true },
    stage: { type: 'string', enum: true, items: ['confirmation', 'message'], columnType: 'varchar(12)' },
    state: { type: 'string', enum: true, items: [...RECIPIENT_STATES], columnType: 'varchar(10)' },
    reason: { type: 'text', nullable: true },
    dueAt: { type: 'Date' },
    claimedUntil: { type: 'Date', nullable: true },
    attempts: { type: 'number', default: 0 },
    messageId: { type: 'string', length: 200, nullable: true },
    sentAt: { type: 'Date', nullable: true },
    deliveredAt: { type: 'Date', nullable: true },
    readAt: { type: 'Date', nullable: true },
    confirmationRequestedAt: { type: 'Date', nullable: true },
    confirmedAt: { type: 'Date', nullable: true },
    awaitingUntil: { type: 'Date', nullable: true },
    createdAt: { type: 'Date' },
    updatedAt: { type: 'Date' },
  },
  uniques: [{ name: 'campaign_recipients_campaign_id_number_key', properties: ['campaignId', 'number'] }],
  indexes: [
    { name: 'campaign_recipients_claim_idx', properties: ['connectionId', 'state', 'dueAt'] },
    { name: 'campaign_recipients_campaign_id_state_idx', properties: ['campaignId', 'state', 'id'] },
    { name: 'campaign_recipients_message_id_idx', properties: ['messageId'] },
    { name: 'campaign_recipients_company_connection_number_idx', properties: ['companyId', 'connectionId', 'number'] },
  ],
});

export interface CampaignPacingRow {
  connectionId: number;
  companyId: number;
  lastSentAt: Date | null;
  nextGapMs: number;
  streak: number;
  consecutiveErrors: number;
  backoffUntil: Date | null;
  nextRunAt: Date | null;
}

const pacing = foreignKeysOf('campaign_pacing');

export const CampaignPacingSchema = new EntitySchema<CampaignPacingRow>({
  name: 'CampaignPacing',
  tableName: 'campaign_pacing',
  properties: {
    connectionId: pacing('connection_id', 'Connection', 'cascade', { primary: true }),
    companyId: pacing('company_id', 'Company', 'cascade'),
    lastSentAt: { type: 'Date', nullable: true },
    nextGapMs: { type: 'number', default: 0 },
    streak: { type: 'number', default: 0 },
    consecutiveErrors: { type: 'number', default: 0 },
    backoffUntil: { type: 'Date', nullable: true },
    nextRunAt: { type: 'Date', nullable: true },
  },
  indexes: [
    {
      name: 'campaign_pacing_next_run_at_idx',
      expression: 'create index campaign_pacing_next_run_at_idx on campaign_pacing (next_run_at) where next_run_at is not null',
    },
  ],
});

export interface CampaignSendRow {
  id: string;
  connectionId: number;
  sentAt: Date;
}

export const CampaignSendSchema = new EntitySchema<CampaignSendRow>({
  name: 'CampaignSend',
  tableName: 'campaign_sends',
  properties: {
    id: { type: 'bigint', primary: true, autoincrement: true, generated: 'identity' },
    connectionId: foreignKeysOf('campaign_sends')('connection_id', 'Connection', 'cascade'),
    sentAt: { type: 'Date' },
  },
  indexes: [{ name: 'campaign_sends_connection_id_sent_at_idx', properties: ['connectionId', 'sentAt'] }],
});

export interface CampaignSuppressionRow {
  id: number;
  companyId: number;
  number: string;
  reason: string;
  campaignId: number | null;
  createdAt: Date;
}

const suppressions = foreignKeysOf('campaign_suppressions');

export const CampaignSuppressionSchema = new EntitySchema<CampaignSuppressionRow>({
  name: 'CampaignSuppression',
  tableName: 'campaign_suppressions',
  properties: {
    id: { type: 'number', primary: true, autoincrement: true },
    companyId: suppressions('company_id', 'Company', 'cascade'),
    number: { type: 'string', length: 64 },
    reason: { type: 'text' },
    campaignId: suppressions('campaign_id', 'Campaign', 'set null', { nullable: true }),
    createdAt: { type: 'Date' },
  },
  uniques: [{ name: 'campaign_suppressions_company_id_number_key', properties: ['companyId', 'number'] }],
});

export interface CampaignSettingEntityRow {
  id: number;
  companyId: number;
  key: string;
  value: string;
  createdAt: Date;
  updatedAt: Date;
}

export const CampaignSettingSchema = new EntitySchema<CampaignSettingEntityRow>({
  name: 'CampaignSetting',
  tableName: 'campaign_settings',
  properties: {
    id: { type: 'number', primary: true, autoincrement: true },
    companyId: foreignKeysOf('campaign_settings')('company_id', 'Company', 'cascade'),
    key: { type: 'string', length: 60 },
    value: { type: 'text' },
    createdAt: { type: 'Date' },
    updatedAt: { type: 'Date' },
  },
  uniques: [{ name: 'campaign_settings_company_id_key_key', properties: ['companyId', 'key'] }],
});

/** The entity schemas of m0015 (their `campaigns.contact_list_id` refers to the contact lists' `ContactList`). */
export const CAMPAIGN_SCHEMAS = [
  CampaignSchema,
  CampaignRecipientSchema,
  CampaignPacingSchema,
  CampaignSendSchema,
  CampaignSuppressionSchema,
  CampaignSettingSchema,
];
