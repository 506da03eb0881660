import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { login, startTestBackend, type TestBackend } from '../../support/test-backend.js';
import { openSocketIo } from '../../support/socket-io-client.js';
import type { CallerApis, ClientCall, ClientCalls, Params } from './client-call.js';
import { sharedFixture } from './fixture.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const files = readdirSync(path.join(here, 'calls'))
  .filter((f) => f.endsWith('.ts'))
  .sort();
const areas: ClientCalls[] = [];
for (const file of files) areas.push((await import(`./calls/${file}`)).default as ClientCalls);

/** `:ticketId` → the fixture's value; an unknown name fails the entry rather than calling a wrong path. */
function fill(template: string, p: Params): string {
  return template.replace(/:([A-Za-z]\w*)/g, (_, name: string) => {
    if (!(name in p)) throw new Error(`no fixture value for :${name}`);
    return encodeURIComponent(String(p[name]));
  });
}

/** As axios 0.21 writes `params`: arrays as `key[]=v`, objects as JSON, null and undefined left out. */
function queryString(query: Readonly<Record<string, unknown>>): string {
  const parts: string[] = [];
  const add = (k: string, v: unknown) => parts.push(`${encodeURIComponent(k)}=${encodeURIComponent(typeof v === 'object' ? JSON.stringify(v) : String(v))}`);
  for (const [k, v] of Object.entries(query)) {
    if (v === null || v === undefined) continue;
    if (Array.isArray(v)) for (const item of v) add(`${k}[]`, item);
    else add(k, v);
  }
  return parts.length ? `?${parts.join('&')}` : '';
}

/** Every value at a read path (`tickets[].contact.name`); fails where a step is missing or an array is empty. */
function readAll(root: unknown, readPath: string): unknown[] {
  let values: unknown[] = [root];
  const steps = readPath
    .split('.')
    .flatMap((s) => s.split(/(?=\[\])|(?<=\[\])/))
    .filter(Boolean);
  let walked = '';
  for (const step of steps) {
    walked = walked ? (step === '[]' ? `${walked}[]` : `${walked}.${step}`) : step;
    const next: unknown[] = [];
    for (const v of values) {
      if (step === '[]') {
        if (!Array.isArray(v)) throw new Error(`${walked}: not an array (${JSON.stringify(v)?.slice(0, 200)})`);
        if (v.length === 0) throw new Error(`${walked}: empty, nothing to check`);
        next.push(...v);
      } else {
        if (v === null || typeof v !== 'object' || !(step in v)) throw new Error(`${walked}: missing in ${JSON.stringify(v)?.slice(0, 300)}`);
        next.push((v as Record<string, unknown>)[step]);
      }
    }
    values = next;
  }
  return values;
}

function titleOf(c: ClientCall): string {
  return `${c.page}: ${c.method} ${c.path}${c.status && c.status >= 300 ? ` → ${c.status}` : ''}`;
}

describe("Contract: the lineage client's calls, replayed against the real server", () => {
  let b: TestBackend;
  let apis: CallerApis;
  let params: Params;
  let socket: ReturnType<typeof openSocketIo>;

  before(async function () {
    this.timeout(60_000);
    // Private addresses allowed: the transcription entries' speech-to-text service is a fake on loopback.
    b = await startTestBackend({ OUTBOX_RELAY_INTERVAL_MS: '100', ALLOW_PRIVATE_URLS: 'true' });
    await b.reset();
    ({ params, apis } = await sharedFixture(b));
    for (const area of areas) if (area.prepare) params = { ...params, ...(await area.prepare(params, apis)) };
    const { token } = await login(b.url, 'carla@desk.test', 'admin-pass-123');
    socket = openSocketIo(b.url, Number(params.companyId), token);
    await socket.connected;
  });
  after(async () => {
    socket?.close();
    await b?.close();
  });

  for (const area of areas) {
    describe(area.area, () => {
      for (const c of area.calls) {
        it(titleOf(c), async () => {
          const p: Params = { ...params, ...(c.setup ? await c.setup(params, apis) : {}) };
          const api = apis[c.as ?? 'admin'];
          const query = typeof c.query === 'function' ? c.query(p) : c.query;
          const url = fill(c.path, p) + (query ? queryString(query) : '');
          const seen = socket.events.length;
          let body: unknown = typeof c.body === 'function' ? (c.body as (p: Params) => unknown)(p) : c.body;
          if (c.form) {
            const form = new FormData();
            const fields = typeof c.form.fields === 'function' ? c.form.fields(p) : c.form.fields;
            for (const [k, v] of Object.entries(fields ?? {})) form.append(k, v);
            for (const f of c.form.files ?? []) form.append(f.field, new Blob([f.content], { type: f.type }), f.name);
            body = form;
          }
          const headers = typeof c.headers === 'function' ? c.headers(p) : c.headers;
          const res = await api.call(c.method, url, c.method === 'GET' || c.method === 'DELETE' ? body : (body ?? {}), headers ? { ...headers } : undefined);
          const shown = `${c.method} ${url} → ${res.status} ${JSON.stringify(res.body)?.slice(0, 600)}`;
          if (c.status) expect(res.status, shown).to.equal(c.status);
          else expect(res.status, shown).to.be.within(200, 299);
          const returns = c.returns ?? 'object';
          if (returns === 'empty') expect(res.body, shown).to.equal(undefined);
          else if (returns === 'array') expect(res.body, shown).to.be.an('array');
          else if (returns === 'string') expect(res.body, shown).to.be.a('string');
          else expect(res.body, shown).to.be.an('object').and.not.an('array');
          for (const read of c.reads ?? []) readAll(res.body, read);
          for (const e of c.emits ?? []) {
            const name = e.name ?? `company-${p.companyId}-${fill(e.event, p)}`;
            const found = await socket.waitFor((x) => socket.events.indexOf(x) >= seen && x.event === name && (!e.action || x.data?.action === e.action));
            for (const read of e.reads) readAll(found.data, read);
          }
        });
      }
    });
  }
});
