import { expect } from 'chai';
import type { Database } from '@servicedesk/adapters-persistence';
import { openPgliteDatabase, openPostgresDatabase } from '@servicedesk/adapters-persistence/testing';
import { integrationUrl } from '@servicedesk/core/contracts/integration-env';
import type { SessionControl } from '@servicedesk/core';
import { CHANNEL_DATABASE_OPTIONS } from '../../src/index.js';
import { DatabaseSessionRegistry } from '../../src/ownership/database-session-registry.js';
import { InMemorySessionRegistry, type SessionRegistry } from '../../src/ownership/session-registry.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const cmd = (chatappId: number, action: SessionControl['action'] = 'start', secrets: Record<string, string> = {}): SessionControl => ({
  type: 'SessionControl',
  action,
  companyId: 7,
  chatappId,
  provider: 'sandbox',
  secrets,
  externalId: null,
});
const resume = (chatappId: number): SessionControl => ({ ...cmd(chatappId), resume: true });

function describeRegistryContract(name: string, make: () => Promise<SessionRegistry>) {
  describe(`Session registry contract: ${name}`, () => {
    let r: SessionRegistry;
    beforeEach(async () => {
      r = await make();
    });

    it('records control commands: a resuming identical start changes nothing; a start, restart, new secrets or a logout bump the generation', async () => {
      const first = await r.record(cmd(1));
      expect(first).to.deep.include({ changed: true });
      expect(first.desired).to.deep.include({ chatappId: 1, companyId: 7, running: true, generation: 1 });
      expect((await r.record(resume(1))).changed).to.equal(false);
      expect((await r.record(cmd(1))).desired.generation).to.equal(2);
      expect((await r.record(cmd(1, 'restart'))).desired.generation).to.equal(3);
      expect((await r.record({ ...resume(1), secrets: { token: 'x' } })).desired.generation).to.equal(4);
      const out = await r.record(cmd(1, 'logout'));
      expect(out.desired).to.deep.include({ running: false, generation: 5 });
      expect((await r.record(cmd(1, 'logout'))).changed).to.equal(false);
      expect((await r.record(resume(1))).desired).to.deep.include({ running: true, generation: 6 });
      expect((await r.desired(1))!.command).to.deep.equal(resume(1));
      expect(await r.desired(2)).to.equal(null);
    });

    it('ten instances racing for one free session: exactly one holds it, and it may take it again', async () => {
      await r.record(cmd(3));
      const won = await Promise.all(Array.from({ length: 10 }, (_, i) => r.acquire(3, `i${i}`, 10_000)));
      expect(won.filter(Boolean)).to.have.length(1);
      const winner = `i${won.indexOf(true)}`;
      expect(await r.owner(3)).to.equal(winner);
      expect(await r.acquire(3, winner, 10_000)).to.equal(true);
      expect(await r.acquire(3, 'someone-else', 10_000)).to.equal(false);
    });

    it('a lease nobody renews lapses and another instance takes it; renewing keeps it', async () => {
      await r.record(cmd(4));
      await r.record(cmd(5));
      expect(await r.acquire(4, 'a', 300)).to.equal(true);
      expect(await r.acquire(5, 'a', 300)).to.equal(true);
      expect(await r.unowned(10)).to.deep.equal([]);
      expect(await r.liveOwners()).to.equal(1);
      await sleep(150);
      expect((await r.renew('a', 300)).map((d) => d.chatappId).sort()).to.deep.equal([4, 5]);
      await sleep(200);
      expect(await r.owner(4)).to.equal('a');
      await sleep(250);
      expect(await r.owner(4)).to.equal(null);
      expect((await r.unowned(10)).map((d) => d.chatappId)).to.deep.equal([4, 5]);
      expect((await r.unowned(1)).map((d) => d.chatappId)).to.deep.equal([4]);
      expect(await r.acquire(4, 'b', 10_000)).to.equal(true);
      expect(await r.renew('a', 300)).to.deep.equal([]);
      expect(await r.owner(4)).to.equal('b');
      expect(await r.liveOwners()).to.equal(1);
    });

    it('releases only its own lease; a logged-out session is not offered to anyone', async () => {
      await r.record(cmd(6));
      await r.acquire(6, 'a', 10_000);
      await r.release(6, 'b');
      expect(await r.owner(6)).to.equal('a');
      await r.release(6, 'a');
      expect(await r.owner(6)).to.equal(null);
      expect((await r.unowned(10)).map((d) => d.chatappId)).to.deep.equal([6]);
      await r.record(cmd(6, 'logout'));
      expect(await r.unowned(10)).to.deep.equal([]);
    });

    it('renew answers what should run on each held session, with its generation', async () => {
      await r.record(cmd(8));
      await r.acquire(8, 'a', 10_000);
      await r.record(cmd(8, 'restart'));
      const [held] = await r.renew('a', 10_000);
      expect(held).to.deep.include({ chatappId: 8, generation: 2, running: true });
      expect(held!.command.action).to.equal('restart');
    });
  });
}

describeRegistryContract('in-memory', async () => new InMemorySessionRegistry());

for (const target of [
  { name: 'PGlite', enabled: () => true, open: () => openPgliteDatabase(CHANNEL_DATABASE_OPTIONS) },
  { name: 'PostgreSQL', enabled: () => Boolean(integrationUrl('TEST_DATABASE_URL')), open: () => openPostgresDatabase(CHANNEL_DATABASE_OPTIONS) },
]) {
  describe(target.name, () => {
    let db: Database | undefined;
    before(async function () {
      if (!target.enabled()) return this.skip();
      db = await target.open();
    });
    after(async () => {
      await db?.close();
    });
    describeRegistryContract(target.name, async () => {
      await db!.orm.em.getConnection().execute('delete from channel.session_leases; delete from channel.session_desired');
      return new DatabaseSessionRegistry(db!);
    });
  });
}
