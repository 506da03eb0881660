import type { Actor } from '../shared/actor.js';
import { isAdmin } from '../shared/actor.js';
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from '../shared/errors.js';
import type { Clock, Transaction } from '../shared/ports.js';
import type { PlanFeature } from '../tenancy/plan.js';
import type { UploadedFile } from '../uploads/image-upload.js';
import { armOccurrence, cancelRun, enqueueRun, type ArmingDeps } from './arming.js';
import type { ScheduleOccurrences, ScheduleProgress, Schedules } from './ports.js';
import { NO_RECURRENCE } from './recurrence.js';
import type { Schedule, ScheduleKind, ScheduleMedia } from './schedule.js';
import { assertEndAfter, assertNotPast, sameMoment, type ScheduleInput, type ScheduleInputs } from './schedule-input.js';
import type { ScheduleMediaStore } from './schedule-media.js';

export { MAX_SCHEDULE_MEDIA_BYTES } from './schedule-media.js';

export interface SchedulePlan {
  assertFeature(companyId: number, feature: PlanFeature): Promise<void>;
}

export interface BookDeps extends ArmingDeps {
  readonly schedules: Schedules;
  readonly occurrences: ScheduleOccurrences;
  readonly plan: SchedulePlan;
  /** The form's input applied, on the company's clock. */
  readonly inputs: ScheduleInputs;
  /** The attachments' files. */
  readonly media: ScheduleMediaStore;
  readonly tx: Transaction;
  readonly clock: Clock;
}

/** The caller's schedule of that kind, once the company's plan has schedules (404 for another company's, or the other kind's). */
export async function findSchedule(deps: Pick<BookDeps, 'schedules' | 'plan'>, actor: Actor, id: number, kind: ScheduleKind): Promise<Schedule> {
  await deps.plan.assertFeature(actor.companyId, 'schedules');
  const schedule = await deps.schedules.findById(actor.companyId, id);
  if (!schedule || schedule.kind !== kind) throw new NotFoundError('ERR_NO_SCHEDULE_FOUND', { id });
  return schedule;
}

/** Admins change any schedule; users the ones they created. */
export function assertMayChange(actor: Actor, schedule: Schedule): void {
  if (!isAdmin(actor) && schedule.userId !== actor.userId) throw new ForbiddenError('ERR_NO_PERMISSION');
}

const progressOf = (s: Schedule): ScheduleProgress => ({
  status: s.status,
  sendAt: s.sendAt,
  sentAt: s.sentAt,
  sentCount: s.sentCount,
  lastError: s.lastError,
  ticketId: s.ticketId,
  updatedAt: s.updatedAt,
});

function blank(kind: ScheduleKind, actor: Actor, now: Date): Schedule {
  return {
    id: 0,
    companyId: actor.companyId,
    kind,
    name: null,
    body: '',
    contactId: null,
    contactIds: [],
    tagIds: [],
    connectionId: null,
    userId: actor.userId,
    ticketUserId: null,
    queueId: null,
    openTicket: false,
    statusTicket: 'closed',
    sign: false,
    signUserId: null,
    media: null,
    recurrence: NO_RECURRENCE,
    anchorAt: now,
    anchorSequence: 1,
    seriesStart: 1,
    sendAt: now,
    status: 'PENDENTE',
    sentAt: null,
    sentCount: 0,
    lastError: null,
    ticketId: null,
    createdAt: now,
    updatedAt: now,
  };
}

/** What every schedule of the kind must have once written. */
function assertComplete(s: Schedule): void {
  if (!s.body.trim()) throw new ValidationError('ERR_SCHEDULE_INVALID_BODY');
  if (s.kind === 'contact' && s.contactId === null) throw new ValidationError('ERR_SCHEDULE_NO_RECIPIENTS');
  if (s.kind === 'bulk') {
    if (!s.name) throw new ValidationError('ERR_SCHEDULE_INVALID_NAME');
    if (!s.contactIds.length && !s.tagIds.length) throw new ValidationError('ERR_SCHEDULE_NO_RECIPIENTS');
  }
}

/**
 * The schedules as operators write them: each change checked (plan, permission, input, moment)
 * and written with its occurrences and their jobs in one transaction, the attachments' files
 * replaced or removed after it.
 */
export class ScheduleBook {
  constructor(private readonly deps: BookDeps) {}

  /** The caller's schedule of that kind (404 for another company's, or the other kind's). */
  find(actor: Actor, id: number, kind: ScheduleKind): Promise<Schedule> {
    return findSchedule(this.deps, actor, id, kind);
  }

