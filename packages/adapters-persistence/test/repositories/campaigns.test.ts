import { expect } from 'chai';
import type { SqlEntityManager } from '@mikro-orm/postgresql';
import { campaignDraft, describeCampaignsContract, recipientDraft, type CampaignSeed } from '@servicedesk/core/contracts/campaigns-contract';
import { connectionFixture, contactDraft } from '@servicedesk/core/contracts/messaging-contract';
import { queueFixture } from '@servicedesk/core/contracts/queues-contract';
import { companyFixture, planFixture, userFixture } from '@servicedesk/core/contracts/repositories-contract';
import { tagFixture } from '@servicedesk/core/contracts/tags-contract';
import {
  BACKEND_MIGRATIONS,
  BACKEND_SCHEMAS,
  CAMPAIGN_SCHEMAS,
  campaignsRepositories,
  M0015Campaigns,
  MikroOrmCompanies,
  MikroOrmConnections,
  MikroOrmContacts,
  MikroOrmPlans,
  MikroOrmQueues,
  MikroOrmTags,
  MikroOrmTransaction,
  MikroOrmUsers,
  type Database,
} from '../../src/index.js';
import { M0014ContactLists } from '../../src/contact-lists/m0014-contact-lists.js';
import { CONTACT_LIST_SCHEMAS } from '../../src/contact-lists/schema.js';
import { describeOnEachDatabase } from '../support/databases.js';
import { describeFeatureDrift } from '../support/feature-drift.js';

/** The backend's tables, the contact lists' (`campaigns.contact_list_id` refers to them) and the campaigns'. */
const OPTIONS = {
  entities: [...BACKEND_SCHEMAS, ...CONTACT_LIST_SCHEMAS, ...CAMPAIGN_SCHEMAS],
  migrations: [...BACKEND_MIGRATIONS, { name: 'm0014-contact-lists', class: M0014ContactLists }, { name: 'm0015-campaigns', class: M0015Campaigns }],
};
const CAMPAIGN_TABLES = ['campaigns', 'campaign_recipients', 'campaign_pacing', 'campaign_sends', 'campaign_suppressions', 'campaign_settings'];
/** The statements MikroORM would run on the campaign tables (the contact lists' tables are their feature's to check). */

/** Rows of the tables a campaign points at and reads, written through their repositories (contact lists with SQL). */
function seedOn(db: Database): CampaignSeed {
  const { orm } = db;
  const plans = new MikroOrmPlans(orm),
    companies = new MikroOrmCompanies(orm),
    connections = new MikroOrmConnections(orm);
  const users = new MikroOrmUsers(orm),
    queues = new MikroOrmQueues(orm),
    tags = new MikroOrmTags(orm),
    contacts = new MikroOrmContacts(orm);
  const sql = (query: string, params: unknown[]) => (orm.em.getContext() as unknown as SqlEntityManager).execute<Array<{ id: number }>>(query, params);
  const at = new Date('2026-03-01T10:00:00.000Z');
  let planId: number | undefined;
  let n = 0;
  return {
    async company(name) {
      planId ??= (await plans.add(planFixture('Plan'))).id;
      return (await companies.add(companyFixture(planId, name))).id;
    },
    async connection(companyId) {
      return (await connections.add(connectionFixture(companyId, `Connection ${++n}`))).id;
    },
    async user(companyId) {
      return (await users.add(userFixture(companyId, `user${++n}@example.test`))).id;
    },
    async queue(companyId) {
      return (await queues.add(queueFixture(companyId, `Queue ${++n}`))).id;
    },
    async tag(companyId, name) {
      return (await tags.add(tagFixture(companyId, name))).id;
    },
    async contactList(companyId, items) {
      const [list] = await sql('insert into contact_lists (company_id, name, created_at, updated_at) values (?, ?, ?, ?) returning id', [
        companyId,
        `List ${++n}`,
        at,
        at,
      ]);
      const itemIds: number[] = [];
      for (const item of items) {
        const [row] = await sql(
          `insert into contact_list_items (company_id, contact_list_id, name, number, canonical_number, email, validity, variables, created_at, updated_at)
           values (?, ?, ?, ?, ?, ?, ?, cast(? as jsonb), ?, ?) returning id`,
          [
            companyId,
            list!.id,
            item.name,
            item.number,
            item.canonicalNumber,
            item.email ?? '',
            item.validity ?? 'unknown',
            JSON.stringify(item.variables ?? {}),
            at,
            at,
          ],
        );
        itemIds.push(Number(row!.id));
      }
      return { id: Number(list!.id), itemIds };
    },
    async contact(companyId, c, tagIds = []) {
      const added = await contacts.add(
        contactDraft(companyId, c.number, { name: c.name, email: c.email ?? null, blocked: c.blocked ?? false, isGroup: c.isGroup ?? false }),
      );
      for (const tagId of tagIds) await tags.addContactTag(companyId, added.id, tagId);
      return added.id;
    },
  };
}

