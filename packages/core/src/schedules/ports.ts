import type { ErrorCode } from '../shared/error-codes.js';
import type {
  DeliveryStatus,
  NewDelivery,
  NewOccurrence,
  NewSchedule,
  OccurrenceStatus,
  Schedule,
  ScheduleDelivery,
  ScheduleKind,
  ScheduleMedia,
  ScheduleOccurrence,
  ScheduleStatus,
  ScheduleTicketStatus,
} from './schedule.js';

/** The fields the runs of occurrences write (and an edit that re-arms a schedule). */
export type ScheduleProgress = Pick<Schedule, 'status' | 'sendAt' | 'sentAt' | 'sentCount' | 'lastError' | 'ticketId' | 'updatedAt'>;

export interface SchedulePageFilter {
  readonly kind: ScheduleKind;
  /** In the text or (contact kind) the contact's name, or (bulk) the name; case- and accent-insensitive. */
  readonly search?: string;
  readonly contactId?: number;
  readonly userId?: number;
  readonly status?: ScheduleStatus;
  readonly offset: number;
  readonly limit: number;
}

/** A company's schedules of both kinds. Every read and write is scoped by `companyId` (another company's id is absent). */
export interface Schedules {
  findById(companyId: number, id: number): Promise<Schedule | null>;
  add(schedule: NewSchedule): Promise<Schedule>;
  /** Saves what its owner edits: every field but the progress ones (`recordProgress`), which the runs own. */
  update(schedule: Schedule): Promise<void>;
  /** Saves the progress fields only: an edit saved meanwhile is kept. */
  recordProgress(companyId: number, id: number, progress: ScheduleProgress): Promise<void>;
  /** Deletes the schedule with its occurrences and deliveries; false when it was not there. */
  remove(companyId: number, id: number): Promise<boolean>;
  /** A page of one kind, newest first (`createdAt`, then id). */
  page(filter: SchedulePageFilter & { readonly companyId: number }): Promise<{ rows: Schedule[]; count: number }>;
}

/** What `settle` may set with the new status. */
export type OccurrencePatch = Partial<Pick<ScheduleOccurrence, 'step' | 'recipients' | 'sent' | 'failed' | 'failureReason' | 'settledAt' | 'updatedAt'>>;

/**
 * The occurrences of schedules. A schedule has at most one open (`pending` or `sending`)
 * occurrence at a time, and one per sequence number; the database enforces both.
 */
export interface ScheduleOccurrences {
  findById(companyId: number, id: number): Promise<ScheduleOccurrence | null>;
  add(occurrence: NewOccurrence): Promise<ScheduleOccurrence>;
  /** The schedule's `pending` or `sending` occurrence. */
  openOf(companyId: number, scheduleId: number): Promise<ScheduleOccurrence | null>;
  /** The schedule's latest occurrences, highest sequence first. */
  latestOf(companyId: number, scheduleId: number, limit: number): Promise<ScheduleOccurrence[]>;
  /**
   * Moves the occurrence to `to` only if its stored status is one of `from` (and, when given, its
   * step is `step`), with `patch`, in one conditional update. True when it applied: of two runs
   * trying the same move, exactly one gets true.
   */
  transition(companyId: number, id: number, from: readonly OccurrenceStatus[], to: OccurrenceStatus, patch?: OccurrencePatch, step?: number): Promise<boolean>;
  /** A pending occurrence's new moment (its schedule was edited); false when it is no longer pending. */
  reschedule(companyId: number, id: number, dueAt: Date, at: Date): Promise<boolean>;
  /** Open occurrences of every company due at or before `until`, earliest first: the safety net's work list. */
  openDueBy(until: Date, limit: number): Promise<ScheduleOccurrence[]>;
}

/** The recipients of each occurrence, unique per (occurrence, contact); each one is settled once. */
export interface ScheduleDeliveries {
  /** Adds the recipients; a contact already there is left as it is. Answers how many were added. */
  addMany(deliveries: readonly NewDelivery[]): Promise<number>;
  /** The occurrence's first pending recipient (lowest id). */
  nextPending(companyId: number, occurrenceId: number): Promise<ScheduleDelivery | null>;
  /** Settles a pending recipient; false when it was already settled (by another run). */
  settle(
    companyId: number,
    id: number,
    patch: { status: Exclude<DeliveryStatus, 'pending'>; messageId: string | null; ticketId: number | null; failureReason: string | null; sentAt: Date | null },
  ): Promise<boolean>;
  /** Fails every pending recipient of the occurrence with the reason; answers how many. */
  failPending(companyId: number, occurrenceId: number, reason: string): Promise<number>;
  /** Counts per status of one occurrence. */
  counts(companyId: number, occurrenceId: number): Promise<Record<DeliveryStatus, number>>;
  /** The occurrence's recipients by id (at most `limit`). */
  listOf(companyId: number, occurrenceId: number, limit: number): Promise<ScheduleDelivery[]>;
}

/** One message of one occurrence to one contact, as the send path needs it. */
export interface ScheduleSend {
  readonly companyId: number;
  readonly connectionId: number;
  readonly contactId: number;
  /** The text as written: variables are filled in once the ticket is known. */
  readonly body: string;
  readonly media: ScheduleMedia | null;
  readonly openTicket: boolean;
  readonly statusTicket: ScheduleTicketStatus;
  readonly ticketUserId: number | null;
  readonly queueId: number | null;
  /** Who signs (`*<name>:*` before the text), and whose name `{{userName}}` is. */
  readonly userId: number | null;
  readonly sign: boolean;
}

/** Why a send did not happen; a retryable one (the session is down) is tried again later. */
export interface ScheduleSendFailure {
  readonly ok: false;
  readonly reason: ErrorCode;
  readonly retryable: boolean;
}

/**
 * The schedules' way into the one send path (the composition layer implements it over
 * `OutboundMessages`): the message and its send command are written in the caller's transaction.
 */
export interface ScheduleSender {
  /** The connection that sends now: the schedule's own, else the company's default; refused when its session cannot send. */
  connection(companyId: number, connectionId: number | null): Promise<{ readonly ok: true; readonly connectionId: number } | ScheduleSendFailure>;
  send(send: ScheduleSend): Promise<{ readonly ok: true; readonly messageId: string; readonly ticketId: number } | ScheduleSendFailure>;
}
