import { expect } from 'chai';
import { verify } from '@node-rs/argon2';
import { proto, type KeyPair } from 'baileys';
import { openDatabase, type Database } from '@servicedesk/adapters-persistence';
import { openPgliteDatabase, openPostgresDatabase } from '@servicedesk/adapters-persistence/testing';
import { integrationUrl } from '@servicedesk/core/contracts/integration-env';
import {
  CHANNEL_DATABASE_OPTIONS,
  CHANNEL_MIGRATIONS,
  DEFAULT_CHANNEL_ADMIN_EMAIL,
  DbAuthState,
  ChannelAdminSchema,
  channelAdminSeedFromEnv,
  databaseAuthStore,
  seedChannelAdmin,
} from '../../src/index.js';

interface Target {
  readonly name: string;
  readonly enabled: () => boolean;
  /** The channel database, migrated. */
  readonly open: () => Promise<Database>;
  /** The backend's database on the same server and database as the channel one, migrated. */
  readonly backendBeside: (channel: Database) => Promise<Database>;
}

const TARGETS: Target[] = [
  {
    name: 'PGlite',
    enabled: () => true,
    open: () => openPgliteDatabase(CHANNEL_DATABASE_OPTIONS),
    backendBeside: () => openPgliteDatabase(),
  },
  {
    name: 'PostgreSQL',
    enabled: () => Boolean(integrationUrl('TEST_DATABASE_URL')),
    open: () => openPostgresDatabase(CHANNEL_DATABASE_OPTIONS),
    backendBeside: async (channel) => {
      const db = await openDatabase({ url: channel.orm.config.get('clientUrl'), poolMax: 2 });
      await db.migrate();
      return db;
    },
  },
];

const keyPair = (seed: number): KeyPair => ({ public: Buffer.alloc(32, seed), private: new Uint8Array(32).fill(seed + 1) });

async function rows<T>(db: Database, sql: string): Promise<T[]> {
  return db.orm.em.getConnection().execute(sql);
}

