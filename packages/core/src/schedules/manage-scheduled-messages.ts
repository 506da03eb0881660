import type { RealtimeEvents } from '../realtime/ports.js';
import type { Actor } from '../shared/actor.js';
import { hasMore, pageFromNumber } from '../shared/paging.js';
import type { UploadedFile } from '../uploads/image-upload.js';
import type { ScheduleOccurrences, Schedules } from './ports.js';
import type { Schedule } from './schedule.js';
import {
  assertMayChange,
  createSchedule,
  deleteSchedule,
  findSchedule,
  storeScheduleMedia,
  updateSchedule,
  type BookDeps,
  type SchedulePlan,
} from './schedule-book.js';
import type { ScheduledMessageEvent } from './schedule-events.js';
import type { ScheduleInput } from './schedule-input.js';
import { SHOWN_OCCURRENCES } from './manage-schedules.js';
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

export interface ScheduledMessageDeps extends BookDeps {
  readonly realtime: RealtimeEvents<ScheduledMessageEvent>;
}

async function publish(deps: ScheduledMessageDeps, action: 'create' | 'update', schedule: Schedule): Promise<ScheduledMessageView> {
  const view = scheduledMessageView(schedule);
  await deps.realtime.publish(schedule.companyId, { entity: 'scheduledMessage', data: { action, scheduledMessage: view } });
  return view;
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
    const media = input.file ? await storeScheduleMedia(this.deps, input.actor.companyId, input.file) : null;
    let created: Schedule;
    try {
      created = await createSchedule(this.deps, input.actor, 'bulk', input.message, { media, adjust: ticketOfSigner });
    } catch (err) {
      if (media) await this.deps.blobs.delete(media.path).catch(() => undefined);
      throw err;
    }
    return publish(this.deps, 'create', created);
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
    assertMayChange(input.actor, await findSchedule(this.deps, input.actor, input.scheduleId, 'bulk'));
    const media = input.file ? await storeScheduleMedia(this.deps, input.actor.companyId, input.file) : undefined;
    let after: Schedule;
    try {
      ({ after } = await updateSchedule(this.deps, input.actor, 'bulk', input.scheduleId, input.message, {
        ...(media ? { media } : {}),
        adjust: ticketOfSigner,
      }));
    } catch (err) {
      if (media) await this.deps.blobs.delete(media.path).catch(() => undefined);
      throw err;
    }
    return publish(this.deps, 'update', after);
  }
}

/** `DELETE /schedules-message/:id`: admins delete any, users their own; emits `scheduledMessage` (action `delete`). */
export class DeleteScheduledMessage {
  constructor(private readonly deps: ScheduledMessageDeps) {}

  async execute(input: { readonly actor: Actor; readonly scheduleId: number }): Promise<void> {
    const removed = await deleteSchedule(this.deps, input.actor, 'bulk', input.scheduleId);
    if (removed) await this.deps.realtime.publish(removed.companyId, { entity: 'scheduledMessage', data: { action: 'delete', scheduleId: removed.id } });
  }
}
