import type { BusinessHours } from '../tenancy/company.js';
import { cleanSchedules } from '../tenancy/company-input.js';
import { ValidationError } from '../shared/errors.js';
import { fromDayHours, toDayHours, type DayHours, type DayHoursInput } from '../tenancy/day-hours.js';

/**
 * A queue (a department: sales, support): the tickets it holds are seen by its users. A queue has
 * its own greeting and business hours (used when the company's `scheduleType` is `queue`), a
 * place in the menus (`orderQueue`), and optionally an integration that receives its
 * conversations and an AI assistant (prompt) that answers them. Names are unique per company,
 * ignoring case.
 */
export interface Queue {
  id: number;
  companyId: number;
  name: string;
  /** `#rrggbb`, lower case. */
  color: string;
  greetingMessage: string | null;
  outOfHoursMessage: string | null;
  schedules: BusinessHours[];
  /** Menus list queues by this, then by id. */
  orderQueue: number;
  integrationId: number | null;
  /** The AI assistant that answers the conversations it holds while no operator has them; null: none. */
  promptId: number | null;
  createdAt: Date;
  updatedAt: Date;
}

export type NewQueue = Omit<Queue, 'id'>;

export interface QueueView extends Omit<Queue, 'createdAt' | 'updatedAt' | 'schedules'> {
  /** One entry per day, in the order the days were given. */
  schedules: DayHours[];
  createdAt: string;
  updatedAt: string;
}

/** What other views (users, connections) carry of a queue. */
export interface QueueSummary {
  readonly id: number;
  readonly name: string;
  readonly color: string;
}

export const MAX_QUEUE_NAME = 100;
export const MAX_QUEUE_TEXT = 4000;
export const MAX_QUEUE_ORDER = 100_000;
export const DEFAULT_QUEUE_COLOR = '#7c7c7c';

export function toQueueView(q: Queue): QueueView {
  return { ...q, schedules: toDayHours(q.schedules), createdAt: q.createdAt.toISOString(), updatedAt: q.updatedAt.toISOString() };
}

export function toQueueSummary(q: Queue): QueueSummary {
  return { id: q.id, name: q.name, color: q.color };
}

/** Menus list queues by `orderQueue`, then id. */
export function byQueueOrder(a: Queue, b: Queue): number {
  return a.orderQueue - b.orderQueue || a.id - b.id;
}

export function cleanQueueName(name: string): string {
  const trimmed = name.trim();
  if (trimmed.length < 1 || trimmed.length > MAX_QUEUE_NAME) throw new ValidationError('ERR_INVALID_QUEUE_NAME');
  return trimmed;
}

export function cleanQueueColor(color: string): string {
  const trimmed = color.trim();
  if (!/^#[0-9a-fA-F]{6}$/.test(trimmed)) throw new ValidationError('ERR_INVALID_QUEUE_COLOR');
  return trimmed.toLowerCase();
}

/** Greeting and out-of-hours texts: blank means none. */
export function cleanQueueText(text: string | null | undefined): string | null {
  if (text === null || text === undefined || text.trim() === '') return null;
  if (text.length > MAX_QUEUE_TEXT) throw new ValidationError('ERR_QUEUE_TEXT_TOO_LONG');
  return text;
}

export function cleanQueueOrder(order: number): number {
  if (!Number.isInteger(order) || order < 0 || order > MAX_QUEUE_ORDER) throw new ValidationError('ERR_INVALID_QUEUE_ORDER');
  return order;
}

/** The company's rules for business hours (each range), with the same error code. */
export function cleanQueueSchedules(schedules: readonly DayHoursInput[]): BusinessHours[] {
  return cleanSchedules(fromDayHours(schedules));
}
