import { parseArgs } from 'node:util';
import WebSocket from 'ws';

/**
 * `npm run check:deployment -- --url <backend>`: the first start-up checklist as a command. Each
 * step prints PASS or FAIL with what to do; the exit code is the number of failed steps.
 */
const { values } = parseArgs({
  options: {
    url: { type: 'string', default: process.env.BACKEND_URL ?? 'http://localhost:8080' },
    email: { type: 'string', default: process.env.ADMIN_EMAIL ?? 'admin@admin.com' },
    password: { type: 'string', default: process.env.ADMIN_PASSWORD ?? '123456' },
    'webhook-secret': { type: 'string', default: process.env.CHATAPP_MICROSERVICE_SECRET ?? '' },
    timeout: { type: 'string', default: '15000' },
  },
});
const base = values.url!.replace(/\/$/, '');
const timeoutMs = Number(values.timeout);
let failures = 0;
const state: { token?: string; companyId?: number; connectionId?: number; apiToken?: string; frames: string[]; ws?: WebSocket } = { frames: [] };

/** A failure that knows better advice than its step's general hint. */
class Advice extends Error {
  constructor(
    message: string,
    readonly hint: string,
  ) {
    super(message);
  }
}

async function step(name: string, hint: string, run: () => Promise<string | void>): Promise<boolean> {
  try {
    const detail = await run();
    console.log(`PASS  ${name}${detail ? ` — ${detail}` : ''}`);
    return true;
  } catch (err) {
    failures++;
    console.log(`FAIL  ${name} — ${(err as Error).message}\n      what to do: ${err instanceof Advice ? err.hint : hint}`);
    return false;
  }
}

async function call(method: string, path: string, body?: unknown, token = state.token) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
    signal: AbortSignal.timeout(timeoutMs),
  });
  const text = await res.text();
  let json: any = text;
  try {
    json = JSON.parse(text);
  } catch {
    /* not JSON */
  }
  if (!res.ok) throw new Error(`${method} ${path} answered ${res.status} ${typeof json === 'object' ? JSON.stringify(json) : ''}`);
  return json;
}

async function until<T>(what: string, probe: () => Promise<T | false | undefined>): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`no ${what} within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

const online = await step('backend online (GET /version)', `start the backend (npm start) and check --url ${base}`, async () => {
  const v = await call('GET', '/version');
  return `${v.name} ${v.version}`;
});
const loggedIn =
  online &&
  (await step(
    'migrations, seeds and admin login',
    "give the admin's current e-mail and password (--email/--password, or ADMIN_EMAIL/ADMIN_PASSWORD); a database never seeded: npm run seed",
    async () => {
      const res = await call('POST', '/auth/login', { email: values.email, password: values.password });
      state.token = res.token;
      state.companyId = res.user.companyId;
      if (res.mustChangePassword) {
        throw new Advice(
          'the admin still has the built-in password, and every other route refuses it until it is replaced',
          `replace it: PUT ${base}/users/${res.user.id} with {"password": "<new password>"} and this login's token (docs/getting-started.md, First access), ` +
            'then run again with --password <new password>; or start the backend with ADMIN_PASSWORD set',
        );
      }
      return `${res.user.email}, company ${res.user.companyId}`;
    },
  ));
const realtime =
  loggedIn &&
  (await step('realtime namespace', 'check that websockets reach the backend (proxies must pass Upgrade headers)', async () => {
    const ws = new WebSocket(`${base.replace(/^http/, 'ws')}/${state.companyId}?token=${state.token}`);
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
      ws.once('unexpected-response', (_q, r) => reject(new Error(`handshake ${r.statusCode}`)));
    });
    ws.on('message', (m) => state.frames.push(String(m)));
    state.ws = ws;
  }));
const channel =
  loggedIn &&
  (await step(
    'channel runtime online and connection test (sandbox session)',
    'start the channel runtime against the same broker (BROKER_URL) and check its logs',
    async () => {
      state.apiToken = `deployment-check-${Date.now()}-${Math.random().toString(36).slice(2)}`;
      const created = await call('POST', '/chatapp/', { name: `deployment check ${new Date().toISOString()}`, provider: 'sandbox', token: state.apiToken });
      state.connectionId = created.id;
      await until('CONNECTED session', async () => (await call('GET', `/chatapp/${created.id}`)).status === 'CONNECTED');
      return `connection ${created.id} CONNECTED`;
    },
  ));
if (channel) {
  await step('message send (official API → runtime → sandbox, acknowledged)', 'check the outbox relay and broker in the backend logs', async () => {
    const sent = await call('POST', '/api/messages/send', { number: '5500000000000', body: 'deployment check' }, state.apiToken);
    const page = await until('read acknowledgement', async () => {
      const list = await call('GET', `/messages/${sent.ticketId}`);
      const m = (list.messages as Array<{ id: string; ack: number }>).find((x) => x.id === sent.messageId);
      return m && m.ack >= 3 && m;
    });
    return `message ${page.id} read`;
  });
  if (values['webhook-secret']) {
    await step('message receive (microservice webhook → ticket)', 'check CHATAPP_MICROSERVICE_SECRET on both sides', async () => {
      const res = await fetch(`${base}/api/chatapp-microservice/webhook`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-webhook-secret': values['webhook-secret']! },
        body: JSON.stringify({
          chatappId: state.connectionId,
          events: [{ type: 'InboundMessage', providerMessageId: `check-${Date.now()}`, from: '5500000000001', senderName: 'Check', body: 'inbound check' }],
        }),
      });
      if (!res.ok) throw new Error(`webhook answered ${res.status}`);
      await until('inbound message event', async () => state.frames.some((f) => f.includes('inbound check')));
    });
  } else {
    console.log('SKIP  message receive — pass --webhook-secret (CHATAPP_MICROSERVICE_SECRET) to test it');
  }
  if (realtime) {
    await step('realtime event received', 'check that the backend instances share the broker (BROKER_URL) and cache (REDIS_URL)', async () => {
      await until('appMessage frame', async () => state.frames.some((f) => f.includes(`company-${state.companyId}-appMessage`)));
      return `${state.frames.length} frames`;
    });
  }
  await call('DELETE', `/chatapp/${state.connectionId}`).catch(() => undefined);
}
state.ws?.close();
console.log(failures ? `\n${failures} step(s) failed` : '\nall steps passed');
process.exitCode = failures;
