import type { Application } from '@servicedesk/core';
import { z } from 'zod';
import { route } from '../http/route.js';
import { id, idParam, pagedQuery } from '../http/schemas.js';

const credential = z.string().max(2048).nullable();
/** Types only: the use cases check names, types, URLs and credentials and answer with their own codes. */
const integrationBody = z.object({
  name: z.string().max(500),
  type: z.string().max(40),
  url: z.string().max(4096),
  token: credential,
  secret: credential,
  config: z.record(z.string().max(200), z.unknown()).nullable(),
}).partial();

/**
 * Queue integrations (HTTP bots attached to queues): admins only, and only on plans with the
 * `integrations` feature. Credentials are write-only. `testsession` calls a stored integration
 * (`integrationId`) or the fields being edited with a `test` event and answers the status.
 */
export function queueIntegrationRoutes(app: Application) {
  const tag = 'Queues, tags, chatbots, campaigns';
  const byId = idParam('integrationId');
  const feature = 'integrations' as const;
  return [
    route({
      method: 'GET', path: '/queueIntegration', auth: 'isAuth', tag, feature, summary: 'Page through the queue integrations found by name (admin)',
      query: pagedQuery,
      handler: async ({ actor, query }) => app.listQueueIntegrations.execute({ actor, ...query }),
    }),
    route({
      method: 'POST', path: '/queueIntegration/testsession', auth: 'isAuth', tag, feature,
      summary: 'Call an integration with a test event and answer its status (admin)',
      body: integrationBody.extend({ integrationId: id.optional() }),
      handler: async ({ actor, body }) => app.testQueueIntegration.execute({ actor, ...body }),
    }),
    route({
      method: 'POST', path: '/queueIntegration', auth: 'isAuth', tag, feature, summary: 'Create a queue integration (admin; 409 for a name in use)', status: 201,
      body: integrationBody.required({ name: true, type: true, url: true }),
      handler: async ({ actor, body }) => app.createQueueIntegration.execute({ actor, ...body }),
    }),
    route({
      method: 'GET', path: '/queueIntegration/:integrationId', auth: 'isAuth', tag, feature, summary: 'Show a queue integration (admin)', params: byId,
      handler: async ({ actor, params }) => app.showQueueIntegration.execute({ actor, integrationId: params.integrationId }),
    }),
    route({
      method: 'PUT', path: '/queueIntegration/:integrationId', auth: 'isAuth', tag, feature,
      summary: 'Update a queue integration; `token`/`secret` null removes them (admin)', params: byId, body: integrationBody,
      handler: async ({ actor, params, body }) => app.updateQueueIntegration.execute({ actor, integrationId: params.integrationId, ...body }),
    }),
    route({
      method: 'DELETE', path: '/queueIntegration/:integrationId', auth: 'isAuth', tag, feature,
      summary: 'Delete a queue integration; its queues keep going without it (admin)', params: byId,
      handler: async ({ actor, params }) => {
        await app.deleteQueueIntegration.execute({ actor, integrationId: params.integrationId });
        return { message: 'Integration deleted' };
      },
    }),
  ];
}