for (const target of TARGETS) {
  describe(`Channel database on ${target.name}`, () => {
    let db: Database | undefined;
    const the = () => db!;

    before(async function () {
      if (!target.enabled()) return this.skip();
      db = await target.open();
    });
    after(async () => {
      await db?.close();
    });
    beforeEach(async () => {
      if (!db) return;
      await the().orm.em.getConnection().execute('delete from channel.auth_state; delete from channel.admins');
    });

    describe('schema and migrations', () => {
      it('creates its tables in the channel schema and records its migrations there', async () => {
        const tables = await rows<{ table_name: string }>(
          the(),
          "select table_name from information_schema.tables where table_schema = 'channel' order by table_name",
        );
        expect(tables.map((t) => t.table_name)).to.deep.equal([
          'admins',
          'auth_state',
          'channel_migrations',
          'sandbox_sent',
          'session_desired',
          'session_leases',
        ]);
        const done = await rows<{ name: string }>(the(), 'select name from channel.channel_migrations order by id');
        expect(done.map((m) => m.name)).to.deep.equal(CHANNEL_MIGRATIONS.map((m) => m.name));
      });

      it("leaves the backend's public tables and migration history untouched, and the other way round", async () => {
        const backend = await target.backendBeside(the());
        try {
          const publicTables = () =>
            rows<{ table_name: string }>(the(), "select table_name from information_schema.tables where table_schema = 'public' order by table_name");
          const backendHistory = () => rows<{ name: string }>(the(), 'select name from public.mikro_orm_migrations order by id');
          const tablesBefore = await publicTables();
          const historyBefore = await backendHistory();
          expect(tablesBefore.map((t) => t.table_name)).to.include('mikro_orm_migrations');
          // Run the channel's migrations from scratch beside the backend's.
          await the().orm.em.getConnection().execute('drop schema channel cascade');
          expect(await the().migrate()).to.deep.equal(CHANNEL_MIGRATIONS.map((m) => m.name));
          expect(await publicTables()).to.deep.equal(tablesBefore);
          expect(await backendHistory()).to.deep.equal(historyBefore);
          expect(historyBefore.map((m) => m.name)).to.not.include(CHANNEL_MIGRATIONS[0]!.name);
          expect(tablesBefore.map((t) => t.table_name)).to.not.include('channel_migrations');
          // Neither history makes the other migrator think it has work to do.
          expect(await backend.migrate()).to.deep.equal([]);
          expect(await the().migrate()).to.deep.equal([]);
        } finally {
          await backend.close();
        }
      });
    });

    describe('Baileys auth state', () => {
      it('starts with fresh credentials, and loads saved credentials with their Buffers intact', async () => {
        const first = await new DbAuthState(the(), 11).load();
        expect(first.state.creds.registered).to.equal(false);
        first.state.creds.me = { id: '5511999990000:4@s.whatsapp.net', name: 'Loja' };
        first.state.creds.registered = true;
        first.state.creds.routingInfo = Buffer.from([0, 1, 2, 250, 255]);
        await first.saveCreds();

        const again = await new DbAuthState(the(), 11).load();
        const creds = again.state.creds;
        expect(creds.me).to.deep.equal({ id: '5511999990000:4@s.whatsapp.net', name: 'Loja' });
        expect(creds.registered).to.equal(true);
        expect(Buffer.isBuffer(creds.noiseKey.public)).to.equal(true);
        expect(Buffer.from(creds.noiseKey.private).equals(Buffer.from(first.state.creds.noiseKey.private))).to.equal(true);
        expect(Buffer.from(creds.signedPreKey.signature).equals(Buffer.from(first.state.creds.signedPreKey.signature))).to.equal(true);
        expect(creds.routingInfo).to.deep.equal(Buffer.from([0, 1, 2, 250, 255]));
        expect(creds.advSecretKey).to.equal(first.state.creds.advSecretKey);
        expect(creds.registrationId).to.equal(first.state.creds.registrationId);
      });

      it('sets, gets and deletes signal keys by type and id, answering null for missing ids', async () => {
        const { state } = await new DbAuthState(the(), 12).load();
        await state.keys.set({
          'pre-key': { 1: keyPair(1), 2: keyPair(2) },
          session: { '5511988887777.0': Buffer.from('session-bytes') },
          'sender-key-memory': { '120363040000000000@g.us': { '5511988887777:0@s.whatsapp.net': true } },
        });
        const { state: reloaded } = await new DbAuthState(the(), 12).load();
        const preKeys = await reloaded.keys.get('pre-key', ['1', '2', '3']);
        expect(Object.keys(preKeys)).to.have.members(['1', '2', '3']);
        expect(preKeys['3']).to.equal(null);
        expect(Buffer.isBuffer(preKeys['1']!.public)).to.equal(true);
        expect(preKeys['1']!.public).to.deep.equal(Buffer.alloc(32, 1));
        expect(preKeys['2']!.private).to.deep.equal(Buffer.alloc(32, 3));
        expect((await reloaded.keys.get('session', ['5511988887777.0']))['5511988887777.0']).to.deep.equal(Buffer.from('session-bytes'));
        expect(await reloaded.keys.get('sender-key-memory', ['120363040000000000@g.us'])).to.deep.equal({
          '120363040000000000@g.us': { '5511988887777:0@s.whatsapp.net': true },
        });

        await reloaded.keys.set({ 'pre-key': { 1: null, 2: keyPair(9) } });
        const after = await reloaded.keys.get('pre-key', ['1', '2']);
        expect(after['1']).to.equal(null);
        expect(after['2']!.public).to.deep.equal(Buffer.alloc(32, 9));
      });

      it("revives app state sync keys as Baileys' protobuf objects", async () => {
        const { state } = await new DbAuthState(the(), 13).load();
        await state.keys.set({ 'app-state-sync-key': { AAAAAB: { keyData: Buffer.from([7, 7, 7]), timestamp: 1_700_000_000 } } });
        const got = await state.keys.get('app-state-sync-key', ['AAAAAB']);
        expect(got.AAAAAB).to.be.instanceOf(proto.Message.AppStateSyncKeyData);
        expect(Buffer.from(got.AAAAAB!.keyData!)).to.deep.equal(Buffer.from([7, 7, 7]));
      });

      it('keeps each connection apart, and clear() forgets only that connection', async () => {
        const store = databaseAuthStore(the());
        expect(store(21)).to.equal(store(21));
        const a = await store(21).load();
        const b = await store(22).load();
        await a.saveCreds();
        await b.saveCreds();
        await a.state.keys.set({ session: { x: Buffer.from('a') } });
        await b.state.keys.set({ session: { x: Buffer.from('b') } });
        expect((await a.state.keys.get('session', ['x'])).x).to.deep.equal(Buffer.from('a'));
        expect((await b.state.keys.get('session', ['x'])).x).to.deep.equal(Buffer.from('b'));

        await store(21).clear();
        expect((await a.state.keys.get('session', ['x'])).x).to.equal(null);
        const fresh = await store(21).load();
        expect(fresh.state.creds.advSecretKey).to.not.equal(a.state.creds.advSecretKey);
        const other = await store(22).load();
        expect(other.state.creds.advSecretKey).to.equal(b.state.creds.advSecretKey);
        expect((await other.state.keys.get('session', ['x'])).x).to.deep.equal(Buffer.from('b'));
      });

      it('keys.clear() forgets the keys but keeps the credentials', async () => {
        const { state, saveCreds } = await new DbAuthState(the(), 31).load();
        await saveCreds();
        await state.keys.set({ 'pre-key': { 5: keyPair(5) } });
        await state.keys.clear!();
        expect((await state.keys.get('pre-key', ['5']))['5']).to.equal(null);
        const reloaded = await new DbAuthState(the(), 31).load();
        expect(reloaded.state.creds.advSecretKey).to.equal(state.creds.advSecretKey);
      });

      it('applies writes of one connection in the order they were made', async () => {
        const auth = new DbAuthState(the(), 41);
        const { state } = await auth.load();
        const writes = Array.from({ length: 20 }, (_, i) => state.keys.set({ session: { s: Buffer.from([i]) } }));
        const read = state.keys.get('session', ['s']);
        await Promise.all(writes);
        expect((await read).s).to.deep.equal(Buffer.from([19]));
      });

      it('stores many keys at once (a pre-key upload)', async () => {
        const { state } = await new DbAuthState(the(), 51).load();
        const many: Record<string, KeyPair> = {};
        for (let i = 1; i <= 450; i++) many[i] = keyPair(i % 250);
        await state.keys.set({ 'pre-key': many });
        const got = await state.keys.get('pre-key', ['1', '450']);
        expect(got['450']!.public).to.deep.equal(Buffer.alloc(32, 450 % 250));
        const [count] = await rows<{ n: string | number }>(the(), 'select count(*) as n from channel.auth_state where connection_id = 51');
        expect(Number(count!.n)).to.equal(450);
      });
    });

    describe('admin seeder', () => {
      it("creates the component's admin once, with a must-change flag when the password is the default", async () => {
        const seed = channelAdminSeedFromEnv({});
        expect(seed).to.deep.equal({ email: DEFAULT_CHANNEL_ADMIN_EMAIL, password: '123456', passwordIsDefault: true });
        const first = await seedChannelAdmin(the(), seed);
        const second = await seedChannelAdmin(the(), { ...seed, password: 'another-one' });
        expect(first.created).to.equal(true);
        expect(second).to.deep.equal({ id: first.id, created: false });
        const admins = await the().orm.em.fork().find(ChannelAdminSchema, {});
        expect(admins).to.have.length(1);
        expect(admins[0]).to.include({ email: 'admin@channel.local', mustChangePassword: true });
        expect(admins[0]!.passwordHash).to.match(/^\$argon2id\$/);
        expect(await verify(admins[0]!.passwordHash, '123456')).to.equal(true);
      });

      it('takes the email and password from the environment, without the must-change flag', async () => {
        const seed = channelAdminSeedFromEnv({ CHANNEL_ADMIN_EMAIL: 'Ops@Example.com', CHANNEL_ADMIN_PASSWORD: 's3cret-pass' });
        expect(seed.passwordIsDefault).to.equal(false);
        await Promise.all([seedChannelAdmin(the(), seed), seedChannelAdmin(the(), seed)]);
        const admins = await the().orm.em.fork().find(ChannelAdminSchema, {});
        expect(admins.map((a) => [a.email, a.mustChangePassword])).to.deep.equal([['ops@example.com', false]]);
        expect(await verify(admins[0]!.passwordHash, 's3cret-pass')).to.equal(true);
      });
    });
  });
}
