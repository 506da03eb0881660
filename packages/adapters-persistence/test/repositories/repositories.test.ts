import { describeRepositoriesContract } from '@servicedesk/core/contracts/repositories-contract';
import {
  MikroOrmCompanies,
  MikroOrmPlans,
  MikroOrmRefreshSessions,
  MikroOrmSettings,
  MikroOrmTransaction,
  MikroOrmUsers,
  type Database,
} from '../../src/index.js';
import { describeOnEachDatabase } from '../support/databases.js';

function fixtureOn(db: Database) {
  const { orm } = db;
  return {
    users: new MikroOrmUsers(orm),
    refreshSessions: new MikroOrmRefreshSessions(orm),
    companies: new MikroOrmCompanies(orm),
    plans: new MikroOrmPlans(orm),
    settings: new MikroOrmSettings(orm),
    tx: new MikroOrmTransaction(orm),
    rollsBack: true,
  };
}

describeOnEachDatabase(fixtureOn, describeRepositoriesContract);
