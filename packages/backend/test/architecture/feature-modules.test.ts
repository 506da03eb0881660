import { expect } from 'chai';
import { route } from '@servicedesk/adapters-http';
import { DETACHED_CHANNEL_QUERIES, InMemoryCache, InProcessBroker, InProcessRealtimeFanout } from '@servicedesk/core';
import { InMemoryBlobStorage } from '@servicedesk/core/testing';
import { completeSchema } from '@servicedesk/adapters-persistence';
import { openPgliteDatabase } from '@servicedesk/adapters-persistence/testing';
import { pino } from 'pino';
import { readConfig } from '../../src/config.js';
import { createContainer, resolveBackend } from '../../src/container.js';
import { FEATURES, databaseSchema } from '../../src/modules.js';
import { feature, type FeatureContext } from '../../src/modules/feature.js';
import type { Infrastructure } from '../../src/infrastructure.js';

/** A feature as a new route group would write it: its own port, use case, route and consumer. */
const notes = feature({
  name: 'notes',
  ports: () => ({ noteBook: new Map<number, string>() }),
  api: (ports) => ({
    notes: {
      write: (id: number, text: string) => {
        ports.noteBook.set(id, text);
        return { id, text, at: ports.clock.now() };
      },
    },
  }),
  routes: (app) => [
    route({ method: 'GET', path: '/notes', auth: 'none', tag: 'Notes', summary: 'Write a note', handler: async () => app.notes.write(1, 'hi') }),
  ],
  consumers: () => [{ durable: 'notes', subject: 'evt.notes.>', handle: async () => undefined }],
});

describe('Architecture: feature modules', () => {
  let context: Omit<FeatureContext, 'jobDefinitions'>;
  let close: () => Promise<void>;
  before(async () => {
    const db = await openPgliteDatabase(databaseSchema());
    const infra: Infrastructure = {
      db,
      cache: new InMemoryCache(),
      blobs: new InMemoryBlobStorage(),
      fanout: new InProcessRealtimeFanout(),
      broker: new InProcessBroker(),
      async close() {
        await db.close();
      },
    };
    context = {
      config: readConfig({ JWT_SECRET: 'test-secret-test-secret-test-secret-0123', DATA_DIR: '/tmp/unused' }),
      infra,
      jwtSecret: 'test-secret-test-secret-test-secret-0123',
      channelQueries: DETACHED_CHANNEL_QUERIES,
      startedAt: new Date(),
      version: '0.0.0',
      log: pino({ level: 'silent' }),
    };
    close = () => infra.close();
  });
  after(async () => {
    await close();
  });

  it('composes every listed feature into one namespaced application, its routes and its consumers', () => {
    const { app, routes, consumers } = resolveBackend(createContainer(context));
    expect(Object.keys(app)).to.include.members([
      'identity',
      'tenancy',
      'settings',
      'companyApi',
      'connections',
      'tickets',
      'conversations',
      'outbox',
      'tags',
      'contacts',
      'queues',
    ]);
    expect(routes.length).to.be.greaterThan(150);
    expect(consumers.map((c) => c.durable)).to.include.members(['backend-message-events', 'backend-integration-deliveries']);
  });

  it('adds a feature from one entry in the list: its namespace sees the shared ports, its routes and consumers join', () => {
    const { app, routes, consumers } = resolveBackend(createContainer(context, [...FEATURES, notes]));
    const written = (app as unknown as { notes: { write(id: number, text: string): { id: number; text: string; at: Date } } }).notes.write(7, 'x');
    expect(written.id).to.equal(7);
    expect(written.at).to.be.instanceOf(Date);
    expect(routes.map((r) => r.path)).to.include('/notes');
    expect(consumers.map((c) => c.durable)).to.include('notes');
  });

  it('refuses two features that provide the same namespace or the same port', () => {
    const twin = feature({ name: 'twin', api: () => ({ notes: {} }) });
    expect(() => resolveBackend(createContainer(context, [...FEATURES, notes, twin]))).to.throw(/namespace "notes" is provided by both notes and twin/);
    const clash = feature({ name: 'clash', ports: () => ({ clock: { now: () => new Date(0) } }) });
    expect(() => resolveBackend(createContainer(context, [...FEATURES, clash]))).to.throw(/port "clock" is provided by both platform and clash/);
  });

  it('collects the tables of every feature, migrations in name order, and refuses two migrations of one name', () => {
    class M {
      async up() {
        /* nothing */
      }
    }
    const extra = feature({ name: 'extra', migrations: [{ name: 'm9999-extra', class: M }] });
    const schema = databaseSchema([...FEATURES, extra]);
    expect(schema.migrations.at(-1)!.name).to.equal('m9999-extra');
    const names = schema.migrations.map((m) => m.name);
    expect(names).to.deep.equal([...names].sort());
    expect(() => databaseSchema([...FEATURES, extra, extra])).to.throw(/share a name/);
  });

  it('has every table the complete schema (what mikroOrmRepositories needs) lists, and no other', () => {
    const backend = databaseSchema();
    const complete = completeSchema();
    expect(backend.migrations.map((m) => m.name)).to.deep.equal(complete.migrations.map((m) => m.name));
    const names = (entities: readonly { meta: { className: string } }[]) => entities.map((e) => e.meta.className).sort();
    expect(names(backend.entities)).to.deep.equal(names(complete.entities));
  });
});
