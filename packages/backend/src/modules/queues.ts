import { queueIntegrationRoutes, queueOptionRoutes, queueRoutes } from '@servicedesk/adapters-http';
import { createQueues, INTEGRATION_DELIVER_SUBJECTS, type IntegrationDeliver, type QueuesApi } from '@servicedesk/core';
import { feature, type Feature } from './feature.js';
import { PERSISTENCE_FEATURES } from '@servicedesk/adapters-persistence/features';

/** Queues, their menus and chatbots, queue integrations and the job-queue health. */
export const queues: Feature<object, { queues: QueuesApi }> = feature({
  name: 'queues',
  ports: ({ infra }) =>
    PERSISTENCE_FEATURES.queues.repositories(infra.db.orm, {
      ...(infra.brokerConnected ? { brokerConnected: infra.brokerConnected } : {}),
      ...(infra.cacheConnected ? { cacheConnected: infra.cacheConnected } : {}),
    }),
  api: (ports) => ({ queues: createQueues(ports) }),
  routes: (app) => [...queueRoutes(app), ...queueOptionRoutes(app), ...queueIntegrationRoutes(app)],
  // The backend consumes its own deliveries, written to the outbox by the inbound path.
  consumers: (app, { config, log }) => [
    {
      durable: 'backend-integration-deliveries',
      subject: INTEGRATION_DELIVER_SUBJECTS,
      handle: async (envelope) => {
        const outcome = await app.queues.deliverIntegrationEvent.execute(envelope.payload as IntegrationDeliver);
        if (outcome !== 'delivered') log.warn({ outcome, subject: envelope.subject }, 'queue integration delivery not accepted');
      },
      options: { maxDeliver: config.integrationMaxDeliver, retryDelayMs: config.integrationRetryDelayMs },
    },
  ],
});
