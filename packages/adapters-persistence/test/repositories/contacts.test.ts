import { describeContactsContract } from '@servicedesk/core/contracts/contacts-contract';
import { MikroOrmCompanies, MikroOrmContacts, MikroOrmPlans, MikroOrmTransaction, MikroOrmUsers, type Database } from '../../src/index.js';
import { describeOnEachDatabase } from '../support/databases.js';

describeOnEachDatabase(
  (db: Database) => ({
    contacts: new MikroOrmContacts(db.orm),
    companies: new MikroOrmCompanies(db.orm),
    plans: new MikroOrmPlans(db.orm),
    users: new MikroOrmUsers(db.orm),
    tx: new MikroOrmTransaction(db.orm),
    rollsBack: true,
  }),
  describeContactsContract,
);
