import { expect } from 'chai';
import { openDatabase, type Database } from '@servicedesk/adapters-persistence';
import { expressionIndexDrift, schemaDiff } from '@servicedesk/adapters-persistence/testing';
import { databaseSchema } from '../../src/modules.js';

/**
 * The drift check of adapters-persistence covers the released tables; this one covers what the
 * module list gives the database, so a feature's own entity schemas and migrations must agree too.
 */
describe('Architecture: the module list describes the tables its migrations create', function () {
  this.timeout(120_000);
  let db: Database;
  before(async () => {
    // An in-memory PGlite of its own: the shared one holds other suites' scratch tables.
    db = await openDatabase(databaseSchema());
    await db.migrate();
  });
  after(async () => {
    await db.close();
  });

  it('MikroORM finds nothing to change after every migration of every feature', async () => {
    const diff = await schemaDiff(db.orm);
    expect(diff, `the entity schemas and the migrations disagree; MikroORM would run:\n${diff}\n`).to.equal('');
    expect(await expressionIndexDrift(db.orm)).to.deep.equal([]);
  });
});
