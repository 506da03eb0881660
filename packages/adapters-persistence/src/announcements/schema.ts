import { EntitySchema } from '@mikro-orm/core';
import { foreignKeysOf } from '../shared/columns.js';

/*
 * The announcement tables as m0018 creates them. The repository reads and writes them with SQL
 * (targets live in a join table), so these rows are the tables' shape, not the domain's: the
 * schema drift test compares them with the migration.
 */

export interface AnnouncementRow {
  id: number;
  companyId: number;
  priority: number;
  title: string;
  text: string;
  mediaKey: string | null;
  mediaName: string | null;
  mediaType: string | null;
  status: boolean;
  allCompanies: boolean;
  startsAt: Date | null;
  endsAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

const announcements = foreignKeysOf('announcements');

export const AnnouncementSchema = new EntitySchema<AnnouncementRow>({
  name: 'Announcement',
  tableName: 'announcements',
  properties: {
    id: { type: 'number', primary: true, autoincrement: true },
    companyId: announcements('company_id', 'Company', 'cascade'),
    priority: { type: 'number', columnType: 'smallint', default: 3 },
    title: { type: 'string', length: 255 },
    text: { type: 'text', default: '' },
    mediaKey: { type: 'string', length: 500, nullable: true },
    mediaName: { type: 'string', length: 255, nullable: true },
    mediaType: { type: 'string', length: 100, nullable: true },
    status: { type: 'boolean', default: true },
    allCompanies: { type: 'boolean', default: true },
    startsAt: { type: 'Date', nullable: true },
    endsAt: { type: 'Date', nullable: true },
    createdAt: { type: 'Date' },
    updatedAt: { type: 'Date' },
  },
  checks: [
    { name: 'announcements_priority_check', property: 'priority', expression: 'priority >= 1 and priority <= 3' },
    { name: 'announcements_window_check', expression: 'starts_at is null or ends_at is null or ends_at > starts_at' },
  ],
  indexes: [{ name: 'announcements_company_id_idx', properties: ['companyId'] }],
});

/** A link of `announcement_companies`: the announcement is aimed at that company. */
export interface AnnouncementCompanyRow {
  announcementId: number;
  companyId: number;
}

const links = foreignKeysOf('announcement_companies');

export const AnnouncementCompanySchema = new EntitySchema<AnnouncementCompanyRow>({
  name: 'AnnouncementCompany',
  tableName: 'announcement_companies',
  properties: {
    announcementId: links('announcement_id', 'Announcement', 'cascade', { primary: true }),
    companyId: links('company_id', 'Company', 'cascade', { primary: true }),
  },
  indexes: [{ name: 'announcement_companies_company_id_idx', properties: ['companyId'] }],
});

export const ANNOUNCEMENT_SCHEMAS = [AnnouncementSchema, AnnouncementCompanySchema];
