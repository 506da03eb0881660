import { RequestContext } from '@mikro-orm/core';
import type { SqlEntityManager } from '@mikro-orm/postgresql';
import { expect } from 'chai';
import { chargeDraft, describeBillingContract, invoiceDraft } from '@servicedesk/core/contracts/billing-contract';
import { companyFixture, planFixture } from '@servicedesk/core/contracts/repositories-contract';
import {
  BACKEND_MIGRATIONS,
  BACKEND_SCHEMAS,
  MikroOrmCompanies,
  MikroOrmInvoices,
  MikroOrmPlans,
  MikroOrmTransaction,
  type Database,
} from '../../src/index.js';
import { M0031Billing } from '../../src/billing/m0031-billing.js';
import { billingRepositories } from '../../src/billing/repository.js';
import { BILLING_SCHEMAS } from '../../src/billing/schema.js';
import { describeOnEachDatabase } from '../support/databases.js';
import { describeFeatureDrift } from '../support/feature-drift.js';

/** The backend's tables and billing's. */
const OPTIONS = {
  entities: [...BACKEND_SCHEMAS, ...BILLING_SCHEMAS],
  migrations: [...BACKEND_MIGRATIONS, { name: 'm0031-billing', class: M0031Billing }],
};

function fixtureOn(db: Database) {
  const { orm } = db;
  return {
    ...billingRepositories(orm),
    companies: new MikroOrmCompanies(orm),
    plans: new MikroOrmPlans(orm),
    invoices: new MikroOrmInvoices(orm),
    tx: new MikroOrmTransaction(orm),
    db,
  };
}

describeOnEachDatabase(
  fixtureOn,
  (name, make) => {
    describeBillingContract(name, make);

    describe(`Billing repositories on ${name}: what only SQL shows`, () => {
      let f: ReturnType<typeof fixtureOn>;
      beforeEach(async () => {
        f = await make();
      });
      const sql = (query: string, params: unknown[] = []) =>
        (f.db.orm.em.getContext() as unknown as SqlEntityManager).execute<Array<Record<string, any>>>(query, params);

      it("drops a company's charges and suspension with it, and an invoice's charges with the invoice", async () => {
        const plan = await f.plans.add(planFixture('P'));
        const company = await f.companies.add(companyFixture(plan.id, 'One'));
        const invoice = await f.invoices.add(invoiceDraft(company.id, '2026-05-10'));
        await f.charges.add(chargeDraft(company.id, invoice.id, '1'));
        await f.companySuspensions.suspend({ companyId: company.id, suspendedAt: new Date(), dueDate: '2026-05-10' });
        await sql('delete from invoices where id = ?', [invoice.id]);
        expect(await sql('select * from billing_charges')).to.deep.equal([]);
        await sql('delete from companies where id = ?', [company.id]);
        expect(await sql('select * from company_suspensions')).to.deep.equal([]);
      });

      it('records one of three deliveries of an event arriving at once, and one charge for one gateway id', async function () {
        if (name !== 'PostgreSQL') return this.skip(); // PGlite has one connection: nothing runs at once
        const plan = await f.plans.add(planFixture('P'));
        const company = await f.companies.add(companyFixture(plan.id, 'One'));
        const invoice = await f.invoices.add(invoiceDraft(company.id, '2026-05-10'));
        const apart = <T>(work: () => Promise<T>) => RequestContext.create(f.db.orm.em, () => f.tx.run(work));
        const event = { provider: 'mercadopago', eventId: '555', chargeId: '1', receivedAt: new Date() };
        const recorded = await Promise.all([1, 2, 3].map(() => apart(() => f.paymentEvents.record(event))));
        expect(recorded.filter(Boolean)).to.have.length(1);
        const charges = await Promise.all([1, 2, 3].map(() => apart(() => f.charges.add(chargeDraft(company.id, invoice.id, '42')))));
        expect(new Set(charges.map((c) => c.id)).size).to.equal(1);
        expect(await sql('select id from billing_charges')).to.have.length(1);
      });
    });
  },
  OPTIONS,
);

describeFeatureDrift('billing', OPTIONS, ['billing_charges', 'payment_events', 'company_suspensions', 'billing_webhooks']);
