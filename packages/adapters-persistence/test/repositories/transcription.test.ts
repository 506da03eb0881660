import { expect } from 'chai';
import type { SqlEntityManager } from '@mikro-orm/postgresql';
import { credentialFixture, describeTranscriptionContract } from '@servicedesk/core/contracts/transcription-contract';
import { companyFixture, planFixture } from '@servicedesk/core/contracts/repositories-contract';
import {
  BACKEND_MIGRATIONS,
  BACKEND_SCHEMAS,
  MikroOrmCompanies,
  MikroOrmConnections,
  MikroOrmContacts,
  MikroOrmPlans,
  MikroOrmTickets,
  MikroOrmTransaction,
  type Database,
} from '../../src/index.js';
import { M0021Transcription } from '../../src/transcription/m0021-transcription.js';
import { transcriptionRepositories } from '../../src/transcription/repository.js';
import { TRANSCRIPTION_SCHEMAS } from '../../src/transcription/schema.js';
import { describeOnEachDatabase } from '../support/databases.js';
import { describeFeatureDrift } from '../support/feature-drift.js';

/** The backend's tables and the transcription's. */
const OPTIONS = {
  entities: [...BACKEND_SCHEMAS, ...TRANSCRIPTION_SCHEMAS],
  migrations: [...BACKEND_MIGRATIONS, { name: 'm0021-transcription', class: M0021Transcription }],
};
const TABLES = ['transcription_credentials', 'transcription_jobs'];

function fixtureOn(db: Database) {
  const { orm } = db;
  return {
    ...transcriptionRepositories(orm),
    companies: new MikroOrmCompanies(orm),
    plans: new MikroOrmPlans(orm),
    connections: new MikroOrmConnections(orm),
    contacts: new MikroOrmContacts(orm),
    tickets: new MikroOrmTickets(orm),
    tx: new MikroOrmTransaction(orm),
    db,
  };
}

describeOnEachDatabase(
  fixtureOn,
  (name, make) => {
    describeTranscriptionContract(name, make);

    describe(`Transcription repositories on ${name}: what only SQL shows`, () => {
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

      it('the table itself refuses a second default of a company and a provider it does not know, and keeps the key as sealed', async () => {
        const plan = await f.plans.add(planFixture('P'));
        const company = (await f.companies.add(companyFixture(plan.id, 'One'))).id;
        const a = await f.transcriptionCredentials.add(credentialFixture(company, 'A'));
        const b = await f.transcriptionCredentials.add(credentialFixture(company, 'B'));
        await sql('update transcription_credentials set is_default = true where id = ?', [a.id]);
        // 23505: unique_violation; 23514: check_violation.
        expect(await code(sql('update transcription_credentials set is_default = true where id = ?', [b.id]))).to.equal('23505');
        expect(await code(sql(`update transcription_credentials set provider = 'azure' where id = ?`, [a.id]))).to.equal('23514');
        expect(await sql('select api_key_sealed, api_key_hint from transcription_credentials where id = ?', [a.id])).to.deep.equal([
          { api_key_sealed: 'sealed-key', api_key_hint: 'abcd' },
        ]);
      });
    });
  },
  OPTIONS,
);

describeFeatureDrift('transcription', OPTIONS, TABLES);
