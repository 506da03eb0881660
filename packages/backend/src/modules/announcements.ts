import { announcementRoutes } from '@servicedesk/adapters-http';
import { createAnnouncements, type AnnouncementsApi } from '@servicedesk/core/compose/announcements';
import { feature, type Feature } from './feature.js';
import { PERSISTENCE_FEATURES, tablesOf } from '@servicedesk/adapters-persistence/features';

/**
 * Platform announcements: super users write them, every targeted company's users read them, and
 * frames go to each company concerned. A one-off job at each edge of an announcement's window
 * tells the users when it starts or stops being shown.
 */
export const announcements: Feature<object, { announcements: AnnouncementsApi }> = feature({
  name: 'announcements',
  ...tablesOf(PERSISTENCE_FEATURES.announcements),
  ports: ({ infra }) => PERSISTENCE_FEATURES.announcements.repositories(infra.db.orm),
  api: (ports) => ({ announcements: createAnnouncements(ports) }),
  routes: (app) => announcementRoutes(app),
  jobs: (app) => app.announcements.jobs(),
});
