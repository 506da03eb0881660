import { chatRoutes } from '@servicedesk/adapters-http';
import { chatsRepositories, FEATURE_TABLES } from '@servicedesk/adapters-persistence';
import { createChats, type ChatsApi } from '@servicedesk/core/compose/chats';
import { feature, type Feature } from './feature.js';

/**
 * Internal chats between a company's operators: chats, members, messages (text and files in blob
 * storage) and per-member read marks. Frames go to members only (audience `users`).
 */
export const chats: Feature<object, { chats: ChatsApi }> = feature({
  name: 'chats',
  ...FEATURE_TABLES.chats,
  ports: ({ infra }) => chatsRepositories(infra.db.orm),
  api: (ports) => ({ chats: createChats(ports) }),
  routes: (app) => chatRoutes(app),
});
