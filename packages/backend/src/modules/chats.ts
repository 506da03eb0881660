import { chatRoutes } from '@servicedesk/adapters-http';
import { createChats, type ChatsApi } from '@servicedesk/core/compose/chats';
import { feature, type Feature } from './feature.js';
import { PERSISTENCE_FEATURES, tablesOf } from '@servicedesk/adapters-persistence/features';

/**
 * Internal chats between a company's operators: chats, members, messages (text and files in blob
 * storage) and per-member read marks. Frames go to members only (audience `users`).
 */
export const chats: Feature<object, { chats: ChatsApi }> = feature({
  name: 'chats',
  ...tablesOf(PERSISTENCE_FEATURES.chats),
  ports: ({ infra }) => PERSISTENCE_FEATURES.chats.repositories(infra.db.orm),
  api: (ports) => ({ chats: createChats(ports) }),
  routes: (app) => chatRoutes(app),
});
