import type { Recurrence } from './recurrence.js';

/**
 * A schedule: a message sent at a moment, once or on a recurrence, through a connection. Two
 * kinds share one engine: `contact` (the lineage's `Schedule`, `/schedules`: one contact, an
 * optional ticket opened for a user and queue) and `bulk` (the lineage's `ScheduledMessages`,
 * `/schedules-message`: named, to chosen contacts and every contact of chosen tags).
 *
 * Each moment of the series is an occurrence (its own row, with its status); the schedule's
 * `status` summarises them in the lineage's words: `PENDENTE` while an occurrence waits,
 * `ENVIADA` once the series ended with a send, `ERRO` when its last occurrence failed,
 * `PERDIDA` (ours) when its last one was missed.
 */
export const SCHEDULE_STATUSES = ['PENDENTE', 'ENVIADA', 'ERRO', 'PERDIDA'] as const;
export type ScheduleStatus = (typeof SCHEDULE_STATUSES)[number];

export const SCHEDULE_KINDS = ['contact', 'bulk'] as const;
export type ScheduleKind = (typeof SCHEDULE_KINDS)[number];

export const TICKET_STATUSES = ['open', 'pending', 'closed'] as const;
export type ScheduleTicketStatus = (typeof TICKET_STATUSES)[number];

export interface ScheduleMedia {
  /** The blob key of the attachment. */
  readonly path: string;
  /** The file's original name, shown and sent as the file name. */
  readonly name: string;
  readonly contentType: string;
  readonly size: number;
}

export interface Schedule {
  id: number;
  companyId: number;
  kind: ScheduleKind;
  /** Bulk only: the lineage's `nome`. */
  name: string | null;
  body: string;
  /** Contact kind: the one recipient. */
  contactId: number | null;
  /** Bulk: chosen contacts and tags (every contact carrying one, read when each occurrence fires). */
  contactIds: number[];
  tagIds: number[];
  /** The sending connection; null: the company's default one when it fires. */
  connectionId: number | null;
  /** Who created it (from the token). */
  userId: number | null;
  /** With `openTicket`, the ticket is the user's and in the queue. */
  ticketUserId: number | null;
  queueId: number | null;
  openTicket: boolean;
  statusTicket: ScheduleTicketStatus;
  /** Prefixes the text with `*<name>:*`: the signer's, or the creator's when none is named. */
  sign: boolean;
  signUserId: number | null;
  media: ScheduleMedia | null;
  recurrence: Recurrence;
  /** The series is computed from here: occurrence `anchorSequence` is at `anchorAt` (on the company's wall clock). */
  anchorAt: Date;
  anchorSequence: number;
  /** The sequence of the current series' first occurrence (a finished schedule given a new time starts a new series). */
  seriesStart: number;
  /** The moment of the waiting occurrence, or of the last one once the series ended. */
  sendAt: Date;
  status: ScheduleStatus;
  /** When the last send happened. */
  sentAt: Date | null;
  /** Occurrences sent so far (the lineage's `contadorEnvio`). */
  sentCount: number;
  /** The reason of the last failure (a catalog code), cleared by a later send. */
  lastError: string | null;
  /** The ticket of the last send (contact kind). */
  ticketId: number | null;
  createdAt: Date;
  updatedAt: Date;
}

export type NewSchedule = Omit<Schedule, 'id'>;

/**
 * The states of one occurrence: `pending` until its moment; `sending` while a bulk occurrence
 * works through its recipients; then `sent` (at least one recipient got it), `failed` (with its
 * reason) or `missed` (its moment passed while nothing ran, beyond the allowed delay, or a later
 * moment of the same series was due at once and was sent instead).
 */
export const OCCURRENCE_STATUSES = ['pending', 'sending', 'sent', 'failed', 'missed'] as const;
export type OccurrenceStatus = (typeof OCCURRENCE_STATUSES)[number];

/** The states in which an occurrence still has work (and a job). */
export const OPEN_OCCURRENCE: readonly OccurrenceStatus[] = ['pending', 'sending'];

export interface ScheduleOccurrence {
  id: number;
  companyId: number;
  scheduleId: number;
  /** Its position in the series (1 is the first moment). */
  sequence: number;
  dueAt: Date;
  status: OccurrenceStatus;
  /** Runs done while `sending` (each sends one recipient): part of its job's key and payload. */
  step: number;
  /** Counts of its recipients (one for the contact kind). */
  recipients: number;
  sent: number;
  failed: number;
  failureReason: string | null;
  settledAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

export type NewOccurrence = Omit<ScheduleOccurrence, 'id'>;

export const DELIVERY_STATUSES = ['pending', 'sent', 'failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** One recipient of one occurrence (the lineage's `ScheduledMessagesEnvio`): sent at most once. */
export interface ScheduleDelivery {
  id: number;
  companyId: number;
  occurrenceId: number;
  contactId: number;
  status: DeliveryStatus;
  messageId: string | null;
  ticketId: number | null;
  failureReason: string | null;
  sentAt: Date | null;
}

export type NewDelivery = Pick<ScheduleDelivery, 'companyId' | 'occurrenceId' | 'contactId'>;

/** The schedule's status once its series ended with this occurrence's outcome. */
export function finishedStatus(outcome: 'sent' | 'failed' | 'missed'): ScheduleStatus {
  return outcome === 'sent' ? 'ENVIADA' : outcome === 'failed' ? 'ERRO' : 'PERDIDA';
}
