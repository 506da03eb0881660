import type { RealtimeEventOf } from '../realtime/ports.js';
import type { QueueWithUsers } from './queue-announcer.js';
import type { QueueIntegrationView } from './queue-integration.js';

/** `company-<id>-queue`: a queue was created or changed (both `update`, the lineage's), or removed. */
export type QueueEvent = RealtimeEventOf<
  'queue',
  { readonly action: 'update'; readonly queue: QueueWithUsers } | { readonly action: 'delete'; readonly queueId: number }
>;

/** `company-<id>-queueIntegration`: an integration was created, changed or removed. */
export type QueueIntegrationEvent = RealtimeEventOf<
  'queueIntegration',
  | { readonly action: 'create'; readonly queueIntegration: QueueIntegrationView }
  | { readonly action: 'update'; readonly queueIntegration: QueueIntegrationView }
  | { readonly action: 'delete'; readonly integrationId: number }
>;
