import { EntitySchema } from '@mikro-orm/core';
import type { Tag } from '@servicedesk/core';
import { foreignKeysOf } from '../shared/columns.js';

const tags = foreignKeysOf('tags');

/** As m0006 creates `tags`: names unique per company ignoring case. */
export const TagSchema = new EntitySchema<Tag>({
  name: 'Tag',
  tableName: 'tags',
  properties: {
    id: { type: 'number', primary: true, autoincrement: true },
    companyId: tags('company_id', 'Company', 'cascade'),
    name: { type: 'string', length: 60 },
    color: { type: 'string', length: 7 },
    kanban: { type: 'boolean', default: false },
    laneOrder: { type: 'number', default: 0 },
    createdAt: { type: 'Date' },
    updatedAt: { type: 'Date' },
  },
  checks: [{ name: 'tags_color_check', property: 'color', expression: `color ~ '^#[0-9a-f]{6}$'` }],
  uniques: [{ name: 'tags_company_id_lower_name_idx', expression: 'create unique index tags_company_id_lower_name_idx on tags (company_id, lower(name))' }],
  indexes: [
    { name: 'tags_company_id_lane_order_idx', expression: 'create index tags_company_id_lane_order_idx on tags (company_id, lane_order) where kanban' },
  ],
});

/** A link of `ticket_tags` or `contact_tags`: plain join tables, read and written with SQL (see MikroOrmTags). */
export interface TicketTagRow {
  ticketId: number;
  tagId: number;
}
export interface ContactTagRow {
  contactId: number;
  tagId: number;
}

const ticketTags = foreignKeysOf('ticket_tags');

/** As m0006 creates `ticket_tags`; described so that the schema drift test sees the whole table. */
export const TicketTagSchema = new EntitySchema<TicketTagRow>({
  name: 'TicketTag',
  tableName: 'ticket_tags',
  properties: {
    ticketId: ticketTags('ticket_id', 'Ticket', 'cascade', { primary: true }),
    tagId: ticketTags('tag_id', 'Tag', 'cascade', { primary: true }),
  },
  indexes: [{ name: 'ticket_tags_tag_id_idx', properties: ['tagId'] }],
});

const contactTags = foreignKeysOf('contact_tags');

/** As m0006 creates `contact_tags`; described so that the schema drift test sees the whole table. */
export const ContactTagSchema = new EntitySchema<ContactTagRow>({
  name: 'ContactTag',
  tableName: 'contact_tags',
  properties: {
    contactId: contactTags('contact_id', 'Contact', 'cascade', { primary: true }),
    tagId: contactTags('tag_id', 'Tag', 'cascade', { primary: true }),
  },
  indexes: [{ name: 'contact_tags_tag_id_idx', properties: ['tagId'] }],
});
