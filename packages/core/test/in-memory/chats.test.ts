import { describeChatsContract } from '../contracts/chats-contract.js';
import { InMemoryCompanies, InMemoryPlans } from '../../src/testing.js';
import { InMemoryChatMessages, InMemoryChats } from '../../src/in-memory/chats.js';
import { InMemoryUsers } from '../../src/in-memory/identity.js';

describeChatsContract('in-memory', async () => {
  const users = new InMemoryUsers();
  const chatMessages = new InMemoryChatMessages(users);
  return { chats: new InMemoryChats(users, chatMessages), chatMessages, users, companies: new InMemoryCompanies(), plans: new InMemoryPlans() };
});
