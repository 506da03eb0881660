import { describeRepositoriesContract } from '@servicedesk/core/contracts/repositories-contract';
import { integrationUrl } from '@servicedesk/core/contracts/integration-env';
import { RequestContext } from '@mikro-orm/core';
import {
  MikroOrmCompanies, MikroOrmPlans, MikroOrmRefreshSessions, MikroOrmSettings, MikroOrmTransaction, MikroOrmUsers, type Database,
} from '../../src/index.js';
import { openPgliteDatabase, openPostgresDatabase, truncate } from '../support/databases.js';

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

function suite(name: string, open: () => Promise<Database>, enabled: () => boolean) {
  describe(name, function () {
    let db: Database | undefined;
    before(async function () {
      if (!enabled()) return this.skip();
      db = await open();
    });
    after(async () => { await db?.close(); });
    // Each test body runs inside a request context, like an HTTP request does.
    beforeEach(function () {
      const test = this.currentTest;
      if (!db || !test?.fn) return;
      const fn = test.fn as (this: Mocha.Context) => Promise<unknown>;
      test.fn = function (this: Mocha.Context) { return RequestContext.create(db!.orm.em, () => fn.call(this)); };
    });
    describeRepositoriesContract(name, async () => {
      await truncate(db!);
      return fixtureOn(db!);
    });
  });
}

suite('PGlite', () => openPgliteDatabase(), () => true);
suite('PostgreSQL', () => openPostgresDatabase(), () => Boolean(integrationUrl('TEST_DATABASE_URL')));
