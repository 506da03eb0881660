import type { Connections } from '../connections/ports.js';
import type { Contacts } from '../contacts/ports.js';
import type { Users } from '../identity/ports.js';
import type { Queues } from '../queues/ports.js';
import type { Tags } from '../tags/ports.js';
import type { ErrorCode } from '../shared/error-codes.js';
import { NotFoundError, ValidationError } from '../shared/errors.js';
import { parseWallClockTime } from '../shared/zoned-time.js';
import { INTERVAL_CODES, WEEKEND_CODES, type Recurrence } from './recurrence.js';
import type { Schedule, ScheduleTicketStatus } from './schedule.js';

/** The recurrence as the lineage's forms write it; an absent field keeps its value. */
export interface RecurrenceInput {
  /** `intervalo`: 1 days, 2 weeks, 3 months, 4 minutes, 5 business days (Monday to Friday). */
  readonly interval?: number;
  /** `valorIntervalo`: every how many; 0 sends once. */
  readonly every?: number;
  /** `enviarQuantasVezes`: sends in all; 0 no limit. */
  readonly count?: number;
  /** `tipoDias`: 4 any day, 5 the Friday before a weekend, 6 the Monday after. */
  readonly weekend?: number;
  /** No send after this moment (same formats as the time); null: no end date. */
  readonly until?: string | null;
}

/** What a create or an edit may set (both kinds; each kind's routes set its own fields). */
export interface ScheduleInput {
  readonly body?: string;
  /** ISO 8601 with an offset, or `YYYY-MM-DD HH:mm[:ss]` / `YYYY-MM-DDTHH:mm` on the company's clock. */
  readonly sendAt?: string;
  readonly contactId?: number;
  readonly connectionId?: number | null;
  readonly ticketUserId?: number | null;
  readonly queueId?: number | null;
  readonly openTicket?: boolean;
  readonly statusTicket?: ScheduleTicketStatus;
  readonly sign?: boolean;
  readonly signUserId?: number | null;
  readonly name?: string;
  readonly contactIds?: readonly number[];
  readonly tagIds?: readonly number[];
  readonly recurrence?: RecurrenceInput;
}

export const MAX_SCHEDULE_BODY = 4096;
export const MAX_SCHEDULE_NAME = 255;
/** Contacts and tags a scheduled message may name. */
export const MAX_SCHEDULE_TARGETS = 1000;
const MAX_EVERY = 1000;
const MAX_COUNT = 10_000;

export interface ReferenceDeps {
  readonly contacts: Contacts;
  readonly connections: Connections;
  readonly users: Users;
  readonly queues: Queues;
  readonly tags: Tags;
}

/** A moment as clients write it, on the company's clock when it has no offset. */
export function parseMoment(text: string, timeZone: string, field: string): Date {
  const at = parseWallClockTime(text, timeZone);
  if (!at) throw new ValidationError('ERR_SCHEDULE_INVALID_TIME', { [field]: text });
  return at;
}

function recurrenceFrom(current: Recurrence, input: RecurrenceInput, timeZone: string): Recurrence {
  const invalid = (field: string) => new ValidationError('ERR_SCHEDULE_INVALID_RECURRENCE', { field });
  const whole = (v: number, max: number, field: string) => {
    if (!Number.isInteger(v) || v < 0 || v > max) throw invalid(field);
    return v;
  };
  let frequency = current.frequency;
  let every = current.frequency === 'none' ? 0 : current.every;
  if (input.interval !== undefined) {
    const f = INTERVAL_CODES[input.interval];
    if (!f) throw invalid('intervalo');
    frequency = f;
  } else if (frequency === 'none') frequency = 'days';
  if (input.every !== undefined) every = whole(input.every, MAX_EVERY, 'valorIntervalo');
  // A recurrence switched on without a count has no limit (until its end date, if any).
  const count = input.count !== undefined ? whole(input.count, MAX_COUNT, 'enviarQuantasVezes') : current.frequency === 'none' ? 0 : current.count;
  let weekend = current.weekend;
  if (input.weekend !== undefined) {
    const w = WEEKEND_CODES[input.weekend];
    if (!w) throw invalid('tipoDias');
    weekend = w;
  }
  let until = current.until;
  if (input.until !== undefined) until = input.until === null || input.until.trim() === '' ? null : parseMoment(input.until, timeZone, 'repeatUntil');
  if (every === 0) return { frequency: 'none', every: 0, count: 1, until: null, weekend };
  return { frequency, every, count, until, weekend };
}

function assertIn(found: boolean, code: ErrorCode, field: string, id: number): void {
  if (!found) throw new NotFoundError(code, { [field]: id });
}

/**
 * The schedule with the input applied and checked: texts and their lengths, every referenced id
 * within the company (404 naming it otherwise), the recurrence. Answers the moment the input
 * names (`at`), which the caller compares with the stored one.
 */
