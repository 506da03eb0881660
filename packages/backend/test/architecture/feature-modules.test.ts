import { expect } from 'chai';
import { route } from '@servicedesk/adapters-http';
import { DETACHED_CHANNEL_QUERIES, InMemoryCache, InProcessBroker, InProcessRealtimeFanout } from '@servicedesk/core';
import { InMemoryBlobStorage } from '@servicedesk/core/testing';
import { completeSchema } from '@servicedesk/adapters-persistence';
import { openPgliteDatabase } from '@servicedesk/adapters-persistence/testing';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { pino } from 'pino';
import { readConfig } from '../../src/config.js';
import { createContainer, resolveBackend } from '../../src/container.js';
import { FEATURES, databaseSchema } from '../../src/modules.js';
import { feature, type FeatureContext } from '../../src/modules/feature.js';
import type { Infrastructure } from '../../src/infrastructure.js';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

/**
 * The files that list features: every source file of every package that imports from the folders
 * or files of at least half the backend's features (`./schedules.js`, `../schedules/…`,
 * `./modules/schedules.js`), barrels (files of nothing but `export … from`) aside, since features
 * import each other by path.
 */
function featureLists(extra: Readonly<Record<string, string>> = {}): string[] {
  const kebab = FEATURES.map((f) => f.name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`));
  const found: string[] = [];
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? walk(path.join(dir, e.name)) : e.name.endsWith('.ts') ? [path.join(dir, e.name)] : [],
    );
  const sources = new Map<string, string>();
  for (const pkg of readdirSync(path.join(ROOT, 'packages'))) {
    let files: string[];
    try {
      files = walk(path.join(ROOT, 'packages', pkg, 'src'));
    } catch {
      continue;
    }
    for (const file of files) sources.set(path.relative(ROOT, file), readFileSync(file, 'utf8'));
  }
  for (const [file, text] of Object.entries(extra)) sources.set(file, text);
  for (const [file, text] of sources) {
    const statements = text
      .replace(/\/\*[\s\S]*?\*\//g, '')
      .split('\n')
      .filter((l) => l.trim() && !l.trim().startsWith('//'));
    const specifiers = [...text.matchAll(/(?:from|import)\s*\(?\s*'([^']+)'/g)].map((m) => m[1]!);
    const named = new Set(
      specifiers.flatMap((s) =>
        s
          .split('/')
          .map((seg) => seg.replace(/\.js$/, ''))
          .filter((seg) => kebab.includes(seg)),
      ),
    );
    const barrel = statements.every((l) => /^export (\*|\{[^}]*\}|type \{[^}]*\}) from '[^']+';$/.test(l.trim()));
    if (named.size >= kebab.length / 2 && !barrel) found.push(file);
  }
  return found.sort();
}

/** The lists every new feature edits: its core module entry and its backend module entry. */
const EVERY_FEATURE_EDITS = {
  'packages/core/src/compose/index.ts': 'CORE_MODULES, the core map CorePorts and Application are derived from',
  'packages/backend/src/modules.ts': 'FEATURES, the backend list',
};
/** Lists a feature edits only when it has what they hold. */
const ONLY_WITH = {
  'packages/adapters-persistence/src/features.ts': 'tables: PERSISTENCE_FEATURES, its repositories and tables',
  'packages/core/src/in-memory/ports.ts': 'ports of its own: their in-memory adapters',
};
/** Catalogs of what the features publish, checked by their own tests. */
const CATALOGS = {
  'packages/core/src/events/realtime-event.ts': 'the realtime events',
};

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

  it('has a new feature edit at most two lists: any other file that lists features fails here', () => {
    const lists = featureLists();
    expect(lists, 'files that list features, beyond the known lists and catalogs').to.deep.equal(
      Object.keys({ ...EVERY_FEATURE_EDITS, ...ONLY_WITH, ...CATALOGS }).sort(),
    );
    expect(Object.keys(EVERY_FEATURE_EDITS).length).to.be.at.most(2);
    // The derived lists stay derived: the core's application and ports come from its map.
    const application = readFileSync(path.join(ROOT, 'packages/core/src/application.ts'), 'utf8');
    expect(application).to.not.match(/create[A-Z]\w+\(/);
  });

  it('finds a third list when one is written (the check can fail), and leaves barrels aside', () => {
    const imports = (from: (feature: string) => string) =>
      FEATURES.map((f, i) => `import { part${i} } from '${from(f.name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`))}';`).join('\n');
    const registry = `${imports((f) => `@servicedesk/adapters-http/${f}/routes`)}\nexport const ALL = [];\n`;
    expect(featureLists({ 'packages/adapters-http/src/all-routes.ts': registry })).to.include('packages/adapters-http/src/all-routes.ts');
    const barrel = FEATURES.map((f) => `export * from './${f.name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}/routes.js';`).join('\n');
    expect(featureLists({ 'packages/adapters-http/src/all-routes.ts': barrel })).to.not.include('packages/adapters-http/src/all-routes.ts');
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
