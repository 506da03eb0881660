import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { integrationUrl } from '@servicedesk/core/contracts/integration-env';
import { expect } from 'chai';

const ROOT = new URL('../../../../', import.meta.url);

/**
 * Libraries that cost tens of MB once imported and that only some configurations use: none of
 * them may be imported by the start-up modules, only where (and when) the configuration needs it.
 */
const ON_DEMAND = [
  'baileys',
  '@google-cloud/storage',
  '@aws-sdk/client-s3',
  'exceljs',
  'csv-parse',
  'ioredis',
  'nats',
  '@electric-sql/pglite',
  'mikro-orm-pglite',
];

/** Records, in a file, every package under node_modules that an import resolves to. */
const HOOKS = `
import { appendFileSync } from 'node:fs';
let log;
export function initialize(data) { log = data.log; }
export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  const m = /\\/node_modules\\/((?:@[^/]+\\/)?[^/]+)\\//.exec(result.url);
  if (m) appendFileSync(log, m[1] + '\\n');
  return result;
}
`;

const REGISTER = `
import { register } from 'node:module';
register(new URL('./hooks.mjs', import.meta.url), { data: { log: process.env.IMPORT_LOG } });
`;

/**
 * What the child does: import the backend's and the runtime's start modules, assemble a runtime
 * with every connector (configured, none started), make a GCS adapter, open PostgreSQL when the
 * suite has one; then start one Baileys session on a fake socket. It prints the packages loaded
 * at both points.
 */
const SCRIPT = `
import { readFileSync } from 'node:fs';
const root = process.env.ROOT_URL;
const loaded = () => [...new Set(readFileSync(process.env.IMPORT_LOG, 'utf8').split('\\n').filter(Boolean))];
const src = (file) => import(new URL(file, root).href);
await src('packages/backend/src/backend.ts');
await src('packages/backend/src/container.ts');
const runtime = await src('packages/channel-runtime/src/index.ts');
const core = await src('packages/core/src/index.ts');
const persistence = await src('packages/adapters-persistence/src/index.ts');
const logger = { info() {}, warn() {}, error() {} };
runtime.assembleRuntime({
  broker: new core.InProcessBroker(), database: {}, logger, graphApiUrl: 'http://127.0.0.1:9', connectors: runtime.parseConnectors('sandbox,baileys,graph'),
});
persistence.createGcsBlobStorage({ bucket: 'bucket', projectId: 'test' }).publicUrl('a.txt');
if (process.env.DATABASE_URL) {
  const db = await persistence.openDatabase({ url: process.env.DATABASE_URL, poolMax: 1, entities: [], migrations: [] });
  await db.close();
}
const atStart = loaded();
const socket = { ev: { on() {}, off() {} }, async sendMessage() {}, async onWhatsApp() {}, async logout() {}, async end() {} };
const auth = { connectionId: 9, async load() { return { state: { creds: {}, keys: {} }, saveCreds: async () => {} }; }, async clear() {} };
const baileys = new runtime.BaileysConnector({ makeSocket: () => socket, authStore: () => auth, logger });
const session = await baileys.start(
  { type: 'SessionControl', action: 'start', companyId: 1, chatappId: 9, provider: 'baileys', secrets: {}, externalId: null },
  { status() {}, inbound() {}, delivery() {} },
);
await session.stop({ logout: false });
console.log(JSON.stringify({ atStart, afterBaileys: loaded() }));
`;

describe('Architecture: heavy libraries load on demand', function () {
  this.timeout(120_000);

  it('the start-up modules import none of them; starting a Baileys session imports Baileys', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'sd-imports-'));
    try {
      await writeFile(path.join(dir, 'hooks.mjs'), HOOKS);
      await writeFile(path.join(dir, 'register.mjs'), REGISTER);
      const log = path.join(dir, 'loaded.txt');
      await writeFile(log, '');
      const databaseUrl = integrationUrl('TEST_DATABASE_URL');
      const { stdout } = await promisify(execFile)(
        process.execPath,
        ['--conditions=source', '--import', 'tsx', '--import', new URL(`file://${dir}/register.mjs`).href, '--input-type=module', '-e', SCRIPT],
        {
          cwd: new URL('packages/backend/', ROOT).pathname,
          env: { ...process.env, IMPORT_LOG: log, ROOT_URL: ROOT.href, DATABASE_URL: databaseUrl ?? '' },
          maxBuffer: 16 * 1024 * 1024,
        },
      );
      const { atStart, afterBaileys } = JSON.parse(stdout.trim().split('\n').at(-1)!) as { atStart: string[]; afterBaileys: string[] };
      // The log sees imports at all: the libraries every start needs are in it.
      expect(atStart).to.include.members(['koa', '@mikro-orm/core', 'pino']);
      if (databaseUrl) expect(atStart).to.include('@mikro-orm/postgresql');
      expect(atStart.filter((name) => ON_DEMAND.includes(name))).to.deep.equal([]);
      expect(afterBaileys).to.include('baileys');
      expect(await readFile(log, 'utf8')).to.not.equal('');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
