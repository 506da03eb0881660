import { aiAgentRoutes, flowRoutes } from '@servicedesk/adapters-http';
import { FEATURE_TABLES, flowsRepositories } from '@servicedesk/adapters-persistence';
import { createFlows, type FlowsApi } from '@servicedesk/core/compose/flows';
import { feature, type Feature } from './feature.js';

/**
 * Flows (`/flows`): the flow builder's drafts and immutable published versions, the step engine's
 * simulation, and the AI-agent helpers of its editor (through the prompts' chat model and their
 * allow-list of models). Runs of published flows are not started here yet.
 */
export const flows: Feature<object, { flows: FlowsApi }> = feature({
  name: 'flows',
  ...FEATURE_TABLES.flows,
  ports: ({ infra }) => flowsRepositories(infra.db.orm),
  api: (ports) => ({ flows: createFlows(ports) }),
  routes: (app) => [...flowRoutes(app), ...aiAgentRoutes(app)],
});
