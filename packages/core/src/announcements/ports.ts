import type { Page, PageRequest } from '../shared/paging.js';
import type { Announcement, NewAnnouncement } from './announcement.js';

export interface AnnouncementQuery {
  /** In the title, case- and accent-folded. */
  readonly search?: string;
  readonly status?: boolean;
  /** Only those aimed at this company (every company, or named among their targets). */
  readonly targetCompanyId?: number;
  /** Only those the users of this company read at `at`: active, within their window, aimed at the company. */
  readonly visibleTo?: { readonly companyId: number; readonly at: Date };
}

/**
 * The platform's announcements. Not scoped by company: they belong to the platform, and the use
 * cases decide who reads which (`visibleTo`). Lists come by priority (1 first), newest first, then
 * by id descending.
 */
export interface Announcements {
  findById(id: number): Promise<Announcement | null>;
  /** Stores it with its targets (a target company that no longer exists is left out). */
  add(announcement: NewAnnouncement): Promise<Announcement>;
  /** Saves every field but `companyId` and `createdAt`, and makes the targets exactly the given ones. */
  update(announcement: Announcement): Promise<void>;
  /** False when it was not there. */
  remove(id: number): Promise<boolean>;
  page(query: AnnouncementQuery & { readonly page: PageRequest }): Promise<Page<Announcement>>;
  all(query: AnnouncementQuery): Promise<Announcement[]>;
}

/**
 * The companies announcements reach, read from the companies' and users' tables: whom a frame
 * goes to, and which target ids exist.
 */
export interface AnnouncementAudience {
  /** Ids of active companies above `afterId`, ascending, at most `limit`: every company, page by page. */
  activeCompanyIds(afterId: number, limit: number): Promise<number[]>;
  /** Of `ids`, those of existing companies, ascending. */
  existingCompanyIds(ids: readonly number[]): Promise<number[]>;
  /** The companies that have a super user (who follow every announcement), ascending. */
  superUserCompanyIds(): Promise<number[]>;
}