  /**
   * Writes a new schedule and its first occurrence (with its job) in one transaction. `adjust` sets
   * what a kind derives from the input (a scheduled message's ticket follows its signer).
   */
  async create(
    actor: Actor,
    kind: ScheduleKind,
    input: ScheduleInput,
    options: { media?: ScheduleMedia | null; adjust?: (s: Schedule) => Schedule } = {},
  ): Promise<Schedule> {
    const deps = this.deps;
    await deps.plan.assertFeature(actor.companyId, 'schedules');
    const now = deps.clock.now();
    const applied = await deps.inputs.apply(blank(kind, actor, now), input);
    const next = options.adjust ? options.adjust(applied.next) : applied.next;
    assertComplete(next);
    const at = applied.at;
    if (!at) throw new ValidationError('ERR_SCHEDULE_INVALID_TIME', { sendAt: null });
    assertNotPast(at, now);
    assertEndAfter(next.recurrence, at);
    const { id: _unset, ...fields } = { ...next, media: options.media ?? null, anchorAt: at, sendAt: at };
    return deps.tx.run(async () => {
      const created = await deps.schedules.add(fields);
      await armOccurrence(deps, created, { sequence: 1, at });
      return created;
    });
  }

  /**
   * Edits a schedule. A new moment moves its waiting occurrence (and that job); for a schedule
   * whose series ended, a new moment starts a new series. Editing anything re-anchors the series on
   * the waiting occurrence, so the recurrence goes on from there. A bulk occurrence already sending
   * keeps its moment (409 `ERR_SCHEDULE_SENDING` when asked to move it).
   */
  async update(
    actor: Actor,
    kind: ScheduleKind,
    id: number,
    input: ScheduleInput,
    options: { media?: ScheduleMedia; adjust?: (s: Schedule) => Schedule } = {},
  ): Promise<{ before: Schedule; after: Schedule }> {
    const deps = this.deps;
    const stored = await findSchedule(deps, actor, id, kind);
    assertMayChange(actor, stored);
    const now = deps.clock.now();
    const applied = await deps.inputs.apply(stored, input);
    const next: Schedule = {
      ...(options.adjust ? options.adjust(applied.next) : applied.next),
      updatedAt: now,
      ...(options.media ? { media: options.media } : {}),
    };
    assertComplete(next);
    const { at } = applied;
    await deps.tx.run(async () => {
      const open = await deps.occurrences.openOf(stored.companyId, stored.id);
      const moved = at !== null && !sameMoment(input.sendAt, at, open?.dueAt ?? stored.sendAt);
      let progress: ScheduleProgress | null = null;
      let arm: { sequence: number; at: Date } | null = null;
      if (open) {
        if (moved && open.status === 'sending') throw new ConflictError('ERR_SCHEDULE_SENDING');
        if (moved) {
          assertNotPast(at!, now);
          if (!(await deps.occurrences.reschedule(stored.companyId, open.id, at!, now))) throw new ConflictError('ERR_SCHEDULE_SENDING');
          await cancelRun(deps, open);
          await enqueueRun(deps, open, at!);
          progress = { ...progressOf(stored), sendAt: at!, updatedAt: now };
        }
        const due = moved ? at! : open.dueAt;
        assertEndAfter(next.recurrence, due);
        Object.assign(next, { anchorAt: due, anchorSequence: open.sequence });
      } else if (moved) {
        assertNotPast(at!, now);
        assertEndAfter(next.recurrence, at!);
        const last = (await deps.occurrences.latestOf(stored.companyId, stored.id, 1))[0];
        const sequence = (last?.sequence ?? 0) + 1;
        Object.assign(next, { anchorAt: at!, anchorSequence: sequence, seriesStart: sequence });
        arm = { sequence, at: at! };
        progress = { ...progressOf(stored), status: 'PENDENTE', sendAt: at!, updatedAt: now };
      }
      await deps.schedules.update(next);
      if (arm) await armOccurrence(deps, next, arm);
      if (progress) await deps.schedules.recordProgress(stored.companyId, stored.id, progress);
    });
    if (options.media && stored.media) await deps.media.remove(stored.media);
    return { before: stored, after: (await deps.schedules.findById(stored.companyId, stored.id)) ?? next };
  }

  /** Deletes a schedule with its occurrences, their recipients and the waiting job; then its attachment. */
  async delete(actor: Actor, kind: ScheduleKind, id: number): Promise<Schedule | null> {
    const deps = this.deps;
    const stored = await findSchedule(deps, actor, id, kind);
    assertMayChange(actor, stored);
    const removed = await deps.tx.run(async () => {
      const open = await deps.occurrences.openOf(stored.companyId, stored.id);
      if (open) await cancelRun(deps, open);
      return deps.schedules.remove(stored.companyId, stored.id);
    });
    if (!removed) return null;
    if (stored.media) await deps.media.remove(stored.media);
    return stored;
  }

  /** Replaces (a file) or removes (none) a schedule's attachment; later sends carry it, the text as its caption. */
  async changeMedia(actor: Actor, kind: ScheduleKind, id: number, file: UploadedFile | null): Promise<Schedule> {
    const deps = this.deps;
    const stored = await findSchedule(deps, actor, id, kind);
    assertMayChange(actor, stored);
    const media = file ? await deps.media.store(stored.companyId, file) : null;
    if (!media && !stored.media) return stored;
    await deps.schedules.update({ ...stored, media, updatedAt: deps.clock.now() });
    if (stored.media) await deps.media.remove(stored.media);
    return (await deps.schedules.findById(stored.companyId, stored.id)) ?? stored;
  }
}
