import { expect } from 'chai';
import { completeSchema, MikroOrmOutbox, MikroOrmTickets, MikroOrmTransaction, type Database } from '@servicedesk/adapters-persistence';
import { openPgliteDatabase, truncate } from '@servicedesk/adapters-persistence/testing';
import type { CorePorts } from '@servicedesk/core';
import { InMemoryOutbox, InMemoryTickets, SerialTransaction } from '@servicedesk/core/testing';
import { createContainer } from '../src/container.js';
import { inMemoryAdapters } from '../src/in-memory-adapters.js';
import { pgliteAdapters } from '../src/pglite-adapters.js';
import { TYPES } from '../src/types.js';
import { describeUseCases } from './use-cases.js';

describe('Swapping adapters through the container', () => {
  describe('in-memory module', () => {
    it('binds the core in-memory adapters, fresh for every container', () => {
      const a = createContainer(inMemoryAdapters).get<CorePorts>(TYPES.Ports);
      const b = createContainer(inMemoryAdapters).get<CorePorts>(TYPES.Ports);
      expect(a.tickets).to.be.instanceOf(InMemoryTickets);
      expect(a.outbox).to.be.instanceOf(InMemoryOutbox);
      expect(a.tx).to.be.instanceOf(SerialTransaction);
      expect(a.tickets).to.not.equal(b.tickets);
    });

    describeUseCases('in-memory', async () => createContainer(inMemoryAdapters));
  });

  describe('PGlite module', () => {
    // PGlite takes seconds to start: one migrated database for the suite, emptied before each test.
    let db: Database;
    before(async function () {
      this.timeout(60_000);
      db = await openPgliteDatabase(completeSchema());
    });
    after(async () => {
      await db?.close();
    });

    it('binds the MikroORM repositories on the database', () => {
      const ports = createContainer(pgliteAdapters(db)).get<CorePorts>(TYPES.Ports);
      expect(ports.tickets).to.be.instanceOf(MikroOrmTickets);
      expect(ports.outbox).to.be.instanceOf(MikroOrmOutbox);
      expect(ports.tx).to.be.instanceOf(MikroOrmTransaction);
    });

    describeUseCases('PGlite', async () => {
      await truncate(db);
      return createContainer(pgliteAdapters(db));
    });
  });
});
