import { expect } from 'chai';
import type { SqlEntityManager } from '@mikro-orm/postgresql';
import { announcementFixture, describeAnnouncementsContract } from '@servicedesk/core/contracts/announcements-contract';
import { companyFixture, planFixture } from '@servicedesk/core/contracts/repositories-contract';
import { BACKEND_MIGRATIONS, BACKEND_SCHEMAS, MikroOrmCompanies, MikroOrmPlans, MikroOrmUsers, type Database } from '../../src/index.js';
import { M0018Announcements } from '../../src/announcements/m0018-announcements.js';
import { announcementsRepositories } from '../../src/announcements/repository.js';
import { ANNOUNCEMENT_SCHEMAS } from '../../src/announcements/schema.js';
import { describeOnEachDatabase } from '../support/databases.js';
import { describeFeatureDrift } from '../support/feature-drift.js';

/** The backend's tables and the announcements'. */
const OPTIONS = {
  entities: [...BACKEND_SCHEMAS, ...ANNOUNCEMENT_SCHEMAS],
  migrations: [...BACKEND_MIGRATIONS, { name: 'm0018-announcements', class: M0018Announcements }],
};
const TABLES = ['announcements', 'announcement_companies'];

function fixtureOn(db: Database) {
  const { orm } = db;
  return { ...announcementsRepositories(orm), companies: new MikroOrmCompanies(orm), plans: new MikroOrmPlans(orm), users: new MikroOrmUsers(orm), db };
}

describeOnEachDatabase(
  fixtureOn,
  (name, make) => {
    describeAnnouncementsContract(name, make);

    describe(`Announcement repositories on ${name}: what only SQL shows`, () => {
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

      it('keeps targets in a join table, one row per company, and the table refuses a window that ends before it starts or a priority out of 1–3', async () => {
        const plan = await f.plans.add(planFixture('P'));
        const one = (await f.companies.add(companyFixture(plan.id, 'One'))).id;
        const two = (await f.companies.add(companyFixture(plan.id, 'Two'))).id;
        const a = await f.announcements.add(announcementFixture(one, 'Alvos', { targetCompanyIds: [two, one, two] }));
        expect(await sql('select company_id from announcement_companies where announcement_id = ? order by company_id', [a.id])).to.deep.equal([
          { company_id: one },
          { company_id: two },
        ]);
        expect(await sql('select all_companies from announcements where id = ?', [a.id])).to.deep.equal([{ all_companies: false }]);
        await f.announcements.update({ ...a, targetCompanyIds: null });
        expect(await sql('select company_id from announcement_companies where announcement_id = ?', [a.id])).to.deep.equal([]);
        expect(await sql('select all_companies from announcements where id = ?', [a.id])).to.deep.equal([{ all_companies: true }]);
        const at = new Date('2026-03-01T10:00:00Z');
        // 23514: check_violation.
        expect(await code(f.announcements.add(announcementFixture(one, 'Ao contrário', { startsAt: at, endsAt: new Date(at.getTime() - 1) })))).to.equal(
          '23514',
        );
        expect(await code(sql('update announcements set priority = 4 where id = ?', [a.id]))).to.equal('23514');
      });
    });
  },
  OPTIONS,
);

describeFeatureDrift('announcement', OPTIONS, TABLES);
