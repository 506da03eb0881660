import { settingRoutes } from '@servicedesk/adapters-http';
import { createSettings, type SettingsApi } from '@servicedesk/core';
import { feature, type Feature } from './feature.js';
import { PERSISTENCE_FEATURES } from '@servicedesk/adapters-persistence/features';

/** Company and platform settings. */
export const settings: Feature<object, { settings: SettingsApi }> = feature({
  name: 'settings',
  ports: ({ infra }) => PERSISTENCE_FEATURES.settings.repositories(infra.db.orm),
  api: (ports) => ({ settings: createSettings(ports) }),
  routes: (app) => settingRoutes(app),
});
