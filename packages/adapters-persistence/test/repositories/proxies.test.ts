import { expect } from 'chai';
import type { SqlEntityManager } from '@mikro-orm/postgresql';
import { describeProxiesContract, proxyFixture } from '@servicedesk/core/contracts/proxies-contract';
import { connectionFixture } from '@servicedesk/core/contracts/messaging-contract';
import { twoCompanies } from '@servicedesk/core/contracts/repositories-contract';
import {
  BACKEND_MIGRATIONS,
  BACKEND_SCHEMAS,
  PERSISTENCE_FEATURES,
  MikroOrmCompanies,
  MikroOrmConnections,
  MikroOrmPlans,
  MikroOrmTransaction,
  type Database,
} from '../../src/index.js';
import { proxiesRepositories } from '../../src/proxies/repository.js';
import { PROXY_SCHEMAS } from '../../src/proxies/schema.js';
import { describeOnEachDatabase } from '../support/databases.js';
import { describeFeatureDrift } from '../support/feature-drift.js';

/** The backend's tables and the proxies'. */
const OPTIONS = {
  entities: [...BACKEND_SCHEMAS, ...PROXY_SCHEMAS],
  migrations: [...BACKEND_MIGRATIONS, ...PERSISTENCE_FEATURES.proxies.migrations],
};
const TABLES = ['proxies', 'proxy_assignments'];

function fixtureOn(db: Database) {
  const { orm } = db;
  return {
    ...proxiesRepositories(orm),
    companies: new MikroOrmCompanies(orm),
    plans: new MikroOrmPlans(orm),
    connections: new MikroOrmConnections(orm),
    tx: new MikroOrmTransaction(orm),
    db,
  };
}

describeOnEachDatabase(
  fixtureOn,
  (name, make) => {
    describeProxiesContract(name, make);

    describe(`Proxy repositories on ${name}: what only SQL shows`, () => {
      let f: ReturnType<typeof fixtureOn>;
      beforeEach(async () => {
        f = await make();
      });
      const sql = (query: string, params: unknown[] = []) =>
        (f.db.orm.em.getContext() as unknown as SqlEntityManager).execute<Array<Record<string, any>>>(query, params);
      const code = (p: Promise<unknown>) =>
        p.then(
          () => 'resolved',
          (e: { code?: string }) => e.code,
        );

      it('refuses unknown protocols and statuses and impossible ports, keeps the password as sealed, and drops an assignment with its connection', async () => {
        const [c1] = await twoCompanies(f);
        const p = await f.proxies.add(proxyFixture(c1, 'A'));
        // 23514: check_violation.
        expect(await code(sql(`update proxies set protocol = 'ftp' where id = ?`, [p.id]))).to.equal('23514');
        expect(await code(sql(`update proxies set status = 'odd' where id = ?`, [p.id]))).to.equal('23514');
        await sql(`update proxies set status = 'unchecked' where id = ?`, [p.id]);
        expect(await code(sql('update proxies set port = 0 where id = ?', [p.id]))).to.equal('23514');
        expect(await sql('select password_sealed from proxies where id = ?', [p.id])).to.deep.equal([{ password_sealed: 'sealed-password' }]);
        const k = await f.connections.add(connectionFixture(c1, 'One'));
        await f.proxyAssignments.assign({ connectionId: k.id, companyId: c1, proxyId: p.id, assignedAt: new Date() });
        await f.connections.remove(c1, k.id);
        expect(await f.proxyAssignments.listByProxy(p.id)).to.deep.equal([]);
      });
    });
  },
  OPTIONS,
);

describeFeatureDrift('proxies', OPTIONS, TABLES);
