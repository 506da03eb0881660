import { scheduleRoutes } from '@servicedesk/adapters-http/schedules/schedule-routes';
import { createSchedules, type SchedulesApi } from '@servicedesk/core/compose/schedules';
import { DEFAULT_SCHEDULE_POLICY } from '@servicedesk/core/schedules/run-occurrence';
import { feature, type Feature } from './feature.js';
import { PERSISTENCE_FEATURES, tablesOf } from '@servicedesk/adapters-persistence/features';

/**
 * Schedules (`/schedules`, one contact) and scheduled messages (`/schedules-message`, bulk): their
 * tables, routes, and jobs — a one-off `schedules.send` job per occurrence (its writes, the message
 * and its send command among them, commit with the job's completion) and the `schedules.ensure-jobs`
 * safety net. How late a send may be and the pause between bulk recipients come from the configuration.
 */
export const schedules: Feature<object, { schedules: SchedulesApi }> = feature({
  name: 'schedules',
  ...tablesOf(PERSISTENCE_FEATURES.schedules),
  ports: ({ infra, config }) => ({
    ...PERSISTENCE_FEATURES.schedules.repositories(infra.db.orm),
    schedulePolicy: { ...DEFAULT_SCHEDULE_POLICY, missedAfterMs: config.schedules.missedAfterMs, recipientGapMs: config.schedules.recipientGapMs },
  }),
  api: (ports) => ({ schedules: createSchedules(ports) }),
  routes: (app) => scheduleRoutes(app),
  jobs: (app) => app.schedules.jobs(),
});
