import { expect } from 'chai';
import { integrationUrl } from '@servicedesk/core/contracts/integration-env';
import { openDatabase, type Database, type DatabaseOptions } from '../../src/index.js';
import { scratchDatabase } from './databases.js';
import { expressionIndexDrift, schemaDiff } from './schema-drift.js';

/**
 * Checks that a feature's entity schemas describe exactly what its migrations create, on a fresh
 * database of its own (PGlite always, PostgreSQL when TEST_DATABASE_URL is set): MikroORM's diff and
 * the expression indexes, limited to the feature's `tables`.
 */
export function describeFeatureDrift(label: string, options: Partial<DatabaseOptions>, tables: readonly string[]): void {
  const targets: Array<{ name: string; enabled: () => boolean; open: () => Promise<{ db: Database; drop: () => Promise<void> }> }> = [
    { name: 'PGlite', enabled: () => true, open: async () => ({ db: await openDatabase(options), drop: async () => {} }) },
    {
      name: 'PostgreSQL',
      enabled: () => Boolean(integrationUrl('TEST_DATABASE_URL')),
      open: async () => {
        const scratch = await scratchDatabase();
        return { db: await openDatabase({ ...options, url: scratch.url, poolMax: 2 }), drop: () => scratch.drop() };
      },
    },
  ];
  const ours = (line: string) => tables.some((t) => line.includes(`"${t}"`) || line.includes(`${t}_`));
  for (const target of targets) {
    describe(`Schema drift of the ${label} tables on ${target.name}`, function () {
      this.timeout(120_000);
      let opened: { db: Database; drop: () => Promise<void> } | undefined;
      before(async function () {
        if (!target.enabled()) return this.skip();
        opened = await target.open();
        await opened.db.migrate();
      });
      after(async () => {
        await opened?.db.close();
        await opened?.drop();
      });

      it('MikroORM finds nothing to change in them after their migrations', async () => {
        const diff = (await schemaDiff(opened!.db.orm)).split('\n').filter(ours);
        expect(diff, `the entity schemas and the migrations disagree; MikroORM would run:\n${diff.join('\n')}\n`).to.deep.equal([]);
        expect((await expressionIndexDrift(opened!.db.orm)).filter((line) => tables.some((t) => line.startsWith(`${t}_`)))).to.deep.equal([]);
      });
    });
  }
}