export async function applyScheduleInput(
  deps: ReferenceDeps,
  schedule: Schedule,
  input: ScheduleInput,
  timeZone: string,
): Promise<{ next: Schedule; at: Date | null }> {
  const { companyId } = schedule;
  const next: Schedule = { ...schedule, contactIds: [...schedule.contactIds], tagIds: [...schedule.tagIds] };
  if (input.body !== undefined) {
    if (!input.body.trim() || input.body.length > MAX_SCHEDULE_BODY) throw new ValidationError('ERR_SCHEDULE_INVALID_BODY');
    next.body = input.body;
  }
  if (input.name !== undefined) {
    const name = input.name.trim();
    if (!name || name.length > MAX_SCHEDULE_NAME) throw new ValidationError('ERR_SCHEDULE_INVALID_NAME');
    next.name = name;
  }
  if (input.contactId !== undefined) {
    assertIn(Boolean(await deps.contacts.findById(companyId, input.contactId)), 'ERR_NO_CONTACT_FOUND', 'contactId', input.contactId);
    next.contactId = input.contactId;
  }
  if (input.contactIds !== undefined) {
    const ids = [...new Set(input.contactIds)];
    if (ids.length > MAX_SCHEDULE_TARGETS) throw new ValidationError('ERR_SCHEDULE_TOO_MANY_RECIPIENTS', { contatos: ids.length });
    const found = new Set((await deps.contacts.findByIds(companyId, ids)).map((c) => c.id));
    const missing = ids.find((id) => !found.has(id));
    if (missing !== undefined) assertIn(false, 'ERR_NO_CONTACT_FOUND', 'contatos', missing);
    next.contactIds = ids;
  }
  if (input.tagIds !== undefined) {
    const ids = [...new Set(input.tagIds)];
    if (ids.length > MAX_SCHEDULE_TARGETS) throw new ValidationError('ERR_SCHEDULE_TOO_MANY_RECIPIENTS', { tags: ids.length });
    for (const id of ids) assertIn(Boolean(await deps.tags.findById(companyId, id)), 'ERR_NO_TAG_FOUND', 'tags', id);
    next.tagIds = ids;
  }
  if (input.connectionId !== undefined) {
    if (input.connectionId !== null)
      assertIn(Boolean(await deps.connections.findById(companyId, input.connectionId)), 'ERR_NO_CONNECTION_FOUND', 'chatappId', input.connectionId);
    next.connectionId = input.connectionId;
  }
  for (const field of ['ticketUserId', 'signUserId'] as const) {
    const id = input[field];
    if (id === undefined) continue;
    if (id !== null) assertIn(Boolean(await deps.users.findById(companyId, id)), 'ERR_NO_USER_FOUND', field, id);
    next[field] = id;
  }
  if (input.queueId !== undefined) {
    if (input.queueId !== null) assertIn(Boolean(await deps.queues.findById(companyId, input.queueId)), 'ERR_QUEUE_NOT_FOUND', 'queueId', input.queueId);
    next.queueId = input.queueId;
  }
  if (input.openTicket !== undefined) next.openTicket = input.openTicket;
  if (input.statusTicket !== undefined) next.statusTicket = input.statusTicket;
  if (input.sign !== undefined) next.sign = input.sign;
  if (input.recurrence !== undefined) next.recurrence = recurrenceFrom(schedule.recurrence, input.recurrence, timeZone);
  const at = input.sendAt === undefined ? null : parseMoment(input.sendAt, timeZone, 'sendAt');
  return { next, at };
}

/** The first moment of a series must come before its end date. */
export function assertEndAfter(recurrence: Recurrence, first: Date): void {
  if (recurrence.until && recurrence.until.getTime() < first.getTime()) throw new ValidationError('ERR_SCHEDULE_INVALID_RECURRENCE', { field: 'repeatUntil' });
}

/** How far in the past a new moment may lie (a form filled in slowly): it is then sent at once. */
export const PAST_TOLERANCE_MS = 5 * 60_000;

export function assertNotPast(at: Date, now: Date): void {
  if (at.getTime() < now.getTime() - PAST_TOLERANCE_MS) throw new ValidationError('ERR_SCHEDULE_IN_PAST', { sendAt: at.toISOString() });
}

/**
 * Whether the moment a form sends back is the stored one: equal, or (a form showing minutes only)
 * the same minute when the text names no seconds.
 */
export function sameMoment(text: string | undefined, at: Date, stored: Date): boolean {
  if (at.getTime() === stored.getTime()) return true;
  const withSeconds = /\d{2}:\d{2}:\d{2}/.test(text ?? '');
  return !withSeconds && Math.floor(at.getTime() / 60_000) === Math.floor(stored.getTime() / 60_000);
}

/** Applies a form's input to a schedule on the company's clock, every id it names looked up within the company. */
export class ScheduleInputs {
  constructor(private readonly deps: ReferenceDeps & { readonly timeZone: (companyId: number) => Promise<string> }) {}

  async apply(schedule: Schedule, input: ScheduleInput): Promise<{ next: Schedule; at: Date | null }> {
    return applyScheduleInput(this.deps, schedule, input, await this.deps.timeZone(schedule.companyId));
  }
}
