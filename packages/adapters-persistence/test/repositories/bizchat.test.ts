import { expect } from 'chai';
import type { SqlEntityManager } from '@mikro-orm/postgresql';
import { bizchatTemplateFixture, describeBizchatTemplatesContract } from '@servicedesk/core/contracts/bizchat-contract';
import { connectionFixture } from '@servicedesk/core/contracts/messaging-contract';
import { twoCompanies } from '@servicedesk/core/contracts/repositories-contract';
import {
  BACKEND_MIGRATIONS,
  BACKEND_SCHEMAS,
  PERSISTENCE_FEATURES,
  MikroOrmCompanies,
  MikroOrmConnections,
  MikroOrmContacts,
  MikroOrmMessages,
  MikroOrmPlans,
  MikroOrmTickets,
  type Database,
} from '../../src/index.js';
import { bizchatRepositories } from '../../src/bizchat/repository.js';
import { describeOnEachDatabase } from '../support/databases.js';
import { describeFeatureDrift } from '../support/feature-drift.js';

/** The backend's tables and the bizchat feature's. */
const OPTIONS = {
  entities: [...BACKEND_SCHEMAS, ...PERSISTENCE_FEATURES.bizchat.entities],
  migrations: [...BACKEND_MIGRATIONS, ...PERSISTENCE_FEATURES.bizchat.migrations],
};

function fixtureOn(db: Database) {
  const { orm } = db;
  return {
    ...bizchatRepositories(orm),
    companies: new MikroOrmCompanies(orm),
    plans: new MikroOrmPlans(orm),
    connections: new MikroOrmConnections(orm),
    contacts: new MikroOrmContacts(orm),
    tickets: new MikroOrmTickets(orm),
    messages: new MikroOrmMessages(orm),
    db,
  };
}

describeOnEachDatabase(
  fixtureOn,
  (name, make) => {
    describeBizchatTemplatesContract(name, make);

    describe(`Bizchat templates repository on ${name}: what only SQL shows`, () => {
      let f: ReturnType<typeof fixtureOn>;
      beforeEach(async () => {
        f = await make();
      });
      const sql = (query: string, params: unknown[] = []) =>
        (f.db.orm.em.getContext() as unknown as SqlEntityManager).execute<Array<Record<string, any>>>(query, params);

      it('keeps components and counts as jsonb, refuses a second row of one name and language, and goes with its connection', async () => {
        const [c1] = await twoCompanies(f);
        const connection = await f.connections.add(
          connectionFixture(c1, 'Oficial', { kind: 'bizchat', provider: 'cloudapi', externalId: '1065', secrets: { wabaId: 'W', accessToken: 't' } }),
        );
        await f.bizchatTemplates.replaceAll(c1, connection.id, [bizchatTemplateFixture(c1, connection.id, 'order_update', 'pt_BR')]);
        const [row] = await sql(`select jsonb_typeof(components) as components, parameters->'body' as body from bizchat_templates where connection_id = ?`, [
          connection.id,
        ]);
        expect([row!.components, row!.body]).to.deep.equal(['array', ['1', '2']]);
        const duplicate = bizchatTemplateFixture(c1, connection.id, 'order_update', 'pt_BR');
        const refused = await f.bizchatTemplates.replaceAll(c1, connection.id, [duplicate, { ...duplicate, metaId: 'other' }]).then(
          () => null,
          (e: Error) => e.message,
        );
        expect(refused).to.include('bizchat_templates_connection_name_language_unique');
        await sql('delete from connections where id = ?', [connection.id]);
        expect(await sql('select id from bizchat_templates')).to.deep.equal([]);
      });
    });
  },
  OPTIONS,
);

describeFeatureDrift('bizchat', OPTIONS, ['bizchat_templates']);
