import type { RealtimeEvents } from '../realtime/ports.js';
import type { Schedule } from './schedule.js';
import type { ScheduledMessageEvent, ScheduleEvent } from './schedule-events.js';
import { scheduledMessageView, type ScheduledMessageView, type ScheduleView, type ScheduleViews } from './schedule-view.js';

/**
 * Tells a company's operators of its schedules' changes: a contact schedule as the `schedule`
 * frame, a scheduled message (bulk) as the `scheduledMessage` frame, each with the view its
 * routes answer.
 */
export class ScheduleAnnouncer {
  constructor(private readonly deps: { views: ScheduleViews; realtime: RealtimeEvents<ScheduleEvent | ScheduledMessageEvent> }) {}

  /** A contact schedule created or edited; answers its view. */
  async scheduleChanged(action: 'create' | 'update', schedule: Schedule): Promise<ScheduleView> {
    const view = await this.deps.views.view(schedule);
    await this.publish(schedule.companyId, { entity: 'schedule', data: { action, schedule: view } });
    return view;
  }

  /** A scheduled message created or edited; answers its view. */
  async scheduledMessageChanged(action: 'create' | 'update', schedule: Schedule): Promise<ScheduledMessageView> {
    const view = scheduledMessageView(schedule);
    await this.publish(schedule.companyId, { entity: 'scheduledMessage', data: { action, scheduledMessage: view } });
    return view;
  }

  /** A schedule of either kind deleted. */
  async removed(schedule: Schedule): Promise<void> {
    const data = { action: 'delete', scheduleId: schedule.id } as const;
    await this.publish(schedule.companyId, schedule.kind === 'contact' ? { entity: 'schedule', data } : { entity: 'scheduledMessage', data });
  }

  /** An occurrence of a schedule of either kind settled (its status, moment and counts moved on). */
  async progressed(schedule: Schedule): Promise<void> {
    if (schedule.kind !== 'contact') await this.scheduledMessageChanged('update', schedule);
    else await this.scheduleChanged('update', schedule);
  }

  private async publish(companyId: number, event: ScheduleEvent | ScheduledMessageEvent): Promise<void> {
    await this.deps.realtime.publish(companyId, event);
  }
}
