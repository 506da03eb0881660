import { ValidationError } from '../shared/errors.js';

/** 1 high, 2 medium, 3 low: the lineage's values (the client colours and orders by them). */
export type AnnouncementPriority = 1 | 2 | 3;
export const ANNOUNCEMENT_PRIORITIES: readonly AnnouncementPriority[] = [1, 2, 3];
export const DEFAULT_ANNOUNCEMENT_PRIORITY: AnnouncementPriority = 3;

export const MAX_ANNOUNCEMENT_TITLE = 255;
export const MAX_ANNOUNCEMENT_TEXT = 10_000;
/** How many companies one announcement may name (more: target every company). */
export const MAX_ANNOUNCEMENT_TARGETS = 1_000;

/**
 * A platform-wide notice written by a super user: every user of a targeted company reads it while
 * it is active (`status`) and within its window (`startsAt` ≤ now < `endsAt`, either end open).
 * `targetCompanyIds` null means every company, those created later included.
 */
export interface Announcement {
  id: number;
  /** The author's company (the lineage's `companyId`). */
  companyId: number;
  priority: AnnouncementPriority;
  title: string;
  text: string;
  /** The attachment's blob key, original file name and sniffed type; all null without one. */
  mediaKey: string | null;
  mediaName: string | null;
  mediaType: string | null;
  status: boolean;
  /** Null: every company; else the companies named, ascending. */
  targetCompanyIds: number[] | null;
  startsAt: Date | null;
  endsAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

export type NewAnnouncement = Omit<Announcement, 'id'>;

/**
 * An announcement as the API and the `company-announcement` frames show it, under the lineage
 * client's names: `mediaPath` is the URL the client puts in an `<img src>`. A reader who is not a
 * super user sees `targetCompanyIds` as null (every company) or their own company's id alone.
 */
export interface AnnouncementView {
  readonly id: number;
  readonly companyId: number;
  readonly priority: AnnouncementPriority;
  readonly title: string;
  readonly text: string;
  readonly mediaPath: string | null;
  readonly mediaName: string | null;
  readonly mediaType: string | null;
  readonly status: boolean;
  readonly targetCompanyIds: readonly number[] | null;
  readonly startsAt: string | null;
  readonly endsAt: string | null;
  readonly createdAt: string;
  readonly updatedAt: string;
}

const iso = (d: Date | null) => d?.toISOString() ?? null;

/**
 * The view of `a`; `readerCompanyId` (a reader who is not a super user) narrows the targets to
 * what that reader may know: every company, or theirs.
 */
export function toAnnouncementView(a: Announcement, mediaUrl: (key: string) => string, readerCompanyId?: number): AnnouncementView {
  const targets = readerCompanyId === undefined || a.targetCompanyIds === null ? a.targetCompanyIds : [readerCompanyId];
  return {
    id: a.id,
    companyId: a.companyId,
    priority: a.priority,
    title: a.title,
    text: a.text,
    mediaPath: a.mediaKey ? mediaUrl(a.mediaKey) : null,
    mediaName: a.mediaName,
    mediaType: a.mediaType,
    status: a.status,
    targetCompanyIds: targets ? [...targets] : null,
    startsAt: iso(a.startsAt),
    endsAt: iso(a.endsAt),
    createdAt: a.createdAt.toISOString(),
    updatedAt: a.updatedAt.toISOString(),
  };
}

/** Whether the announcement's window holds `at`. */
export function inWindow(a: Pick<Announcement, 'startsAt' | 'endsAt'>, at: Date): boolean {
  return (a.startsAt === null || a.startsAt.getTime() <= at.getTime()) && (a.endsAt === null || a.endsAt.getTime() > at.getTime());
}

/** Whether the users of `companyId` read it at `at`: active, in its window, aimed at their company. */
export function isVisibleTo(a: Announcement, companyId: number, at: Date): boolean {
  return a.status && inWindow(a, at) && targets(a, companyId);
}

export function targets(a: Pick<Announcement, 'targetCompanyIds'>, companyId: number): boolean {
  return a.targetCompanyIds === null || a.targetCompanyIds.includes(companyId);
}

/** Trimmed, 1 to 255 characters (422 `ERR_ANNOUNCEMENT_INVALID_TITLE`). */
export function cleanTitle(title: string): string {
  const trimmed = title.trim();
  if (trimmed.length < 1 || trimmed.length > MAX_ANNOUNCEMENT_TITLE) throw new ValidationError('ERR_ANNOUNCEMENT_INVALID_TITLE');
  return trimmed;
}

export function cleanText(text: string): string {
  if (text.length > MAX_ANNOUNCEMENT_TEXT) throw new ValidationError('ERR_ANNOUNCEMENT_TEXT_TOO_LONG');
  return text;
}

export function cleanPriority(priority: number): AnnouncementPriority {
  if (!ANNOUNCEMENT_PRIORITIES.includes(priority as AnnouncementPriority)) throw new ValidationError('ERR_ANNOUNCEMENT_INVALID_PRIORITY');
  return priority as AnnouncementPriority;
}

const WITH_OFFSET = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})$/i;

/** A moment of the window: an ISO 8601 time with its offset (`Z` or `±hh:mm`) naming a real date, or null for an open end. */
export function parseWindowEdge(text: string | null, field: 'startsAt' | 'endsAt'): Date | null {
  if (text === null || text.trim() === '') return null;
  const m = WITH_OFFSET.exec(text.trim());
  if (m) {
    const [year, month, day, hour, minute, second] = [m[1], m[2], m[3], m[4], m[5], m[6] ?? '0'].map(Number) as [
      number,
      number,
      number,
      number,
      number,
      number,
    ];
    const calendar = new Date(Date.UTC(year, month - 1, day));
    const real = calendar.getUTCMonth() === month - 1 && calendar.getUTCDate() === day && hour < 24 && minute < 60 && second < 60;
    const at = Date.parse(text.trim());
    if (real && year >= 1970 && year <= 9998 && Number.isFinite(at)) return new Date(at);
  }
  throw new ValidationError('ERR_ANNOUNCEMENT_INVALID_WINDOW', { [field]: text });
}

export function assertWindow(startsAt: Date | null, endsAt: Date | null): void {
  if (startsAt && endsAt && endsAt.getTime() <= startsAt.getTime())
    throw new ValidationError('ERR_ANNOUNCEMENT_INVALID_WINDOW', { endsAt: endsAt.toISOString() });
}

/** Distinct and ascending; an empty list or more than `MAX_ANNOUNCEMENT_TARGETS` is 422 `ERR_ANNOUNCEMENT_INVALID_TARGET`. */
export function cleanTargets(ids: readonly number[] | null): number[] | null {
  if (ids === null) return null;
  const distinct = [...new Set(ids)].sort((a, b) => a - b);
  if (distinct.length === 0 || distinct.length > MAX_ANNOUNCEMENT_TARGETS || distinct.some((id) => !Number.isSafeInteger(id) || id < 1)) {
    throw new ValidationError('ERR_ANNOUNCEMENT_INVALID_TARGET');
  }
  return distinct;
}
