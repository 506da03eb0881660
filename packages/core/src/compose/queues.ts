import { PlanGuard } from '../tenancy/plan-guard.js';
import { CreateChatbot, DeleteChatbot, ListChatbots, ShowChatbot, UpdateChatbot } from '../queues/chatbots.js';
import { DeliverIntegrationEvent } from '../conversations/deliver-integration-event.js';
import {
  CreateQueueIntegration,
  DeleteQueueIntegration,
  ListQueueIntegrations,
  ShowQueueIntegration,
  TestQueueIntegration,
  UpdateQueueIntegration,
} from '../queues/manage-queue-integrations.js';
import { CreateQueue, DeleteQueue, ListMyQueues, ListQueues, ShowQueue, UpdateQueue } from '../queues/manage-queues.js';
import { QueueAnnouncer } from '../queues/queue-announcer.js';
import { QueueLinks } from '../queues/queue-links.js';
import type { ConversationIntegrations, JobQueueHealth, QueueIntegrations, QueueOptions, Queues } from '../queues/ports.js';
import { CreateQueueOption, DeleteQueueOption, ListQueueOptions, ShowQueueOption, UpdateQueueOption } from '../queues/queue-options.js';
import { ShowJobQueueHealth } from '../queues/show-job-queue-health.js';
import type { SharedPorts } from './shared-ports.js';

/** The ports of queues, their menus and integrations, beyond those every part shares. */
export interface QueuePorts {
  readonly queues: Queues;
  readonly queueOptions: QueueOptions;
  readonly queueIntegrations: QueueIntegrations;
  /** The HTTP side of queue integrations. */
  readonly conversationIntegrations: ConversationIntegrations;
  readonly jobHealth: JobQueueHealth;
}

/** Queues, queue options, chatbots, queue integrations and the job-queue health. The routing engine is wired with messaging. */
export function createQueues(p: QueuePorts & SharedPorts) {
  const { queues, queueOptions: options, queueIntegrations: integrations, conversationIntegrations: conversations, users, realtime, tx, clock, ids } = p;
  const planGuard = new PlanGuard({ companies: p.companies, plans: p.plans });
  const announcer = new QueueAnnouncer({ queues, users, options, realtime });
  const writes = { queues, options, users, links: new QueueLinks({ integrations, planGuard, prompts: p.prompts }), tx, clock, announcer };
  const tree = { queues, options, users, clock };
  return {
    listQueues: new ListQueues({ queues, users, options }),
    listMyQueues: new ListMyQueues({ queues }),
    showQueue: new ShowQueue({ queues, users, options }),
    createQueue: new CreateQueue({ ...writes, planGuard }),
    updateQueue: new UpdateQueue(writes),
    deleteQueue: new DeleteQueue({ queues, announcer }),
    listQueueOptions: new ListQueueOptions({ options }),
    showQueueOption: new ShowQueueOption({ options }),
    createQueueOption: new CreateQueueOption(tree),
    updateQueueOption: new UpdateQueueOption(tree),
    deleteQueueOption: new DeleteQueueOption({ options }),
    listChatbots: new ListChatbots({ options }),
    showChatbot: new ShowChatbot({ options }),
    createChatbot: new CreateChatbot({ ...tree, tx }),
    updateChatbot: new UpdateChatbot({ ...tree, tx }),
    deleteChatbot: new DeleteChatbot({ options }),
    listQueueIntegrations: new ListQueueIntegrations({ integrations }),
    showQueueIntegration: new ShowQueueIntegration({ integrations }),
    createQueueIntegration: new CreateQueueIntegration({ integrations, clock, realtime }),
    updateQueueIntegration: new UpdateQueueIntegration({ integrations, clock, realtime }),
    deleteQueueIntegration: new DeleteQueueIntegration({ integrations, realtime }),
    testQueueIntegration: new TestQueueIntegration({ integrations, conversations, clock, ids }),
    deliverIntegrationEvent: new DeliverIntegrationEvent({ integrations, conversations, planGuard }),
    jobQueueHealth: new ShowJobQueueHealth({ health: p.jobHealth, jobs: p.jobs, clock }),
  };
}
export type QueuesApi = ReturnType<typeof createQueues>;
