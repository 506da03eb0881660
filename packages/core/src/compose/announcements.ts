import { PublishAnnouncementWindow } from '../announcements/announcement-window.js';
import { AnnouncementBroadcast } from '../announcements/broadcast.js';
import { announcementJobs } from '../announcements/jobs.js';
import {
  CreateAnnouncement,
  DeleteAnnouncement,
  ListAllAnnouncements,
  ListAnnouncements,
  RemoveAnnouncementMedia,
  SetAnnouncementMedia,
  ShowAnnouncement,
  UpdateAnnouncement,
} from '../announcements/manage-announcements.js';
import type { AnnouncementAudience, Announcements } from '../announcements/ports.js';
import type { SharedPorts } from './shared-ports.js';

/** The announcements' own ports. */
export interface AnnouncementPorts {
  readonly announcements: Announcements;
  /** Which companies exist, are active or have super users (the companies' and users' tables). */
  readonly announcementAudience: AnnouncementAudience;
}

/** Platform announcements: super users write them, every targeted company's users read them. */
export function createAnnouncements(p: AnnouncementPorts & SharedPorts) {
  const { announcements, announcementAudience: audience, blobs, jobQueue, realtime, tx, clock, ids } = p;
  const broadcast = new AnnouncementBroadcast({ audience, realtime, mediaUrl: (key) => blobs.publicUrl(key) });
  const reads = { announcements, blobs, clock };
  const writes = { ...reads, audience, broadcast, jobQueue, tx, ids };
  const publishAnnouncementWindow = new PublishAnnouncementWindow({ announcements, broadcast, clock });
  return {
    listAnnouncements: new ListAnnouncements(reads),
    listAllAnnouncements: new ListAllAnnouncements({ ...reads, companies: p.companies }),
    showAnnouncement: new ShowAnnouncement(reads),
    createAnnouncement: new CreateAnnouncement(writes),
    updateAnnouncement: new UpdateAnnouncement(writes),
    deleteAnnouncement: new DeleteAnnouncement(writes),
    setAnnouncementMedia: new SetAnnouncementMedia(writes),
    removeAnnouncementMedia: new RemoveAnnouncementMedia(writes),
    /** The window job's use case: users are told when an announcement starts or stops being shown. */
    publishAnnouncementWindow,
    jobs: () => announcementJobs({ publishAnnouncementWindow }),
  };
}
export type AnnouncementsApi = ReturnType<typeof createAnnouncements>;
