import { dashboardRoutes } from '@servicedesk/adapters-http/dashboards/dashboard-routes';
import { createDashboards, type DashboardsApi } from '@servicedesk/core/compose/dashboards';
import { feature, type Feature } from './feature.js';
import { PERSISTENCE_FEATURES } from '@servicedesk/adapters-persistence/features';

/**
 * Dashboards and reports: the figures pre-aggregated per day, queue and operator from the
 * attendance cycles that every ticket change writes (their tables come with the released history,
 * m0020), the `dashboards.refresh` job that keeps them fresh, the cached answers, the attendance
 * panel and the contacts report. How long answers are cached and how often the job runs come from
 * the configuration.
 */
export const dashboards: Feature<object, { dashboards: DashboardsApi }> = feature({
  name: 'dashboards',
  ports: ({ infra, config }) => ({
    ...PERSISTENCE_FEATURES.dashboards.repositories(infra.db.orm),
    dashboardCacheSeconds: config.dashboards.cacheSeconds,
    dashboardRefreshEveryMs: config.dashboards.refreshEveryMs,
  }),
  api: (ports) => ({ dashboards: createDashboards(ports) }),
  routes: (app) => dashboardRoutes(app),
  jobs: (app) => app.dashboards.jobs(),
});
