import type { Users } from '../identity/ports.js';
import type { Queues } from '../queues/ports.js';
import type { Settings } from '../settings/ports.js';
import { companyTimeZone } from '../settings/company-time-zone.js';
import { isAdmin, type Actor } from '../shared/actor.js';
import { ForbiddenError, NotFoundError, ValidationError } from '../shared/errors.js';
import type { Clock } from '../shared/ports.js';
import { addDays, dayCount, dayStartIn, localDay, parseDay } from './days.js';
import type { FigureFilter } from './ports.js';

/** The longest range a dashboard or report covers, in days. */
export const MAX_RANGE_DAYS = 731;
/** The range without any date: the last 30 days, today included. */
export const DEFAULT_RANGE_DAYS = 30;

/** A range of whole days on the company's clock, both ends included. */
export interface DashboardRange {
  readonly fromDay: string;
  readonly toDay: string;
  /** The first instant of `fromDay` and the first instant after `toDay`, in the zone. */
  readonly from: Date;
  readonly to: Date;
  readonly timeZone: string;
}

/** How a caller names the range: the lineage dashboard's `days` (the last N days) and/or `date_from`/`date_to`. */
export interface RangeInput {
  readonly days?: number;
  readonly dateFrom?: string;
  readonly dateTo?: string;
}

/**
 * The days asked for. Dates win over `days`: `date_from` alone runs to today, `date_to` alone
 * starts `days` (default 30) before it; `days` alone is the last N days, today included.
 */
export function rangeOf(input: RangeInput, now: Date, timeZone: string): DashboardRange {
  const day = (text: string | undefined) => {
    if (text === undefined || text.trim() === '') return undefined;
    const parsed = parseDay(text.trim().slice(0, 10));
    if (!parsed) throw new ValidationError('ERR_INVALID_DATE');
    return parsed;
  };
  const span = input.days ?? DEFAULT_RANGE_DAYS;
  if (!Number.isInteger(span) || span < 1) throw new ValidationError('ERR_VALIDATION');
  if (span > MAX_RANGE_DAYS) throw new ValidationError('ERR_DATE_RANGE_TOO_LONG');
  const explicitTo = day(input.dateTo);
  const explicitFrom = day(input.dateFrom);
  const toDay = explicitTo ?? localDay(now, timeZone);
  const fromDay = explicitFrom ?? addDays(toDay, -(span - 1));
  if (fromDay > toDay) throw new ValidationError('ERR_INVALID_DATE_RANGE');
  if (dayCount(fromDay, toDay) > MAX_RANGE_DAYS) throw new ValidationError('ERR_DATE_RANGE_TOO_LONG');
  return { fromDay, toDay, from: dayStartIn(fromDay, timeZone), to: dayStartIn(addDays(toDay, 1), timeZone), timeZone };
}

/** Whose figures a caller reads. */
export interface FigureScope {
  readonly companyId: number;
  readonly filter: FigureFilter;
  /** An operator without the dashboard sees their own figures only. */
  readonly ownOnly: boolean;
}

/**
 * Admins read the whole company. An operator whose `showDashboard` an admin enabled reads the
 * company's figures too (the lineage shows them the same dashboard); any other operator reads
 * only their own (naming someone else is 403). Queue and user ids must be the company's (404).
 */
export async function figureScope(deps: { users: Users; queues: Queues }, actor: Actor, asked: FigureFilter): Promise<FigureScope> {
  const { companyId } = actor;
  const queueIds = [...new Set(asked.queueIds ?? [])];
  const userIds = [...new Set(asked.userIds ?? [])];
  if (queueIds.length && (await deps.queues.findByIds(companyId, queueIds)).length !== queueIds.length) throw new NotFoundError('ERR_QUEUE_NOT_FOUND');
  if (userIds.length) {
    const known = new Set((await deps.users.listAll(companyId)).map((u) => u.id));
    if (userIds.some((id) => !known.has(id))) throw new NotFoundError('ERR_NO_USER_FOUND');
  }
  const filter = { ...(queueIds.length ? { queueIds } : {}), ...(userIds.length ? { userIds } : {}) };
  if (isAdmin(actor)) return { companyId, filter, ownOnly: false };
  const user = await deps.users.findById(companyId, actor.userId);
  if (user?.showDashboard === 'enabled') return { companyId, filter, ownOnly: false };
  if (userIds.some((id) => id !== actor.userId)) throw new ForbiddenError('ERR_NO_PERMISSION');
  return { companyId, filter: { ...filter, userIds: [actor.userId] }, ownOnly: true };
}

/** The zone and range of a request, read once. */
export async function rangeFor(deps: { settings: Settings; clock: Clock }, companyId: number, input: RangeInput): Promise<DashboardRange> {
  return rangeOf(input, deps.clock.now(), await companyTimeZone(deps.settings, companyId));
}
