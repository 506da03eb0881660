import { bizchatRoutes, GraphTemplateDirectory } from '@servicedesk/adapters-http';
import { createBizchat, type BizchatApi } from '@servicedesk/core/compose/bizchat';
import { feature, type Feature } from './feature.js';
import { PERSISTENCE_FEATURES, tablesOf } from '@servicedesk/adapters-persistence/features';

/**
 * The business channel (bizchat, the WhatsApp Business Cloud API): its templates read from the
 * provider (`META_GRAPH_URL`) and stored per connection, the template send, and the 24-hour window
 * every free-form send checks (`serviceWindows`). Its webhook deliveries arrive on `/webhook/`.
 */
export const bizchat: Feature<object, { bizchat: BizchatApi }> = feature({
  name: 'bizchat',
  ...tablesOf(PERSISTENCE_FEATURES.bizchat),
  ports: ({ infra, config }) => ({
    ...PERSISTENCE_FEATURES.bizchat.repositories(infra.db.orm),
    templateDirectory: new GraphTemplateDirectory({ baseUrl: config.graphApiUrl }),
  }),
  api: (ports) => ({ bizchat: createBizchat(ports) }),
  routes: (app) => bizchatRoutes(app),
});
