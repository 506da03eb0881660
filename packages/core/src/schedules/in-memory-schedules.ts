import { foldForSearch } from '../shared/text.js';
import type { OccurrencePatch, ScheduleDeliveries, ScheduleOccurrences, SchedulePageFilter, ScheduleProgress, Schedules } from './ports.js';
import {
  OPEN_OCCURRENCE,
  type DeliveryStatus,
  type NewDelivery,
  type NewOccurrence,
  type NewSchedule,
  type OccurrenceStatus,
  type Schedule,
  type ScheduleDelivery,
  type ScheduleOccurrence,
} from './schedule.js';

const clone = <T>(v: T): T => structuredClone(v);

/**
 * The recipients of occurrences in a map. Every method reads and writes before its first await,
 * so concurrent runs see each settle as atomic (as the SQL adapter's conditional update).
 */
export class InMemoryScheduleDeliveries implements ScheduleDeliveries {
  readonly rows = new Map<number, ScheduleDelivery>();
  private nextId = 1;

  async addMany(deliveries: readonly NewDelivery[]) {
    let added = 0;
    for (const d of deliveries) {
      if ([...this.rows.values()].some((r) => r.occurrenceId === d.occurrenceId && r.contactId === d.contactId)) continue;
      const row: ScheduleDelivery = { ...d, id: this.nextId++, status: 'pending', messageId: null, ticketId: null, failureReason: null, sentAt: null };
      this.rows.set(row.id, row);
      added++;
    }
    return added;
  }

  private of(companyId: number, occurrenceId: number) {
    return [...this.rows.values()].filter((r) => r.companyId === companyId && r.occurrenceId === occurrenceId).sort((a, b) => a.id - b.id);
  }

  async nextPending(companyId: number, occurrenceId: number) {
    const row = this.of(companyId, occurrenceId).find((r) => r.status === 'pending');
    return row ? clone(row) : null;
  }

  async settle(
    companyId: number,
    id: number,
    patch: Pick<ScheduleDelivery, 'messageId' | 'ticketId' | 'failureReason' | 'sentAt'> & { status: Exclude<DeliveryStatus, 'pending'> },
  ) {
    const row = this.rows.get(id);
    if (!row || row.companyId !== companyId || row.status !== 'pending') return false;
    this.rows.set(id, { ...row, ...clone(patch) });
    return true;
  }

  async failPending(companyId: number, occurrenceId: number, reason: string) {
    const pending = this.of(companyId, occurrenceId).filter((r) => r.status === 'pending');
    for (const r of pending) this.rows.set(r.id, { ...r, status: 'failed', failureReason: reason });
    return pending.length;
  }

  async counts(companyId: number, occurrenceId: number) {
    const counts: Record<DeliveryStatus, number> = { pending: 0, sent: 0, failed: 0 };
    for (const r of this.of(companyId, occurrenceId)) counts[r.status]++;
    return counts;
  }

  async listOf(companyId: number, occurrenceId: number, limit: number) {
    return this.of(companyId, occurrenceId).slice(0, limit).map(clone);
  }

  /** Forgets an occurrence's recipients (its schedule was deleted). */
  drop(occurrenceIds: ReadonlySet<number>) {
    for (const [id, r] of this.rows) if (occurrenceIds.has(r.occurrenceId)) this.rows.delete(id);
  }
}

/** Occurrences in a map; `transition` compares and sets in one step, and `add` refuses what the database's unique indexes refuse. */
export class InMemoryScheduleOccurrences implements ScheduleOccurrences {
  readonly rows = new Map<number, ScheduleOccurrence>();
  private nextId = 1;

  async findById(companyId: number, id: number) {
    const row = this.rows.get(id);
    return row && row.companyId === companyId ? clone(row) : null;
  }

  async add(occurrence: NewOccurrence) {
    const siblings = [...this.rows.values()].filter((r) => r.scheduleId === occurrence.scheduleId);
    if (siblings.some((r) => r.sequence === occurrence.sequence))
      throw new Error(`schedule ${occurrence.scheduleId} already has occurrence ${occurrence.sequence}`);
    if (OPEN_OCCURRENCE.includes(occurrence.status) && siblings.some((r) => OPEN_OCCURRENCE.includes(r.status))) {
      throw new Error(`schedule ${occurrence.scheduleId} already has an open occurrence`);
    }
    const row = { ...clone(occurrence), id: this.nextId++ };
    this.rows.set(row.id, row);
    return clone(row);
  }

  async openOf(companyId: number, scheduleId: number) {
    const row = [...this.rows.values()].find((r) => r.companyId === companyId && r.scheduleId === scheduleId && OPEN_OCCURRENCE.includes(r.status));
    return row ? clone(row) : null;
  }

