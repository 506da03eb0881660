import { RequestContext } from '@mikro-orm/core';
import { expect } from 'chai';
import type { SqlEntityManager } from '@mikro-orm/postgresql';
import { describeCompanyTemplatesContract, templateFixture } from '@servicedesk/core/contracts/company-templates-contract';
import { describeContactSellersContract } from '@servicedesk/core/contracts/contact-sellers-contract';
import { contactDraft } from '@servicedesk/core/contracts/messaging-contract';
import { twoCompanies, userFixture } from '@servicedesk/core/contracts/repositories-contract';
import {
  BACKEND_MIGRATIONS,
  BACKEND_SCHEMAS,
  MikroOrmCompanies,
  MikroOrmContacts,
  MikroOrmPlans,
  MikroOrmTransaction,
  MikroOrmUsers,
  type Database,
} from '../../src/index.js';
import { M0030TemplatesSellers } from '../../src/company-templates/m0030-templates-sellers.js';
import { companyTemplatesRepositories } from '../../src/company-templates/repository.js';
import { COMPANY_TEMPLATE_SCHEMAS } from '../../src/company-templates/schema.js';
import { contactSellersRepositories } from '../../src/contact-sellers/repository.js';
import { CONTACT_SELLER_SCHEMAS } from '../../src/contact-sellers/schema.js';
import { describeOnEachDatabase } from '../support/databases.js';
import { describeFeatureDrift } from '../support/feature-drift.js';

/** The backend's tables and m0030's: the company templates' and the contact wallets' history. */
const OPTIONS = {
  entities: [...BACKEND_SCHEMAS, ...COMPANY_TEMPLATE_SCHEMAS, ...CONTACT_SELLER_SCHEMAS],
  migrations: [...BACKEND_MIGRATIONS, { name: 'm0030-templates-sellers', class: M0030TemplatesSellers }],
};

function fixtureOn(db: Database) {
  const { orm } = db;
  return {
    ...companyTemplatesRepositories(orm),
    ...contactSellersRepositories(orm),
    companies: new MikroOrmCompanies(orm),
    plans: new MikroOrmPlans(orm),
    users: new MikroOrmUsers(orm),
    contacts: new MikroOrmContacts(orm),
    tx: new MikroOrmTransaction(orm),
    unitOfWork: <T>(work: () => Promise<T>) => RequestContext.create(orm.em, work),
    db,
  };
}

describeOnEachDatabase(
  fixtureOn,
  (name, make) => {
    describeCompanyTemplatesContract(name, make);
    describeContactSellersContract(name, make);

    describe(`Templates and sellers on ${name}: what only SQL shows`, () => {
      let f: ReturnType<typeof fixtureOn>;
      beforeEach(async () => {
        f = await make();
      });
      const sql = (query: string, params: unknown[] = []) =>
        (f.db.orm.em.getContext() as unknown as SqlEntityManager).execute<Array<Record<string, any>>>(query, params);

      it("keeps a template without owner when its user is deleted, drops the company's templates with it; an id past int4 is absent", async () => {
        const [c1] = await twoCompanies(f);
        const ana = await f.users.add(userFixture(c1, 'ana@one.test'));
        const t = await f.companyTemplates.add(templateFixture(c1, 'ola', { global: false, userId: ana.id }));
        expect(await f.companyTemplates.findById(c1, 2_147_483_648)).to.equal(null);
        await sql('delete from users where id = ?', [ana.id]);
        expect((await f.companyTemplates.findById(c1, t.id))!.userId).to.equal(null);
        await sql('delete from companies where id = ?', [c1]);
        expect((await sql('select count(*)::int as n from company_templates'))[0]!.n).to.equal(0);
      });

      it("keeps a contact's history when the users it names are deleted; drops it with the contact", async () => {
        const [c1] = await twoCompanies(f);
        const ana = await f.users.add(userFixture(c1, 'ana@one.test'));
        const contact = await f.contacts.add(contactDraft(c1, '5511988887777'));
        await f.walletAssignments.assign({ companyId: c1, contactId: contact.id, userId: ana.id, expectedUserId: null, assignedBy: ana.id, at: new Date() });
        await sql('delete from users where id = ?', [ana.id]);
        // The contact's wallet follows its foreign key; the history keeps who it was.
        expect((await f.contacts.findById(c1, contact.id))!.walletUserId).to.equal(null);
        expect(await f.walletAssignments.latest(c1, contact.id)).to.deep.include({ userId: ana.id, assignedBy: ana.id });
        await sql('delete from contacts where id = ?', [contact.id]);
        expect((await sql('select count(*)::int as n from contact_wallet_assignments'))[0]!.n).to.equal(0);
      });
    });
  },
  OPTIONS,
);

describeFeatureDrift('templates and sellers', OPTIONS, ['company_templates', 'contact_wallet_assignments']);
