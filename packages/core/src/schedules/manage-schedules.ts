import type { Actor } from '../shared/actor.js';
import { ValidationError } from '../shared/errors.js';
import { hasMore, pageFromNumber } from '../shared/paging.js';
import type { UploadedFile } from '../uploads/image-upload.js';
import type { ScheduleOccurrences, Schedules } from './ports.js';
import type { ScheduleStatus } from './schedule.js';
import type { ScheduleAnnouncer } from './schedule-announcer.js';
import { findSchedule, type ScheduleBook, type SchedulePlan } from './schedule-book.js';
import type { ScheduleInput } from './schedule-input.js';
import { occurrenceView, type OccurrenceView, type ScheduleView, type ScheduleViews } from './schedule-view.js';

/** Occurrences a schedule's answer lists, latest first. */
export const SHOWN_OCCURRENCES = 20;

/** What the contact schedules' changes take: the book that writes them and the announcer of their frame. */
export interface ContactScheduleDeps {
  readonly book: ScheduleBook;
  readonly announcer: ScheduleAnnouncer;
}

/** `GET /schedules`: every operator of the company reads its schedules, 20 a page, newest first. */
export class ListSchedules {
  constructor(private readonly deps: { schedules: Schedules; plan: SchedulePlan; views: ScheduleViews }) {}

  async execute(input: {
    readonly actor: Actor;
    readonly searchParam?: string;
    readonly contactId?: number;
    readonly userId?: number;
    readonly status?: ScheduleStatus;
    readonly pageNumber?: number;
  }): Promise<{ schedules: ScheduleView[]; count: number; hasMore: boolean }> {
    const { companyId } = input.actor;
    await this.deps.plan.assertFeature(companyId, 'schedules');
    const page = pageFromNumber(input.pageNumber);
    const { rows, count } = await this.deps.schedules.page({
      companyId,
      kind: 'contact',
      ...(input.searchParam?.trim() ? { search: input.searchParam.trim() } : {}),
      ...(input.contactId !== undefined ? { contactId: input.contactId } : {}),
      ...(input.userId !== undefined ? { userId: input.userId } : {}),
      ...(input.status !== undefined ? { status: input.status } : {}),
      offset: page.offset,
      limit: page.limit,
    });
    return { schedules: await this.deps.views.views(companyId, rows), count, hasMore: hasMore(page, count) };
  }
}

/** `GET /schedules/:id`: the schedule with its latest occurrences. */
export class ShowSchedule {
  constructor(private readonly deps: { schedules: Schedules; occurrences: ScheduleOccurrences; plan: SchedulePlan; views: ScheduleViews }) {}

  async execute(input: { readonly actor: Actor; readonly scheduleId: number }): Promise<ScheduleView & { occurrences: OccurrenceView[] }> {
    const schedule = await findSchedule(this.deps, input.actor, input.scheduleId, 'contact');
    const occurrences = await this.deps.occurrences.latestOf(schedule.companyId, schedule.id, SHOWN_OCCURRENCES);
    return { ...(await this.deps.views.view(schedule)), occurrences: occurrences.map(occurrenceView) };
  }
}

/** `POST /schedules`: any operator schedules a message to one of the company's contacts. */
export class CreateSchedule {
  constructor(private readonly deps: ContactScheduleDeps) {}

  async execute(input: { readonly actor: Actor; readonly schedule: ScheduleInput }): Promise<ScheduleView> {
    return this.deps.announcer.scheduleChanged('create', await this.deps.book.create(input.actor, 'contact', input.schedule));
  }
}

/** `PUT /schedules/:id`: admins edit any schedule, users their own. */
export class UpdateSchedule {
  constructor(private readonly deps: ContactScheduleDeps) {}

  async execute(input: { readonly actor: Actor; readonly scheduleId: number; readonly schedule: ScheduleInput }): Promise<ScheduleView> {
    const { after } = await this.deps.book.update(input.actor, 'contact', input.scheduleId, input.schedule);
    return this.deps.announcer.scheduleChanged('update', after);
  }
}

/** `DELETE /schedules/:id`: admins delete any schedule, users their own; nothing more of it is sent. */
export class DeleteSchedule {
  constructor(private readonly deps: ContactScheduleDeps) {}

  async execute(input: { readonly actor: Actor; readonly scheduleId: number }): Promise<void> {
    const removed = await this.deps.book.delete(input.actor, 'contact', input.scheduleId);
    if (removed) await this.deps.announcer.removed(removed);
  }
}

/** `POST /schedules/:id/media-upload`: the attachment of every later send, replacing an earlier one. */
export class SetScheduleMedia {
  constructor(private readonly deps: ContactScheduleDeps) {}

  async execute(input: { readonly actor: Actor; readonly scheduleId: number; readonly file: UploadedFile | undefined }): Promise<ScheduleView> {
    if (!input.file) {
      await this.deps.book.find(input.actor, input.scheduleId, 'contact');
      throw new ValidationError('ERR_NO_FILE');
    }
    return this.deps.announcer.scheduleChanged('update', await this.deps.book.changeMedia(input.actor, 'contact', input.scheduleId, input.file));
  }
}

/** `DELETE /schedules/:id/media-upload`: the attachment goes, its file too. */
export class RemoveScheduleMedia {
  constructor(private readonly deps: ContactScheduleDeps) {}

  async execute(input: { readonly actor: Actor; readonly scheduleId: number }): Promise<ScheduleView> {
    return this.deps.announcer.scheduleChanged('update', await this.deps.book.changeMedia(input.actor, 'contact', input.scheduleId, null));
  }
}
