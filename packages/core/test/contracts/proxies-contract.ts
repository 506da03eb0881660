import { expect } from 'chai';
import type { Companies, Connections, Plans, Transaction } from '../../src/index.js';
import type { ProxyAssignments, Proxies } from '../../src/proxies/ports.js';
import type { NewProxy } from '../../src/proxies/proxy.js';
import { connectionFixture } from './messaging-contract.js';
import { twoCompanies } from './repositories-contract.js';

export interface ProxiesFixture {
  readonly proxies: Proxies;
  readonly proxyAssignments: ProxyAssignments;
  readonly companies: Companies;
  readonly plans: Plans;
  readonly connections: Connections;
  readonly tx: Transaction;
}

const T0 = new Date('2026-03-01T10:00:00.000Z');
const at = (minutes: number) => new Date(T0.getTime() + minutes * 60_000);

export function proxyFixture(companyId: number | null, name: string, overrides: Partial<NewProxy> = {}): NewProxy {
  return {
    companyId,
    name,
    protocol: 'http',
    host: 'proxy.example',
    port: 3128,
    username: 'user',
    passwordSealed: 'sealed-password',
    country: 'BR',
    maxConnections: 5,
    status: 'healthy',
    disabledReason: null,
    failCount: 0,
    lastError: null,
    lastLatencyMs: null,
    lastCheckAt: null,
    createdAt: T0,
    updatedAt: T0,
    ...overrides,
  };
}

/** Plain data, whatever class the adapter builds its rows with. */
const plain = <T extends object>(row: T | null) => (row ? { ...row } : row);

/** One suite for every adapter of the Proxies and ProxyAssignments ports. */
export function describeProxiesContract(name: string, make: () => Promise<ProxiesFixture>) {
  describe(`Proxy repositories contract: ${name}`, () => {
    let r: ProxiesFixture;
    beforeEach(async () => {
      r = await make();
    });

    it("stores proxies, shows a company its own and the platform's, saves what may change and removes them", async () => {
      const [c1, c2] = await twoCompanies(r);
      const global = await r.proxies.add(proxyFixture(null, 'Platform'));
      const mine = await r.proxies.add(proxyFixture(c1, 'beta'));
      const alpha = await r.proxies.add(proxyFixture(c1, 'Álpha', { protocol: 'socks5', username: null, passwordSealed: null, country: null }));
      const theirs = await r.proxies.add(proxyFixture(c2, 'Theirs'));
      expect(mine).to.deep.equal({ ...proxyFixture(c1, 'beta'), id: mine.id });
      expect(plain(await r.proxies.findVisible(c1, mine.id))).to.deep.equal(mine);
      expect(plain(await r.proxies.findVisible(c1, global.id))).to.deep.equal(global);
      expect(await r.proxies.findVisible(c1, theirs.id)).to.equal(null);
      expect(await r.proxies.findVisible(null, mine.id)).to.equal(null);
      expect(await r.proxies.findVisible(c1, 2 ** 40)).to.equal(null);
      expect((await r.proxies.listVisible(c1)).map((p) => p.name)).to.deep.equal(['Álpha', 'beta', 'Platform']);
      expect((await r.proxies.listVisible(null)).map((p) => p.name)).to.deep.equal(['Platform']);
      expect((await r.proxies.listAll()).map((p) => p.id)).to.deep.equal([global.id, mine.id, alpha.id, theirs.id]);
      const edited = {
        ...mine,
        companyId: c2,
        name: 'Beta 2',
        protocol: 'https' as const,
        host: '10.0.0.1',
        port: 8080,
        username: null,
        passwordSealed: null,
        country: 'US',
        maxConnections: 2,
        status: 'disabled' as const,
        disabledReason: 'banned',
        failCount: 3,
        lastError: 'timeout',
        lastLatencyMs: 120,
        lastCheckAt: at(3),
        createdAt: at(9),
        updatedAt: at(5),
      };
      await r.proxies.update(edited);
      expect(plain(await r.proxies.findVisible(c1, mine.id))).to.deep.equal({ ...edited, companyId: c1, createdAt: T0 });
      await r.proxies.remove(mine.id);
      expect(await r.proxies.findVisible(c1, mine.id)).to.equal(null);
    });

    it('keeps one assignment per connection, counts per proxy, and drops assignments with their proxy', async () => {
      const [c1, c2] = await twoCompanies(r);
      const a = await r.proxies.add(proxyFixture(null, 'A'));
      const b = await r.proxies.add(proxyFixture(c1, 'B'));
      const k1 = await r.connections.add(connectionFixture(c1, 'One'));
      const k2 = await r.connections.add(connectionFixture(c1, 'Two'));
      const k3 = await r.connections.add(connectionFixture(c2, 'Three'));
      await r.proxyAssignments.assign({ connectionId: k1.id, companyId: c1, proxyId: a.id, assignedAt: T0 });
      await r.proxyAssignments.assign({ connectionId: k2.id, companyId: c1, proxyId: a.id, assignedAt: T0 });
      await r.proxyAssignments.assign({ connectionId: k3.id, companyId: c2, proxyId: a.id, assignedAt: T0 });
      await r.proxyAssignments.assign({ connectionId: k2.id, companyId: c1, proxyId: b.id, assignedAt: at(1) });
      expect(plain(await r.proxyAssignments.findByConnection(c1, k2.id))).to.deep.equal({
        connectionId: k2.id,
        companyId: c1,
        proxyId: b.id,
        assignedAt: at(1),
      });
      expect(await r.proxyAssignments.findByConnection(c2, k2.id)).to.equal(null);
      expect(await r.proxyAssignments.findByConnection(c1, 2 ** 40)).to.equal(null);
      expect((await r.proxyAssignments.listByCompany(c1)).map((x) => x.connectionId)).to.deep.equal([k1.id, k2.id]);
      expect((await r.proxyAssignments.listByProxy(a.id)).map((x) => x.connectionId)).to.deep.equal([k1.id, k3.id]);
      expect([...(await r.proxyAssignments.countByProxy([a.id, b.id, 2 ** 40])).entries()].sort()).to.deep.equal(
        [
          [a.id, 2],
          [b.id, 1],
        ].sort(),
      );
      expect((await r.proxyAssignments.countByProxy([])).size).to.equal(0);
      expect(await r.proxyAssignments.remove(c2, k1.id)).to.equal(false);
      expect(await r.proxyAssignments.remove(c1, k1.id)).to.equal(true);
      expect(await r.proxyAssignments.remove(c1, k1.id)).to.equal(false);
      await r.proxies.remove(a.id);
      expect(await r.proxyAssignments.findByConnection(c2, k3.id)).to.equal(null);
      expect((await r.proxyAssignments.listByCompany(c1)).map((x) => x.proxyId)).to.deep.equal([b.id]);
    });
  });
}
