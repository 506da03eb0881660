import { settingRoutes } from '@servicedesk/adapters-http';
import { settingsRepositories } from '@servicedesk/adapters-persistence';
import { createSettings, type SettingsApi } from '@servicedesk/core';
import { feature, type Feature } from './feature.js';

/** Company and platform settings. */
export const settings: Feature<object, { settings: SettingsApi }> = feature({
  name: 'settings',
  ports: ({ infra }) => settingsRepositories(infra.db.orm),
  api: (ports) => ({ settings: createSettings(ports) }),
  routes: (app) => settingRoutes(app),
});