function fixtureOn(db: Database) {
  const p = campaignsRepositories(db.orm);
  return {
    campaigns: p.campaigns,
    recipients: p.campaignRecipients,
    pacing: p.campaignPacing,
    suppressions: p.campaignSuppressions,
    settings: p.campaignSettingsRows,
    audience: p.campaignAudience,
    tx: new MikroOrmTransaction(db.orm),
    seed: seedOn(db),
    rollsBack: true,
    db,
  };
}

describeOnEachDatabase(
  fixtureOn,
  (name, make) => {
    describeCampaignsContract(name, make);

    describe(`Campaign repositories on ${name}: what only SQL shows`, () => {
      let f: ReturnType<typeof fixtureOn>;
      beforeEach(async () => {
        f = await make();
      });

      it('adds 10,000 recipients in a few statements, not one per row', async () => {
        const company = await f.seed.company('One');
        const connection = await f.seed.connection(company);
        const campaign = await f.campaigns.add(campaignDraft(company, 'Big', { status: 'EM_ANDAMENTO', chatappId: connection }));
        const numbers = Array.from({ length: 10_000 }, (_, i) => `55119${70_000_000 + i}`);
        const conn = f.db.orm.em.getConnection();
        const execute = conn.execute.bind(conn);
        let statements = 0;
        conn.execute = ((...args: Parameters<typeof execute>) => {
          statements++;
          return execute(...args);
        }) as typeof conn.execute;
        try {
          expect(await f.recipients.addMany(numbers.map((n) => recipientDraft(campaign, n)))).to.equal(10_000);
        } finally {
          conn.execute = execute;
        }
        expect(statements).to.be.within(1, 10);
      });

      it('a deleted contact list, tag, connection, user or queue leaves the campaign without it; a deleted company takes its campaigns along', async () => {
        const company = await f.seed.company('One');
        const connection = await f.seed.connection(company);
        const list = await f.seed.contactList(company, []);
        const campaign = await f.campaigns.add(
          campaignDraft(company, 'Refs', {
            chatappId: connection,
            contactListId: list.id,
            tagListId: await f.seed.tag(company, 'VIP'),
            userId: await f.seed.user(company),
            queueId: await f.seed.queue(company),
          }),
        );
        await f.recipients.addMany([recipientDraft(campaign, '5511970000000')]);
        await f.pacing.recordSend(connection, new Date());
        const sql = (query: string) => (f.db.orm.em.getContext() as unknown as SqlEntityManager).execute(query);
        for (const table of ['contact_lists', 'tags', 'users', 'queues', 'connections']) await sql(`delete from ${table}`);
        expect(await f.campaigns.findById(company, campaign.id)).to.deep.include({
          contactListId: null,
          tagListId: null,
          chatappId: null,
          userId: null,
          queueId: null,
        });
        // The recipients keep their connection as it was: the report outlives it.
        expect((await f.recipients.list(company, campaign.id, { offset: 0, limit: 10 })).rows[0]).to.deep.include({ connectionId: connection });
        expect(await f.pacing.sendsSince(connection, new Date(0))).to.deep.equal([]);
        await sql('delete from companies');
        expect(await f.recipients.progress(company, campaign.id)).to.deep.include({ total: 0 });
        expect(await f.campaigns.findById(company, campaign.id)).to.equal(null);
      });
    });
  },
  OPTIONS,
);

describeFeatureDrift('campaign', OPTIONS, CAMPAIGN_TABLES);
