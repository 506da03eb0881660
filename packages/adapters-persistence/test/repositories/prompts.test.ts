import { expect } from 'chai';
import type { SqlEntityManager } from '@mikro-orm/postgresql';
import { describePromptsContract, promptFixture } from '@servicedesk/core/contracts/prompts-contract';
import { companyFixture, planFixture } from '@servicedesk/core/contracts/repositories-contract';
import { queueFixture } from '@servicedesk/core/contracts/queues-contract';
import {
  BACKEND_MIGRATIONS,
  BACKEND_SCHEMAS,
  MikroOrmCompanies,
  MikroOrmConnections,
  MikroOrmContacts,
  MikroOrmPlans,
  MikroOrmTickets,
  MikroOrmQueues,
  type Database,
} from '../../src/index.js';
import { M0023Prompts } from '../../src/prompts/m0023-prompts.js';
import { promptsRepositories } from '../../src/prompts/repository.js';
import { PROMPT_SCHEMAS } from '../../src/prompts/schema.js';
import { describeOnEachDatabase } from '../support/databases.js';
import { describeFeatureDrift } from '../support/feature-drift.js';

/** The backend's tables and the prompts'. */
const OPTIONS = {
  entities: [...BACKEND_SCHEMAS, ...PROMPT_SCHEMAS],
  migrations: [...BACKEND_MIGRATIONS, { name: 'm0023-prompts', class: M0023Prompts }],
};

function fixtureOn(db: Database) {
  const { orm } = db;
  return {
    ...promptsRepositories(orm),
    companies: new MikroOrmCompanies(orm),
    plans: new MikroOrmPlans(orm),
    queues: new MikroOrmQueues(orm),
    connections: new MikroOrmConnections(orm),
    contacts: new MikroOrmContacts(orm),
    tickets: new MikroOrmTickets(orm),
    db,
  };
}

describeOnEachDatabase(
  fixtureOn,
  (name, make) => {
    describePromptsContract(name, make);

    describe(`Prompts repository on ${name}: what only SQL shows`, () => {
      let f: ReturnType<typeof fixtureOn>;
      beforeEach(async () => {
        f = await make();
      });
      const sql = (query: string, params: unknown[] = []) =>
        (f.db.orm.em.getContext() as unknown as SqlEntityManager).execute<Array<Record<string, any>>>(query, params);

      it('keeps the key as sealed, counts tokens past int4, and loses the queue (not the prompt) when the queue is deleted', async () => {
        const plan = await f.plans.add(planFixture('P'));
        const company = await f.companies.add(companyFixture(plan.id, 'One'));
        const queue = await f.queues.add(queueFixture(company.id, 'Suporte'));
        const p = await f.prompts.add(promptFixture(company.id, 'Atendente', queue.id, { apiKeySealed: 'v1.sealed.value' }));
        const [row] = await sql('select api_key_sealed from prompts where id = ?', [p.id]);
        expect(row!.api_key_sealed).to.equal('v1.sealed.value');
        await f.prompts.addUsage(company.id, p.id, { promptTokens: 3_000_000_000, completionTokens: 1, totalTokens: 3_000_000_001 });
        expect((await f.prompts.findById(company.id, p.id))!.totalTokens).to.equal(3_000_000_001);
        await sql('delete from queues where id = ?', [queue.id]);
        expect((await f.prompts.findById(company.id, p.id))!.queueId).to.equal(null);
        expect(await f.prompts.findById(company.id, 2_147_483_648)).to.equal(null);
      });
    });
  },
  OPTIONS,
);

describeFeatureDrift('prompts', OPTIONS, ['prompts']);
