import { PlanGuard } from '../tenancy/plan-guard.js';
import { companyTimeZone } from '../settings/company-time-zone.js';
import { TicketPresenter } from '../tickets/ticket-details.js';
import { messageContexts } from '../conversations/message-context.js';
import { EnsureOccurrenceJobs, scheduleJobs } from '../schedules/jobs.js';
import {
  CreateSchedule,
  DeleteSchedule,
  ListSchedules,
  RemoveScheduleMedia,
  SetScheduleMedia,
  ShowSchedule,
  UpdateSchedule,
} from '../schedules/manage-schedules.js';
import {
  CreateScheduledMessage,
  DeleteScheduledMessage,
  ListScheduledMessages,
  ShowScheduledMessage,
  UpdateScheduledMessage,
} from '../schedules/manage-scheduled-messages.js';
import type { ScheduleDeliveries, ScheduleOccurrences, Schedules } from '../schedules/ports.js';
import { DEFAULT_SCHEDULE_POLICY, RunScheduleOccurrence, type SchedulePolicy } from '../schedules/run-occurrence.js';
import { OccurrenceDelivery } from '../schedules/occurrence-delivery.js';
import { ScheduleAnnouncer } from '../schedules/schedule-announcer.js';
import { ScheduleBook } from '../schedules/schedule-book.js';
import { ScheduleInputs } from '../schedules/schedule-input.js';
import { ScheduleMediaStore } from '../schedules/schedule-media.js';
import { ScheduleSeries } from '../schedules/schedule-series.js';
import { ScheduleViews } from '../schedules/schedule-view.js';
import { ScheduleContent } from './schedule-content.js';
import { OutboundScheduleSender } from './schedule-sender.js';
import { ScheduleTicket } from './schedule-ticket.js';
import { sendPath } from './messaging.js';
import type { SharedPorts } from './shared-ports.js';
import { ConversationAnnouncer } from '../tickets/conversation-announcer.js';

/** The schedules' own ports (their tables) and their timing. */
export interface SchedulePorts {
  readonly schedules: Schedules;
  readonly scheduleOccurrences: ScheduleOccurrences;
  readonly scheduleDeliveries: ScheduleDeliveries;
  /** When occurrences count as missed, the gap between a scheduled message's recipients, the tries of a down session. */
  readonly schedulePolicy?: SchedulePolicy;
}

/**
 * Schedules (`/schedules`, one contact) and scheduled messages (`/schedules-message`, bulk): their
 * routes' use cases, the run of each occurrence (a one-off job per occurrence, through the one send
 * path) and the safety net that gives every open occurrence its job.
 */
export function createSchedules(p: SchedulePorts & SharedPorts) {
  const { schedules, scheduleOccurrences: occurrences, scheduleDeliveries: deliveries, contacts, users, connections, queues, tags, realtime, clock } = p;
  const plan = new PlanGuard({ companies: p.companies, plans: p.plans });
  const policy = p.schedulePolicy ?? DEFAULT_SCHEDULE_POLICY;
  const timeZone = (companyId: number) => companyTimeZone(p.settings, companyId);
  const views = new ScheduleViews({ contacts, users, connections, queues });
  const { outbound } = sendPath(p);
  const presenter = new TicketPresenter({ contacts, connections, users, realtime, tags, queues });
  const contexts = messageContexts({ tickets: p.tickets, contacts, queues, messages: p.messages });
  const media = new ScheduleMediaStore({ blobs: p.blobs, ids: p.ids });
  const sender = new OutboundScheduleSender({
    connections,
    contacts,
    outbound,
    clock,
    ticket: new ScheduleTicket({
      tickets: p.tickets,
      ids: p.ids,
      clock,
      tx: p.tx,
      announcer: new ConversationAnnouncer({ presenter, realtime, contexts }),
      tracking: p.ticketTracking,
    }),
    content: new ScheduleContent({ users, queues, companies: p.companies, media, timeZone }),
  });
  const book = new ScheduleBook({
    schedules,
    occurrences,
    plan,
    inputs: new ScheduleInputs({ contacts, connections, users, queues, tags, timeZone }),
    media,
    jobQueue: p.jobQueue,
    tx: p.tx,
    clock,
  });
  const announcer = new ScheduleAnnouncer({ views, realtime });
  const contactDeps = { book, announcer };
  const bulkDeps = { book, media, announcer };
  const series = new ScheduleSeries({ schedules, occurrences, jobQueue: p.jobQueue, clock, tx: p.tx, timeZone, announcer });
  const delivery = new OccurrenceDelivery({ occurrences, deliveries, sender, jobQueue: p.jobQueue, series, policy });
  const run = new RunScheduleOccurrence({ schedules, occurrences, contacts, sender, clock, series, delivery, policy });
  const ensure = new EnsureOccurrenceJobs({ occurrences, jobQueue: p.jobQueue, clock });
  return {
    listSchedules: new ListSchedules({ schedules, plan, views }),
    showSchedule: new ShowSchedule({ schedules, occurrences, plan, views }),
    createSchedule: new CreateSchedule(contactDeps),
    updateSchedule: new UpdateSchedule(contactDeps),
    deleteSchedule: new DeleteSchedule(contactDeps),
    setScheduleMedia: new SetScheduleMedia(contactDeps),
    removeScheduleMedia: new RemoveScheduleMedia(contactDeps),
    listScheduledMessages: new ListScheduledMessages({ schedules, plan }),
    showScheduledMessage: new ShowScheduledMessage({ schedules, occurrences, plan }),
    createScheduledMessage: new CreateScheduledMessage(bulkDeps),
    updateScheduledMessage: new UpdateScheduledMessage(bulkDeps),
    deleteScheduledMessage: new DeleteScheduledMessage(bulkDeps),
    /** One run of an occurrence's job (the `schedules.send` handler). */
    runOccurrence: run,
    /** The safety net (`schedules.ensure-jobs`). */
    ensureOccurrenceJobs: ensure,
    /** The one-off send job and the recurring safety net. */
    jobs: () => scheduleJobs({ run, ensure, policy }),
  };
}
export type SchedulesApi = ReturnType<typeof createSchedules>;
