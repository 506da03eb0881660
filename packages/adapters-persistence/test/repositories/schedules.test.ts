import { expect } from 'chai';
import type { SqlEntityManager } from '@mikro-orm/postgresql';
import { contactDraft } from '@servicedesk/core/contracts/messaging-contract';
import { companyFixture, planFixture } from '@servicedesk/core/contracts/repositories-contract';
import { describeSchedulesContract, occurrenceDraft, scheduleDraft, type ScheduleSeed } from '@servicedesk/core/contracts/schedules-contract';
import { BACKEND_MIGRATIONS, BACKEND_SCHEMAS, MikroOrmCompanies, MikroOrmContacts, MikroOrmPlans, type Database } from '../../src/index.js';
import { M0017Schedules } from '../../src/schedules/m0017-schedules.js';
import { schedulesRepositories } from '../../src/schedules/repository.js';
import { SCHEDULE_SCHEMAS } from '../../src/schedules/schema.js';
import { describeOnEachDatabase } from '../support/databases.js';
import { describeFeatureDrift } from '../support/feature-drift.js';

/** The backend's tables and the schedules'. */
const OPTIONS = {
  entities: [...BACKEND_SCHEMAS, ...SCHEDULE_SCHEMAS],
  migrations: [...BACKEND_MIGRATIONS, { name: 'm0017-schedules', class: M0017Schedules }],
};
const SCHEDULE_TABLES = ['schedules', 'schedule_occurrences', 'schedule_deliveries'];

function seedOn(db: Database): ScheduleSeed {
  const plans = new MikroOrmPlans(db.orm),
    companies = new MikroOrmCompanies(db.orm),
    contacts = new MikroOrmContacts(db.orm);
  let planId: number | undefined;
  let n = 0;
  return {
    async company(name) {
      planId ??= (await plans.add(planFixture('Plan'))).id;
      return (await companies.add(companyFixture(planId, name))).id;
    },
    async contact(companyId, name) {
      return (await contacts.add(contactDraft(companyId, `551197000${String(++n).padStart(4, '0')}`, { name }))).id;
    },
  };
}

function fixtureOn(db: Database) {
  const p = schedulesRepositories(db.orm);
  return { schedules: p.schedules, occurrences: p.scheduleOccurrences, deliveries: p.scheduleDeliveries, seed: seedOn(db), db };
}

describeOnEachDatabase(
  fixtureOn,
  (name, make) => {
    describeSchedulesContract(name, make);

    describe(`Schedule repositories on ${name}: what only SQL shows`, () => {
      let f: ReturnType<typeof fixtureOn>;
      beforeEach(async () => {
        f = await make();
      });

      it('a deleted contact takes its contact schedules along, a scheduled message and its recipients outlive it, a deleted company takes everything', async () => {
        const company = await f.seed.company('One');
        const contactId = await f.seed.contact(company, 'Ana');
        const other = await f.seed.contact(company, 'Bia');
        const s = await f.schedules.add(scheduleDraft(company, 'contact', { contactId }));
        const bulk = await f.schedules.add(scheduleDraft(company, 'bulk', { contactIds: [contactId] }));
        const o = await f.occurrences.add(occurrenceDraft(bulk, 1));
        await f.deliveries.addMany([
          { companyId: company, occurrenceId: o.id, contactId },
          { companyId: company, occurrenceId: o.id, contactId: other },
        ]);
        const sql = (query: string, params: unknown[] = []) => (f.db.orm.em.getContext() as unknown as SqlEntityManager).execute(query, params);
        await sql('delete from contacts where id = ?', [contactId]);
        expect(await f.schedules.findById(company, s.id)).to.equal(null);
        // The scheduled message and its record of recipients outlive the contact (its send then fails).
        expect(await f.schedules.findById(company, bulk.id)).to.deep.include({ contactIds: [contactId] });
        expect(await f.deliveries.counts(company, o.id)).to.deep.equal({ pending: 2, sent: 0, failed: 0 });
        await sql('delete from companies');
        expect(await f.occurrences.findById(company, o.id)).to.equal(null);
      });

      it('refuses a second open occurrence even from two writers at once', async () => {
        const company = await f.seed.company('One');
        const s = await f.schedules.add(scheduleDraft(company, 'contact', { contactId: await f.seed.contact(company, 'Ana') }));
        const results = await Promise.allSettled([f.occurrences.add(occurrenceDraft(s, 1)), f.occurrences.add(occurrenceDraft(s, 2))]);
        expect(results.filter((r) => r.status === 'fulfilled')).to.have.length(1);
      });
    });
  },
  OPTIONS,
);

describeFeatureDrift('schedule', OPTIONS, SCHEDULE_TABLES);
