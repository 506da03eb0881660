import type { RealtimeEventOf } from '../realtime/ports.js';
import type { ScheduledMessageView, ScheduleView } from './schedule-view.js';

/**
 * `company-<id>-schedule`: the lineage's frame for contact schedules (its Schedules page listens
 * for it), after a create, an edit, a new attachment, and every occurrence that is sent, fails or
 * is missed (the status, `sendAt` and `contadorEnvio` move on). Scheduled messages (bulk) have
 * their own frame, below.
 */
export type ScheduleEvent = RealtimeEventOf<
  'schedule',
  | { readonly action: 'create'; readonly schedule: ScheduleView }
  | { readonly action: 'update'; readonly schedule: ScheduleView }
  | { readonly action: 'delete'; readonly scheduleId: number }
>;

/**
 * `company-<id>-scheduledMessage`: a scheduled message (bulk) as `/schedules-message` shows it, after
 * a create, an edit (a new file included), and every occurrence that is sent, fails or is missed
 * (`status`, `data_mensagem_programada` and `contadorEnvio` move on); the lineage had none, its page
 * read the list again. Its occurrences' counts are read with `GET /schedules-message/:id`.
 */
export type ScheduledMessageEvent = RealtimeEventOf<
  'scheduledMessage',
  | { readonly action: 'create'; readonly scheduledMessage: ScheduledMessageView }
  | { readonly action: 'update'; readonly scheduledMessage: ScheduledMessageView }
  | { readonly action: 'delete'; readonly scheduleId: number }
>;
