import type { Jobs } from '../jobs/jobs.js';
import type { Clock } from '../shared/ports.js';
import type { Announcement } from './announcement.js';
import type { AnnouncementBroadcast } from './broadcast.js';
import type { Announcements } from './ports.js';

/** The one-off job run when an announcement's window opens or closes. */
export const ANNOUNCEMENT_WINDOW_JOB = 'announcements.window';

export interface AnnouncementWindowPayload {
  readonly announcementId: number;
}

const EDGES = ['startsAt', 'endsAt'] as const;
const keyOf = (id: number, edge: (typeof EDGES)[number]) => `announcement:${id}:${edge}`;

/**
 * Plans a job at each edge of the window still ahead (and drops those planned before), so that
 * users are told when it starts or stops being shown. Call it inside the write's transaction.
 */
export async function planWindowEdges(jobQueue: Jobs, a: Announcement, now: Date): Promise<void> {
  for (const edge of EDGES) {
    await jobQueue.cancel(ANNOUNCEMENT_WINDOW_JOB, keyOf(a.id, edge));
    const at = a[edge];
    if (a.status && at && at.getTime() > now.getTime()) {
      await jobQueue.enqueue<AnnouncementWindowPayload>({ name: ANNOUNCEMENT_WINDOW_JOB, at, key: keyOf(a.id, edge), payload: { announcementId: a.id } });
    }
  }
}

export async function dropWindowEdges(jobQueue: Jobs, id: number): Promise<void> {
  for (const edge of EDGES) await jobQueue.cancel(ANNOUNCEMENT_WINDOW_JOB, keyOf(id, edge));
}

/**
 * The window job: publishes the announcement to its companies' users as it now stands (shown:
 * `update`; no longer shown: `delete`). Judged at the later of now and the edge's moment, so a
 * clock a little behind the database's does not see the window still closed.
 */
export class PublishAnnouncementWindow {
  constructor(private readonly deps: { announcements: Announcements; broadcast: AnnouncementBroadcast; clock: Clock }) {}

  async execute(input: AnnouncementWindowPayload & { readonly dueAt: Date }): Promise<void> {
    const a = await this.deps.announcements.findById(input.announcementId);
    if (!a) return;
    const now = this.deps.clock.now();
    await this.deps.broadcast.windowMoved(a, now.getTime() >= input.dueAt.getTime() ? now : input.dueAt);
  }
}
