import { describeTagsContract } from '@servicedesk/core/contracts/tags-contract';
import {
  MikroOrmCompanies,
  MikroOrmConnections,
  MikroOrmContacts,
  MikroOrmPlans,
  MikroOrmTags,
  MikroOrmTickets,
  MikroOrmTransaction,
  type Database,
} from '../../src/index.js';
import { describeOnEachDatabase } from '../support/databases.js';

function fixtureOn(db: Database) {
  const { orm } = db;
  return {
    tags: new MikroOrmTags(orm),
    tickets: new MikroOrmTickets(orm),
    contacts: new MikroOrmContacts(orm),
    connections: new MikroOrmConnections(orm),
    companies: new MikroOrmCompanies(orm),
    plans: new MikroOrmPlans(orm),
    tx: new MikroOrmTransaction(orm),
  };
}

describeOnEachDatabase(fixtureOn, describeTagsContract);