  async latestOf(companyId: number, scheduleId: number, limit: number) {
    return [...this.rows.values()]
      .filter((r) => r.companyId === companyId && r.scheduleId === scheduleId)
      .sort((a, b) => b.sequence - a.sequence)
      .slice(0, limit)
      .map(clone);
  }

  async transition(companyId: number, id: number, from: readonly OccurrenceStatus[], to: OccurrenceStatus, patch: OccurrencePatch = {}, step?: number) {
    const row = this.rows.get(id);
    if (!row || row.companyId !== companyId || !from.includes(row.status) || (step !== undefined && row.step !== step)) return false;
    this.rows.set(id, { ...row, ...clone(patch), status: to });
    return true;
  }

  async reschedule(companyId: number, id: number, dueAt: Date, at: Date) {
    const row = this.rows.get(id);
    if (!row || row.companyId !== companyId || row.status !== 'pending') return false;
    this.rows.set(id, { ...row, dueAt: new Date(dueAt), updatedAt: new Date(at) });
    return true;
  }

  async openDueBy(until: Date, limit: number) {
    return [...this.rows.values()]
      .filter((r) => OPEN_OCCURRENCE.includes(r.status) && r.dueAt <= until)
      .sort((a, b) => a.dueAt.getTime() - b.dueAt.getTime() || a.id - b.id)
      .slice(0, limit)
      .map(clone);
  }

  /** Forgets a schedule's occurrences (it was deleted); answers their ids. */
  drop(scheduleId: number): Set<number> {
    const ids = new Set<number>();
    for (const [id, r] of this.rows)
      if (r.scheduleId === scheduleId) {
        ids.add(id);
        this.rows.delete(id);
      }
    return ids;
  }
}

/** Schedules in a map; removing one removes its occurrences and their recipients, as the database's cascades do. */
export class InMemorySchedules implements Schedules {
  private readonly rows = new Map<number, Schedule>();
  private nextId = 1;

  constructor(
    private readonly occurrences: InMemoryScheduleOccurrences = new InMemoryScheduleOccurrences(),
    private readonly deliveries: InMemoryScheduleDeliveries = new InMemoryScheduleDeliveries(),
    /** The contacts' names, for searching contact schedules by them (the SQL adapter joins `contacts`). */
    private readonly contactName: (companyId: number, contactId: number) => Promise<string | null> = async () => null,
  ) {}

  async findById(companyId: number, id: number) {
    const row = this.rows.get(id);
    return row && row.companyId === companyId ? clone(row) : null;
  }

  async add(schedule: NewSchedule) {
    const row = { ...clone(schedule), id: this.nextId++ };
    this.rows.set(row.id, row);
    return clone(row);
  }

  async update(schedule: Schedule) {
    const row = this.rows.get(schedule.id);
    if (!row || row.companyId !== schedule.companyId) return;
    const { status, sendAt, sentAt, sentCount, lastError, ticketId } = row;
    this.rows.set(schedule.id, { ...clone(schedule), status, sendAt, sentAt, sentCount, lastError, ticketId });
  }

  async recordProgress(companyId: number, id: number, progress: ScheduleProgress) {
    const row = this.rows.get(id);
    if (row && row.companyId === companyId) this.rows.set(id, { ...row, ...clone(progress) });
  }

  async remove(companyId: number, id: number) {
    const row = this.rows.get(id);
    if (!row || row.companyId !== companyId) return false;
    this.rows.delete(id);
    this.deliveries.drop(this.occurrences.drop(id));
    return true;
  }

  async page(filter: SchedulePageFilter & { readonly companyId: number }) {
    const wanted = foldForSearch(filter.search?.trim() ?? '');
    const candidates = [...this.rows.values()].filter(
      (s) =>
        s.companyId === filter.companyId &&
        s.kind === filter.kind &&
        (filter.contactId === undefined || s.contactId === filter.contactId) &&
        (filter.userId === undefined || s.userId === filter.userId) &&
        (filter.status === undefined || s.status === filter.status),
    );
    const found: Schedule[] = [];
    for (const s of candidates) {
      const contact = s.contactId === null ? '' : ((await this.contactName(s.companyId, s.contactId)) ?? '');
      const texts = [s.body, s.name ?? '', contact];
      if (!wanted || texts.some((t) => foldForSearch(t).includes(wanted))) found.push(s);
    }
    found.sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || b.id - a.id);
    return { rows: found.slice(filter.offset, filter.offset + filter.limit).map(clone), count: found.length };
  }
}
