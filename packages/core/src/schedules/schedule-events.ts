import type { RealtimeEventOf } from '../realtime/ports.js';
import type { ScheduleView } from './schedule-view.js';

/**
 * `company-<id>-schedule`: the lineage's frame for contact schedules (its Schedules page listens
 * for it), after a create, an edit, a new attachment, and every occurrence that is sent, fails or
 * is missed (the status, `sendAt` and `contadorEnvio` move on). Scheduled messages (bulk) have none,
 * as in the lineage.
 */
export type ScheduleEvent = RealtimeEventOf<
  'schedule',
  | { readonly action: 'create'; readonly schedule: ScheduleView }
  | { readonly action: 'update'; readonly schedule: ScheduleView }
  | { readonly action: 'delete'; readonly scheduleId: number }
>;
