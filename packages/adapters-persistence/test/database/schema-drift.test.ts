import { expect } from 'chai';
import { EntitySchema } from '@mikro-orm/core';
import { integrationUrl } from '@servicedesk/core/contracts/integration-env';
import { BACKEND_SCHEMAS, openDatabase, type Database } from '../../src/index.js';
import { scratchDatabase } from '../support/databases.js';
import { expressionIndexDrift, schemaDiff } from '../support/schema-drift.js';

/** The backend's entity schemas with one of them replaced by an edited copy (same table, described differently). */
function withCopyOf(
  entity: string,
  edit: (copy: { properties: Record<string, any>; indexes: any[]; uniques: any[]; checks: any[] }) => void,
): EntitySchema<any>[] {
  return BACKEND_SCHEMAS.map((schema: EntitySchema<any>) => {
    const meta = schema.meta;
    if (meta.className !== entity) return schema;
    const copy = {
      properties: Object.fromEntries(Object.entries(meta.properties).map(([name, options]) => [name, { ...options }])),
      indexes: meta.indexes.map((i) => ({ ...i })),
      uniques: meta.uniques.map((u) => ({ ...u })),
      checks: meta.checks.map((c) => ({ ...c })),
    };
    edit(copy);
    return new EntitySchema<any>({ name: meta.className, tableName: meta.tableName, ...copy });
  });
}

interface Target {
  readonly name: string;
  readonly enabled: () => boolean;
  /** A new database, not yet migrated, and how to open another ORM (other entity schemas) on it. */
  readonly create: () => Promise<{ db: Database; openBeside: (entities: EntitySchema<any>[]) => Promise<Database>; drop: () => Promise<void> }>;
}

const TARGETS: Target[] = [
  {
    name: 'PGlite',
    enabled: () => true,
    // A PGlite of its own, not the run's shared one: other suites migrate more (features, the channel
    // runtime) into that one and leave their rows.
    create: async () => {
      const db = await openDatabase();
      return { db, openBeside: (entities) => openDatabase({ pglite: db.pglite!, entities }), drop: async () => {} };
    },
  },
  {
    name: 'PostgreSQL',
    enabled: () => Boolean(integrationUrl('TEST_DATABASE_URL')),
    create: async () => {
      const scratch = await scratchDatabase();
      const db = await openDatabase({ url: scratch.url, poolMax: 2 });
      return { db, openBeside: (entities) => openDatabase({ url: scratch.url, poolMax: 1, entities }), drop: () => scratch.drop() };
    },
  },
];

for (const target of TARGETS) {
  describe(`Schema drift on ${target.name}: the entity schemas describe what the migrations create`, function () {
    this.timeout(120_000);
    let made: Awaited<ReturnType<Target['create']>> | undefined;
    /** The diff of the backend's own entity schemas: what the cases below must add to, or leave as is. */
    let baseline = '';
    const db = () => made!.db;

    /** The diff of an ORM opened beside with other entity schemas. */
    async function diffWith(entities: EntitySchema<any>[]): Promise<string> {
      const other = await made!.openBeside(entities);
      try {
        return await schemaDiff(other.orm);
      } finally {
        await other.close();
      }
    }

    before(async function () {
      if (!target.enabled()) return this.skip();
      made = await target.create();
      await db().migrate();
      baseline = await schemaDiff(db().orm);
    });
    after(async () => {
      await made?.db.close();
      await made?.drop();
    });

    it('after every migration, MikroORM finds nothing to change', () => {
      expect(baseline, `the entity schemas and the migrations disagree; MikroORM would run:\n${baseline}\n`).to.equal('');
    });

    it('every index declared by SQL in an entity schema is the one the migrations create', async () => {
      const drift = await expressionIndexDrift(db().orm);
      expect(drift, `indexes differ:\n${drift.join('\n')}\n`).to.deep.equal([]);
    });

    it("another component's schema (the channel runtime's) does not count", async () => {
      const conn = db().orm.em.getConnection();
      // A stand-in: this database is the backend's alone, the channel runtime's migrations are not its to run.
      await conn.execute('create schema channel; create table channel.admins (id serial primary key, email varchar(254) not null)');
      try {
        expect(await schemaDiff(db().orm)).to.equal(baseline);
      } finally {
        await conn.execute('drop schema channel cascade');
      }
    });

    // Each case edits a copy of one entity schema and expects the statement that undoes the edit.
    describe('fails on drift: an edited copy of an entity schema', () => {
      it('an unedited copy changes nothing (the copy itself adds no difference)', async () => {
        expect(await diffWith(withCopyOf('Tag', () => {}))).to.equal(baseline);
      });

      const tag = (edit: Parameters<typeof withCopyOf>[1]) => () => withCopyOf('Tag', edit);
      const cases: Array<[string, () => EntitySchema<any>[], string]> = [
        [
          'a column of another type',
          tag((c) => {
            c.properties.name = { ...c.properties.name, length: 61 };
          }),
          'alter table "tags" alter column "name" type varchar(61)',
        ],
        [
          'a column missing',
          tag((c) => {
            delete c.properties.kanban;
          }),
          'alter table "tags" drop column "kanban"',
        ],
        [
          'a column nullable',
          tag((c) => {
            c.properties.laneOrder = { ...c.properties.laneOrder, nullable: true };
          }),
          'alter table "tags" alter column "lane_order" drop not null',
        ],
        [
          'another default',
          tag((c) => {
            c.properties.kanban = { ...c.properties.kanban, default: true };
          }),
          'alter table "tags" alter column "kanban" set default true',
        ],
        [
          'an index missing',
          tag((c) => {
            c.indexes = [];
          }),
          'drop index "tags_company_id_lane_order_idx"',
        ],
        [
          'a check constraint changed',
          tag((c) => {
            c.checks = [{ ...c.checks[0], expression: `color ~ '^#[0-9A-F]{3}$'` }];
          }),
          'tags_color_check',
        ],
        [
          'a foreign key with another delete rule',
          tag((c) => {
            c.properties.companyId = { ...c.properties.companyId, deleteRule: 'no action' };
          }),
          'tags_company_id_fkey',
        ],
        [
          'an enum column with another list of values',
          () =>
            withCopyOf('Ticket', (c) => {
              c.properties.status = { ...c.properties.status, items: ['pending', 'open'] };
            }),
          'tickets_status_check',
        ],
        [
          'a table no entity describes',
          () => BACKEND_SCHEMAS.filter((s: EntitySchema<any>) => s.meta.className !== 'TicketTag'),
          'drop table if exists "ticket_tags"',
        ],
      ];
      for (const [what, entities, expected] of cases) {
        it(what, async () => {
          expect(baseline).to.not.include(expected);
          expect(await diffWith(entities())).to.include(expected);
        });
      }

      it('an index declared by SQL that differs from the migrated one (compared by name only in the diff)', async () => {
        const entities = withCopyOf('Tag', (c) => {
          c.indexes = [{ name: 'tags_company_id_lane_order_idx', expression: 'create index tags_company_id_lane_order_idx on tags (company_id, lane_order)' }];
        });
        const other = await made!.openBeside(entities);
        try {
          expect(await schemaDiff(other.orm)).to.equal(baseline);
          const drift = await expressionIndexDrift(other.orm);
          expect(drift).to.have.length(1);
          expect(drift[0]).to.match(/^tags_company_id_lane_order_idx: /);
        } finally {
          await other.close();
        }
      });
    });
  });
}
