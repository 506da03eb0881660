import { aiAgentRoutes, flowRoutes, SafeFlowHttp } from '@servicedesk/adapters-http';
import { FEATURE_TABLES, flowsRepositories } from '@servicedesk/adapters-persistence';
import { createFlows, type FlowsApi } from '@servicedesk/core/compose/flows';
import { feature, type Feature } from './feature.js';

/**
 * Flows (`/flows`): the flow builder's drafts and immutable published versions, the step engine's
 * simulation, the AI-agent helpers of its editor (through the prompts' chat model and their
 * allow-list of models), and runs: stored in `flow_runs`, started by the routing engine's triggers
 * or `execute`, their timers and calls one-off jobs (`flows.timer`, `flows.call`), so a restarted
 * backend carries on where the database says. HTTP nodes follow the SSRF rules (ALLOW_PRIVATE_URLS).
 */
export const flows: Feature<object, { flows: FlowsApi }> = feature({
  name: 'flows',
  ...FEATURE_TABLES.flows,
  ports: ({ infra, config }) => ({ ...flowsRepositories(infra.db.orm), flowHttp: new SafeFlowHttp({ allowPrivate: config.allowPrivateUrls }) }),
  api: (ports) => ({ flows: createFlows(ports) }),
  routes: (app) => [...flowRoutes(app), ...aiAgentRoutes(app)],
  jobs: (app) => app.flows.jobs(),
});
