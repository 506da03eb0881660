import { describeChatsContract } from '@servicedesk/core/contracts/chats-contract';
import { BACKEND_MIGRATIONS, BACKEND_SCHEMAS, MikroOrmCompanies, MikroOrmPlans, MikroOrmUsers, type Database } from '../../src/index.js';
import { M0019InternalChats } from '../../src/chats/m0019-internal-chats.js';
import { chatsRepositories } from '../../src/chats/repository.js';
import { CHAT_SCHEMAS } from '../../src/chats/schema.js';
import { describeOnEachDatabase } from '../support/databases.js';
import { describeFeatureDrift } from '../support/feature-drift.js';

/** The backend's tables and the internal chats'. */
const OPTIONS = {
  entities: [...BACKEND_SCHEMAS, ...CHAT_SCHEMAS],
  migrations: [...BACKEND_MIGRATIONS, { name: 'm0019-internal-chats', class: M0019InternalChats }],
};

function fixtureOn(db: Database) {
  const { orm } = db;
  return { ...chatsRepositories(orm), users: new MikroOrmUsers(orm), companies: new MikroOrmCompanies(orm), plans: new MikroOrmPlans(orm) };
}

describeOnEachDatabase(fixtureOn, (name, make) => describeChatsContract(name, make), OPTIONS);
describeFeatureDrift('internal-chat', OPTIONS, ['chats', 'chat_members', 'chat_messages']);
