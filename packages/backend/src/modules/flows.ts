import { aiAgentRoutes, flowRoutes, SafeFlowHttp } from '@servicedesk/adapters-http';
import { createFlows, type FlowsApi } from '@servicedesk/core/compose/flows';
import { feature, type Feature } from './feature.js';
import { PERSISTENCE_FEATURES, tablesOf } from '@servicedesk/adapters-persistence/features';

/**
 * Flows (`/flows`): the flow builder's drafts and immutable published versions, the step engine's
 * simulation, the AI-agent helpers of its editor (through the prompts' chat model and their
 * allow-list of models), and runs: stored in `flow_runs`, started by the routing engine's triggers
 * or `execute`, their timers and calls one-off jobs (`flows.timer`, `flows.call`), so a restarted
 * backend carries on where the database says. HTTP nodes follow the SSRF rules (ALLOW_PRIVATE_URLS).
 */
export const flows: Feature<object, { flows: FlowsApi }> = feature({
  name: 'flows',
  ...tablesOf(PERSISTENCE_FEATURES.flows),
  ports: ({ infra, config }) => ({
    ...PERSISTENCE_FEATURES.flows.repositories(infra.db.orm),
    flowHttp: new SafeFlowHttp({ allowPrivate: config.allowPrivateUrls }),
  }),
  api: (ports) => ({ flows: createFlows(ports) }),
  routes: (app) => [...flowRoutes(app), ...aiAgentRoutes(app)],
  jobs: (app) => app.flows.jobs(),
});
