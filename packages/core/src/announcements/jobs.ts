import type { JobDefinition } from '../jobs/job.js';
import { ANNOUNCEMENT_WINDOW_JOB, type AnnouncementWindowPayload, type PublishAnnouncementWindow } from './announcement-window.js';

/**
 * The announcements' background work: a one-off job at each edge of a window, planned by the
 * writes. It only publishes frames (no database write), so it runs outside a transaction; a run
 * repeated after a lost lease publishes the same frames again, which clients apply idempotently.
 */
export function announcementJobs(api: { readonly publishAnnouncementWindow: PublishAnnouncementWindow }): JobDefinition<any>[] {
  const edge: JobDefinition<AnnouncementWindowPayload> = {
    name: ANNOUNCEMENT_WINDOW_JOB,
    atomic: false,
    leaseMs: 120_000,
    run: async (ctx) => {
      await api.publishAnnouncementWindow.execute({ announcementId: ctx.payload.announcementId, dueAt: ctx.runAt });
    },
  };
  return [edge];
}
