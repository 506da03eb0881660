import type { Actor } from '../shared/actor.js';
import { hasMore, pageFromNumber } from '../shared/paging.js';
import type { UploadedFile } from '../uploads/image-upload.js';
import type { ScheduleOccurrences, Schedules } from './ports.js';
import type { Schedule } from './schedule.js';
import type { ScheduleAnnouncer } from './schedule-announcer.js';
import { assertMayChange, findSchedule, type ScheduleBook, type SchedulePlan } from './schedule-book.js';
import type { ScheduleInput } from './schedule-input.js';
import { SHOWN_OCCURRENCES } from './manage-schedules.js';
import type { ScheduleMediaStore } from './schedule-media.js';
import { occurrenceView, scheduledMessageView, type OccurrenceView, type ScheduledMessageView } from './schedule-view.js';

/**
 * A scheduled message's ticket follows its signer: with `criar_ticket` the ticket is opened for
 * the user shown (`usuario_envio`), or waits in `pending` when nobody is; without a signature no
 * user is shown.
 */
function ticketOfSigner(s: Schedule): Schedule {
  const signUserId = s.sign ? s.signUserId : null;
  return { ...s, signUserId, ticketUserId: signUserId, statusTicket: signUserId !== null ? 'open' : 'pending' };
}

/** What the scheduled messages' changes take: the book that writes them, their files' store and the announcer of their frame. */
export interface ScheduledMessageDeps {
  readonly book: ScheduleBook;
  readonly media: ScheduleMediaStore;
  readonly announcer: ScheduleAnnouncer;
}

/** `GET /schedules-message`: the company's scheduled messages, 20 a page, newest first, found by name or text. */
export class ListScheduledMessages {
  constructor(private readonly deps: { schedules: Schedules; plan: SchedulePlan }) {}

  async execute(input: { readonly actor: Actor; readonly searchParam?: string; readonly pageNumber?: number }) {
    const { companyId } = input.actor;
    await this.deps.plan.assertFeature(companyId, 'schedules');
    const page = pageFromNumber(input.pageNumber);
    const { rows, count } = await this.deps.schedules.page({
      companyId,
      kind: 'bulk',
      ...(input.searchParam?.trim() ? { search: input.searchParam.trim() } : {}),
      offset: page.offset,
      limit: page.limit,
    });
    return { schedules: rows.map(scheduledMessageView), count, hasMore: hasMore(page, count) };
  }
}

/** `GET /schedules-message/:id`: with its latest occurrences and their counts of recipients sent and failed. */
export class ShowScheduledMessage {
  constructor(private readonly deps: { schedules: Schedules; occurrences: ScheduleOccurrences; plan: SchedulePlan }) {}

  async execute(input: { readonly actor: Actor; readonly scheduleId: number }): Promise<ScheduledMessageView & { occurrences: OccurrenceView[] }> {
    const schedule = await findSchedule(this.deps, input.actor, input.scheduleId, 'bulk');
    const occurrences = await this.deps.occurrences.latestOf(schedule.companyId, schedule.id, SHOWN_OCCURRENCES);
    return { ...scheduledMessageView(schedule), occurrences: occurrences.map(occurrenceView) };
  }
}

/** `POST /schedules-message`: any operator schedules a message to chosen contacts and tags, with an optional file; emits `scheduledMessage`. */
export class CreateScheduledMessage {
  constructor(private readonly deps: ScheduledMessageDeps) {}

  async execute(input: { readonly actor: Actor; readonly message: ScheduleInput; readonly file?: UploadedFile }): Promise<ScheduledMessageView> {
    const media = input.file ? await this.deps.media.store(input.actor.companyId, input.file) : null;
    let created: Schedule;
    try {
      created = await this.deps.book.create(input.actor, 'bulk', input.message, { media, adjust: ticketOfSigner });
    } catch (err) {
      if (media) await this.deps.media.remove(media).catch(() => undefined);
      throw err;
    }
    return this.deps.announcer.scheduledMessageChanged('create', created);
  }
}

/** `PUT /schedules-message/:id`: admins edit any, users their own; a file replaces the attachment; emits `scheduledMessage`. */
export class UpdateScheduledMessage {
  constructor(private readonly deps: ScheduledMessageDeps) {}

  async execute(input: {
    readonly actor: Actor;
    readonly scheduleId: number;
    readonly message: ScheduleInput;
    readonly file?: UploadedFile;
  }): Promise<ScheduledMessageView> {
    assertMayChange(input.actor, await this.deps.book.find(input.actor, input.scheduleId, 'bulk'));
    const media = input.file ? await this.deps.media.store(input.actor.companyId, input.file) : undefined;
    let after: Schedule;
    try {
      ({ after } = await this.deps.book.update(input.actor, 'bulk', input.scheduleId, input.message, {
        ...(media ? { media } : {}),
        adjust: ticketOfSigner,
      }));
    } catch (err) {
      if (media) await this.deps.media.remove(media).catch(() => undefined);
      throw err;
    }
    return this.deps.announcer.scheduledMessageChanged('update', after);
  }
}

/** `DELETE /schedules-message/:id`: admins delete any, users their own; emits `scheduledMessage` (action `delete`). */
export class DeleteScheduledMessage {
  constructor(private readonly deps: Omit<ScheduledMessageDeps, 'media'>) {}

  async execute(input: { readonly actor: Actor; readonly scheduleId: number }): Promise<void> {
    const removed = await this.deps.book.delete(input.actor, 'bulk', input.scheduleId);
    if (removed) await this.deps.announcer.removed(removed);
  }
}
