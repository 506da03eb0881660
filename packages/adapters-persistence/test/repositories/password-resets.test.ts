import { describePasswordResetsContract, describePasswordResetsOfRemovedUsers } from '@servicedesk/core/contracts/password-resets-contract';
import {
  BACKEND_MIGRATIONS,
  BACKEND_SCHEMAS,
  PERSISTENCE_FEATURES,
  MikroOrmCompanies,
  MikroOrmPasswordResets,
  MikroOrmPlans,
  MikroOrmTransaction,
  MikroOrmUsers,
  type Database,
} from '../../src/index.js';
import { describeOnEachDatabase } from '../support/databases.js';
import { describeFeatureDrift } from '../support/feature-drift.js';

/** The backend's tables and the password resets' (`password_resets`). */
const OPTIONS = {
  entities: [...BACKEND_SCHEMAS, ...PERSISTENCE_FEATURES.passwordResets.entities],
  migrations: [...BACKEND_MIGRATIONS, ...PERSISTENCE_FEATURES.passwordResets.migrations],
};

function fixtureOn(db: Database) {
  const { orm } = db;
  return {
    passwordResets: new MikroOrmPasswordResets(orm),
    users: new MikroOrmUsers(orm),
    companies: new MikroOrmCompanies(orm),
    plans: new MikroOrmPlans(orm),
    tx: new MikroOrmTransaction(orm),
    rollsBack: true,
  };
}

describeOnEachDatabase(
  fixtureOn,
  (name, make) => {
    describePasswordResetsContract(name, make);
    describePasswordResetsOfRemovedUsers(name, make);
  },
  OPTIONS,
);
describeFeatureDrift('password resets', OPTIONS, ['password_resets']);
