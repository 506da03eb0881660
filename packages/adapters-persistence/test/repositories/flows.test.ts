import { expect } from 'chai';
import type { SqlEntityManager } from '@mikro-orm/postgresql';
import { describeFlowsContract, flowFixture } from '@servicedesk/core/contracts/flows-contract';
import { describeFlowRunsContract } from '@servicedesk/core/contracts/flow-runs-contract';
import { companyFixture, planFixture, userFixture } from '@servicedesk/core/contracts/repositories-contract';
import { BACKEND_MIGRATIONS, BACKEND_SCHEMAS, MikroOrmCompanies, MikroOrmPlans, MikroOrmUsers, type Database } from '../../src/index.js';
import { M0029Flows } from '../../src/flows/m0029-flows.js';
import { M0032FlowRuns } from '../../src/flows/m0032-flow-runs.js';
import { PERSISTENCE_FEATURES } from '../../src/features.js';
import { flowsRepositories } from '../../src/flows/repository.js';
import { FLOW_SCHEMAS } from '../../src/flows/schema.js';
import { describeOnEachDatabase } from '../support/databases.js';
import { describeFeatureDrift } from '../support/feature-drift.js';

/** The backend's tables and the flows'. */
const OPTIONS = {
  entities: [...BACKEND_SCHEMAS, ...FLOW_SCHEMAS],
  migrations: [...BACKEND_MIGRATIONS, { name: 'm0029-flows', class: M0029Flows }, { name: 'm0032-flow-runs', class: M0032FlowRuns }],
};

function fixtureOn(db: Database) {
  const { orm } = db;
  return {
    ...flowsRepositories(orm),
    ...PERSISTENCE_FEATURES.messaging.repositories(orm),
    ...PERSISTENCE_FEATURES.contacts.repositories(orm),
    companies: new MikroOrmCompanies(orm),
    plans: new MikroOrmPlans(orm),
    users: new MikroOrmUsers(orm),
    db,
  };
}

describeOnEachDatabase(
  fixtureOn,
  (name, make) => {
    describeFlowsContract(name, make);
    describeFlowRunsContract(name, make);

    describe(`Flows repository on ${name}: what only SQL shows`, () => {
      let f: ReturnType<typeof fixtureOn>;
      beforeEach(async () => {
        f = await make();
      });
      const sql = (query: string, params: unknown[] = []) =>
        (f.db.orm.em.getContext() as unknown as SqlEntityManager).execute<Array<Record<string, any>>>(query, params);

      it('keeps graphs as jsonb, refuses a version published twice, and forgets who published when that user is deleted', async () => {
        const plan = await f.plans.add(planFixture('P'));
        const company = await f.companies.add(companyFixture(plan.id, 'One'));
        const user = await f.users.add(userFixture(company.id, 'pub@one.test'));
        const flow = await f.flows.add(flowFixture(company.id, 'Vendas'));
        const [row] = await sql(
          `select jsonb_typeof(draft) as draft, jsonb_typeof(triggers) as triggers, draft -> 'nodes' -> 1 -> 'data' ->> 'text' as text from flows where id = ?`,
          [flow.id],
        );
        expect(row).to.deep.equal({ draft: 'object', triggers: 'array', text: 'Olá, {{firstName}}! Ação: "já"' });
        const version = { flowId: flow.id, companyId: company.id, version: 1, graph: flow.draft, publishedBy: user.id, publishedAt: new Date() };
        await f.flows.addVersion(version);
        let failed = false;
        try {
          await f.flows.addVersion(version);
        } catch {
          failed = true;
        }
        expect(failed).to.equal(true);
        await sql('delete from users where id = ?', [user.id]);
        expect((await f.flows.findVersion(company.id, flow.id, 1))!.publishedBy).to.equal(null);
      });
    });
  },
  OPTIONS,
);

describeFeatureDrift('flows', OPTIONS, ['flows', 'flow_versions', 'flow_runs', 'flow_run_steps']);
