import { createHmac } from 'node:crypto';
import type { RouteSpec } from '@servicedesk/adapters-http';
import { expect } from 'chai';
import { ADMIN, COMPANY_TOKEN, asSuper, client, login, newCompanyWithAdmin, startTestBackend, type TestBackend } from '../support/test-backend.js';

/**
 * Hostile input against every registered route: whatever arrives, the answer is a 2xx or a 4xx
 * `{ error }`, never a 5xx, and the server keeps answering. Each route is reached past its auth
 * class (the super admin, the company API token, a connection token, the webhook secrets).
 */

const APP_SECRET = 'meta-app-secret-for-hostile-tests';
const MICRO = 'microservice-secret-for-hostile-tests-0123';
const CONNECTION_TOKEN = 'hostile-connection-token-0123456789abcdef';

const DEEP = 2000;
const deepText = (depth = DEEP) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
const deepObject = (depth = DEEP) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
const deepMixed = (depth = DEEP / 2) => `${'{"a":['.repeat(depth)}1${']}'.repeat(depth)}`;
const HUGE = 'x'.repeat(1_000_000);
/** Ids that exist nowhere; deleting with them is harmless. */
const MISSING_ID = '999999';

interface Variant {
  readonly label: string;
  readonly method?: string;
  readonly path: string;
  readonly body?: string | FormData;
  readonly type?: string;
}
interface Failure {
  readonly route: string;
  readonly variant: string;
  readonly status: number | string;
  readonly body: string;
}

type ZodLike = { _zod?: { def?: Record<string, unknown> } };
const defOf = (s: unknown) => (s as ZodLike)?._zod?.def;

/** The field names an object schema declares, through wrappers, pipes, unions and intersections; null when it is not an object. */
function fieldsOf(schema: unknown, seen = new Set<unknown>()): string[] | null {
  const def = defOf(schema);
  if (!def || seen.has(schema)) return null;
  seen.add(schema);
  switch (def.type) {
    case 'object':
      return Object.keys(def.shape as Record<string, unknown>);
    case 'record':
      return ['key'];
    case 'pipe':
      return fieldsOf(def.in, seen) ?? fieldsOf(def.out, seen);
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'catch':
    case 'readonly':
    case 'nonoptional':
      return fieldsOf(def.innerType, seen);
    case 'lazy':
      return fieldsOf((def.getter as () => unknown)(), seen);
    case 'union': {
      const all = (def.options as unknown[]).map((o) => fieldsOf(o, seen)).filter((f): f is string[] => f !== null);
      return all.length ? [...new Set(all.flat())] : null;
    }
    case 'intersection': {
      const all = [fieldsOf(def.left, seen), fieldsOf(def.right, seen)].filter((f): f is string[] => f !== null);
      return all.length ? [...new Set(all.flat())] : null;
    }
    default:
      return null;
  }
}

const routeName = (r: RouteSpec) => `${r.method} ${r.path}`;
const paramNames = (path: string) => [...path.matchAll(/:(\w+)/g)].map((m) => m[1]!);
const fill = (path: string, value: (name: string) => string) => path.replace(/:(\w+)/g, (_m, name: string) => value(name));
/** The route's path with harmless ids: 1 (rows that exist) to read and change, a missing id to delete. */
const basePath = (r: RouteSpec) => fill(r.path, () => (r.method === 'DELETE' ? MISSING_ID : '1'));
const sendsBody = (r: RouteSpec) => r.method !== 'GET' && r.method !== 'DELETE';
const takesJson = (r: RouteSpec) => sendsBody(r) && (r.raw !== undefined || (r.body !== undefined && (!r.multipart || r.jsonOrMultipart)));

/** Whole-body variants: malformed, truncated, and not an object. */
function bodyVariants(r: RouteSpec): Variant[] {
  if (!takesJson(r)) return [];
  const path = basePath(r);
  return [
    { label: 'malformed JSON', path, body: '{name: 1,}' },
    { label: 'truncated JSON', path, body: '{"name": "abc' },
    { label: 'JSON null', path, body: 'null' },
    { label: 'JSON array', path, body: '[1,2]' },
    { label: 'JSON number', path, body: '42' },
    { label: 'JSON string', path, body: '"text"' },
    { label: `arrays nested ${DEEP} deep`, path, body: `{"a":${deepText()}}` },
    { label: `objects nested ${DEEP} deep`, path, body: deepObject() },
    { label: 'not JSON content type', path, body: '{}', type: 'text/plain' },
    {
      label: 'invalid UTF-8',
      path,
      body: Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]).toString('latin1'),
      type: 'application/json; charset=latin1',
    },
  ];
}

type Check = { check?: string; format?: string; minimum?: number; value?: number };
const checksOf = (def: Record<string, unknown>) => ((def.checks as Array<{ _zod: { def: Check } }> | undefined) ?? []).map((c) => c._zod.def);
const FORMATS: Record<string, string> = {
  email: 'hostile@example.com',
  url: 'https://example.com/x',
  datetime: '2026-01-01T00:00:00.000Z',
  date: '2026-01-01',
  uuid: '00000000-0000-4000-8000-000000000000',
};

/**
 * A small value the schema accepts, when one is easy to make (required fields only): the body the
 * field variants start from, so a wrong value in one field reaches the handler instead of being
 * stopped by a missing neighbour. Undefined for an optional field, or when nothing simple fits.
 */
function sampleOf(schema: unknown, depth = 0): unknown {
  const def = defOf(schema);
  if (!def || depth > 8) return undefined;
  const checks = checksOf(def);
  switch (def.type) {
    case 'optional':
    case 'default':
    case 'prefault':
      return undefined;
    case 'nullable':
      return null;
    case 'catch':
    case 'readonly':
    case 'nonoptional':
      return sampleOf(def.innerType, depth + 1);
    case 'pipe':
      return sampleOf(def.in, depth + 1);
    case 'lazy':
      return sampleOf((def.getter as () => unknown)(), depth + 1);
    case 'string': {
      const format = (def.format as string | undefined) ?? checks.find((c) => c.check === 'string_format')?.format;
      const min = checks.find((c) => c.check === 'min_length')?.minimum ?? 1;
      return format ? (FORMATS[format] ?? 'x') : 'x'.repeat(Math.max(1, min));
    }
    case 'number':
    case 'int': {
      const min = checks.find((c) => c.check === 'greater_than')?.value;
      return min !== undefined ? Math.max(1, Math.ceil(min)) : 1;
    }
    case 'boolean':
      return true;
    case 'enum':
      return Object.values(def.entries as Record<string, unknown>)[0];
    case 'literal':
      return (def.values as unknown[])[0];
    case 'array':
      return (checks.find((c) => c.check === 'min_length')?.minimum ?? 0) > 0 ? [sampleOf(def.element, depth + 1)] : [];
    case 'record':
      return {};
    case 'unknown':
    case 'any':
      return null;
    case 'union':
      for (const o of def.options as unknown[]) {
        const v = sampleOf(o, depth + 1);
        if (v !== undefined) return v;
      }
      return undefined;
    case 'intersection':
      return { ...(sampleOf(def.left, depth + 1) as object), ...(sampleOf(def.right, depth + 1) as object) };
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(def.shape as Record<string, unknown>)) {
        const x = sampleOf(v, depth + 1);
        if (x !== undefined) out[k] = x;
      }
      return out;
    }
    default:
      return undefined;
  }
}

/** The base body of a route's field variants: a sample its schema accepts, or `{}` when none could be made. */
function baseBody(r: RouteSpec): Record<string, unknown> {
  const sample = sampleOf(r.body);
  const ok = r.body && typeof sample === 'object' && sample !== null && !Array.isArray(sample) && r.body.safeParse(sample).success;
  return ok ? (sample as Record<string, unknown>) : {};
}

/** What a declared field takes, through wrappers: picks the wrong types worth sending it. */
function kindOf(schema: unknown, seen = new Set<unknown>()): string {
  const def = defOf(schema);
  if (!def || seen.has(schema)) return 'unknown';
  seen.add(schema);
  switch (def.type) {
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'catch':
    case 'readonly':
    case 'nonoptional':
      return kindOf(def.innerType, seen);
    case 'pipe':
      return kindOf(def.in, seen);
    case 'string':
    case 'enum':
    case 'literal':
    case 'template_literal':
      return 'string';
    case 'number':
    case 'int':
    case 'bigint':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'union': {
      const kinds = new Set((def.options as unknown[]).map((o) => kindOf(o, seen)));
      return kinds.size === 1 ? [...kinds][0]! : 'unknown';
    }
    default:
      return 'unknown'; // objects, arrays, records, unknown: anything may get through, so everything is tried
  }
}

/** The first declared field of each body schema (with its kind), by route. */
function declaredFields(r: RouteSpec): Array<{ name: string; kind: string }> {
  const shapeOf = (schema: unknown): Record<string, unknown> => {
    const def = defOf(schema);
    if (!def) return {};
    if (def.type === 'object') return def.shape as Record<string, unknown>;
    if (['optional', 'nullable', 'default', 'prefault', 'catch', 'readonly', 'nonoptional'].includes(def.type as string)) return shapeOf(def.innerType);
    if (def.type === 'pipe') return shapeOf(def.in);
    if (def.type === 'union') return Object.assign({}, ...(def.options as unknown[]).map(shapeOf));
    if (def.type === 'intersection') return { ...shapeOf(def.left), ...shapeOf(def.right) };
    return {};
  };
  const shape = shapeOf(r.body);
  return (fieldsOf(r.body) ?? []).map((name) => ({ name, kind: shape[name] ? kindOf(shape[name]) : 'unknown' }));
}

/**
 * Per declared body field: a NUL string, and the wrong types its kind could be confused by (a
 * number for a string, a non-numeric string and 1e99 for a number, everything for open fields, with
 * 2,000-deep nesting). Per route: lone surrogates and NUL keys in every field at once, and a 1 MB string.
 */
function fieldVariants(r: RouteSpec): Variant[] {
  if (!takesJson(r) || !r.body) return [];
  const fields = declaredFields(r);
  const path = basePath(r);
  const out: Variant[] = [];
  const wrong: Record<string, Array<[string, string]>> = {
    string: [
      ['number', '123'],
      ['object', '{}'],
    ],
    number: [
      ['non-numeric string', '"abc"'],
      ['1e99', '1e99'],
    ],
    boolean: [
      ['string', '"abc"'],
      ['number', '2'],
    ],
    unknown: [
      ['number', '123'],
      ['1e99', '1e99'],
      ['string', '"abc"'],
      ['null', 'null'],
      ['object', '{}'],
      ['list of odd items', '[null,-1,"x",{}]'],
      [`arrays and objects ${DEEP} deep`, deepMixed()],
    ],
  };
  const base = baseBody(r);
  /** The base body with `field` set to the raw JSON `value` (as text: lone surrogates cannot go through JSON.stringify). */
  const withField = (field: string, value: string) => {
    const rest = Object.entries(base)
      .filter(([k]) => k !== field)
      .map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`);
    return `{${[...rest, `${JSON.stringify(field)}:${value}`].join(',')}}`;
  };
  for (const { name, kind } of fields) {
    out.push({ label: `${name}: NUL`, path, body: withField(name, '"a\\u0000b"') });
    for (const [label, value] of wrong[kind] ?? wrong.unknown!) out.push({ label: `${name} (${kind}): ${label}`, path, body: withField(name, value) });
  }
  if (fields.length) {
    const all = (value: string) => `{${fields.map((f) => `${JSON.stringify(f.name)}:${value}`).join(',')}}`;
    out.push(
      { label: 'every field: a lone high surrogate', path, body: all('"a\\ud800b"') },
      { label: 'every field: a lone low surrogate', path, body: all('"\\udc00"') },
      { label: 'every field: a NUL key and a lone surrogate inside a list', path, body: all('[{"a\\u0000":"\\udc00"}]') },
      { label: `${fields[0]!.name}: 1 MB string`, path, body: JSON.stringify({ [fields[0]!.name]: HUGE }) },
    );
  }
  return out;
}

/** Multipart routes: NUL in every declared text field. */
function multipartFieldVariants(r: RouteSpec): Variant[] {
  if (!r.multipart || !sendsBody(r)) return [];
  const path = basePath(r);
  return (fieldsOf(r.body) ?? []).map((f) => {
    const form = new FormData();
    form.set(f, 'a\u0000b');
    return { label: `multipart ${f}: NUL`, path, body: form };
  });
}

/** `searchParam` and each declared query field: NUL, malformed escapes, repeated keys, wrong types. */
function queryVariants(r: RouteSpec): Variant[] {
  const path = basePath(r);
  const fields = fieldsOf(r.query) ?? [];
  // Routes that declare no searchParam still get one: an undeclared query must not reach anything either.
  const undeclared: Variant[] = fields.includes('searchParam') ? [] : [{ label: '?searchParam=NUL (undeclared)', path: `${path}?searchParam=a%00b` }];
  return undeclared.concat(
    fields.flatMap((f) => {
      const q = encodeURIComponent(f);
      return [
        { label: `?${f}=NUL`, path: `${path}?${q}=a%00b` },
        { label: `?${f}=malformed escape`, path: `${path}?${q}=%E0%A4%A` },
        { label: `?${f} repeated`, path: `${path}?${q}=1&${q}=2` },
        { label: `?${f}=abc`, path: `${path}?${q}=abc` },
        { label: `?${f}=1e99`, path: `${path}?${q}=1e99` },
        { label: `?${f}=JSON list of odd items`, path: `${path}?${q}=${encodeURIComponent('[-1,"x",{"a":2},null,99999999999]')}` },
      ];
    }),
  );
}

const BAD_IDS = ['0', '-1', '1e99', 'abc', '%00', '99999999999', '%'];

/** Each path parameter in turn replaced by a bad id (the others harmless). */
function paramVariants(r: RouteSpec): Variant[] {
  const names = paramNames(r.path);
  const body = takesJson(r) ? '{}' : undefined;
  return names.flatMap((name) =>
    BAD_IDS.map((bad) => ({
      label: `:${name}=${bad}`,
      path: fill(r.path, (n) => (n === name ? bad : r.method === 'DELETE' ? MISSING_ID : '1')),
      body,
    })),
  );
}

describe('Hostile input: every route answers 2xx or 4xx { error }, never 5xx, and the server stays up', function () {
  this.timeout(120_000);
  let b: TestBackend;
  let superToken: string;
  let userToken: string;

  before(async () => {
    b = await startTestBackend({ META_APP_SECRET: APP_SECRET, META_VERIFY_TOKEN: 'verify-hostile', CHATAPP_MICROSERVICE_SECRET: MICRO });
    const { api, token } = await asSuper(b);
    superToken = token;
    // Every plan feature on, and room for more rows, so that feature-gated routes are reached past the plan guard.
    const plan = await api.put('/plans/1', {
      users: 1000,
      connections: 1000,
      queues: 1000,
      useCampaigns: true,
      useSchedules: true,
      useInternalChat: true,
      useExternalApi: true,
      useKanban: true,
      useOpenAi: true,
      useIntegrations: true,
    });
    expect(plan.status, JSON.stringify(plan.body)).to.equal(200);
    // A decoy first: the variants use id 1 in paths, so it is the connection they may change, not the one whose token they use.
    expect((await api.post('/chatapp/', { name: 'Decoy', provider: 'sandbox' })).status).to.be.oneOf([200, 201]);
    const created = await api.post('/chatapp/', { name: 'Hostile', provider: 'sandbox', token: CONNECTION_TOKEN });
    expect(created.status, JSON.stringify(created.body)).to.be.oneOf([200, 201]);
    // A company admin creates a plain operator: the second identity reaches the `user` profile's code paths.
    const company = await newCompanyWithAdmin(b);
    const op = await company.api.post('/users', { name: 'Operator', email: 'operator@hostile.test', password: 'operator-pass-1', profile: 'user' });
    expect(op.status, JSON.stringify(op.body)).to.equal(201);
    userToken = (await login(b.url, 'operator@hostile.test', 'operator-pass-1')).token;
  });
  after(async () => {
    await b?.close();
  });

  function headersFor(r: RouteSpec, v: Variant, userToken: string): Record<string, string> {
    const headers: Record<string, string> = { 'x-webhook-secret': MICRO };
    if (r.auth === 'isAuth') headers.authorization = `Bearer ${userToken}`;
    if (r.auth === 'isAuthCompany') headers.authorization = `Bearer ${COMPANY_TOKEN}`;
    if (r.auth === 'tokenAuth') headers.authorization = `Bearer ${CONNECTION_TOKEN}`;
    if (typeof v.body === 'string') {
      headers['content-type'] = v.type ?? 'application/json';
      headers['x-hub-signature-256'] = `sha256=${createHmac('sha256', APP_SECRET)
        .update(Buffer.from(v.body, v.type?.includes('latin1') ? 'latin1' : 'utf8'))
        .digest('hex')}`;
    }
    return headers;
  }

  async function send(r: RouteSpec, v: Variant, token: string): Promise<Failure | null> {
    const headers = headersFor(r, v, token);
    const body = typeof v.body === 'string' ? Buffer.from(v.body, v.type?.includes('latin1') ? 'latin1' : 'utf8') : v.body;
    let status: number | string;
    let text = '';
    try {
      const res = await fetch(`${b.url}${v.path}`, { method: v.method ?? r.method, headers, body });
      status = res.status;
      text = await res.text();
    } catch (err) {
      return { route: routeName(r), variant: v.label, status: 'no answer', body: String((err as Error).cause ?? err) };
    }
    if (status >= 500) return { route: routeName(r), variant: v.label, status, body: text.slice(0, 300) };
    if (status >= 400) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        /* checked below */
      }
      if (typeof (parsed as { error?: unknown })?.error !== 'string') return { route: routeName(r), variant: v.label, status, body: text.slice(0, 300) };
    }
    return null;
  }

  /** Sends each route's variants (a few routes at a time), checks /version after each route, and lists what went wrong. */
  async function hammer(
    variantsOf: (r: RouteSpec) => Variant[],
    token = () => superToken,
    routes = b.http.routes,
  ): Promise<{ failures: Failure[]; sent: number }> {
    const failures: Failure[] = [];
    let sent = 0;
    const queue = [...routes];
    const worker = async () => {
      for (let r = queue.shift(); r; r = queue.shift()) {
        for (const v of variantsOf(r)) {
          sent++;
          const failure = await send(r, v, token());
          if (failure) failures.push(failure);
        }
        const alive = await fetch(`${b.url}/version`)
          .then((res) => res.status)
          .catch(() => 0);
        if (alive !== 200) failures.push({ route: routeName(r), variant: 'then GET /version', status: alive, body: '' });
      }
    };
    const started = Date.now();
    await Promise.all(Array.from({ length: 6 }, worker));
    if (process.env.HOSTILE_STATS) console.log(`${sent} requests in ${Date.now() - started} ms`);
    return { failures, sent };
  }

  const report = (failures: Failure[]) => failures.map((f) => `${f.route} [${f.variant}] → ${f.status} ${f.body}`).join('\n');

  it('declares an inspectable object body on every route that reads JSON (so field variants reach every field)', () => {
    const opaque = b.http.routes.filter((r) => takesJson(r) && r.body && !fieldsOf(r.body)?.length).map(routeName);
    expect(opaque, 'routes whose body schema declares no fields').to.deep.equal([]);
  });

  it('malformed, truncated, non-object and too deeply nested JSON bodies', async () => {
    const { failures, sent } = await hammer(bodyVariants);
    expect(sent).to.be.greaterThan(0);
    expect(failures, report(failures)).to.deep.equal([]);
  });

  it('NUL, lone surrogates, wrong types, deep nesting and 1 MB strings in every declared body field', async () => {
    const { failures, sent } = await hammer((r) => [...fieldVariants(r), ...multipartFieldVariants(r)]);
    expect(sent).to.be.greaterThan(0);
    expect(failures, report(failures)).to.deep.equal([]);
  });

  it('NUL, malformed escapes, repeated keys and wrong types in searchParam and every declared query field', async () => {
    const { failures } = await hammer(queryVariants);
    expect(failures, report(failures)).to.deep.equal([]);
  });

  it('path ids 0, -1, 1e99, abc, %00, 99999999999 and a lone %', async () => {
    const { failures, sent } = await hammer(paramVariants);
    expect(sent).to.be.greaterThan(0);
    expect(failures, report(failures)).to.deep.equal([]);
  });

  it('the same query variants on GET routes with a query schema, as a plain operator (`user` profile) of another company', async () => {
    const { failures } = await hammer(
      queryVariants,
      () => userToken,
      b.http.routes.filter((r) => r.auth === 'isAuth' && r.method === 'GET' && r.query),
    );
    expect(failures, report(failures)).to.deep.equal([]);
  });

  it('a queue integration whose config nests 2,000 deep (otherwise valid) is refused with 400 ERR_JSON_TOO_DEEP, and 64 levels are fine', async () => {
    const api = client(b.url, superToken);
    const deep = await api.post('/queueIntegration', `{"name":"Deep","type":"webhook","url":"https://example.com/hook","config":${deepObject()}}`);
    expect(deep.status, JSON.stringify(deep.body)).to.equal(400);
    expect(deep.body).to.deep.equal({ error: 'ERR_JSON_TOO_DEEP' });
    const fine = await api.post('/queueIntegration', `{"name":"Deep enough","type":"webhook","url":"https://example.com/hook","config":${deepObject(63)}}`);
    expect(fine.status, JSON.stringify(fine.body)).to.be.oneOf([201, 422]);
    expect((await api.get('/version')).status).to.equal(200);
  });

  it("Meta's signed webhook with null, scalar and malformed entries", async () => {
    const bodies = [
      'null',
      '[]',
      '"page"',
      '{"object":"page","entry":null}',
      '{"object":"page","entry":[null,1,"x",{"id":5}]}',
      '{"object":"page","entry":[{"id":"P","messaging":[null,1,{"message":null},{"message":{"mid":5,"text":{}},"sender":{"id":[]}},{"delivery":{"mids":5}},{"delivery":{"mids":[null,3]}}]}]}',
      '{"object":"page","entry":[{"id":"P","messaging":[{"sender":{"id":"a\\u0000"},"message":{"mid":"m\\ud800","text":"\\u0000"},"timestamp":1e99}]}]}',
    ];
    const routes = b.http.routes.filter((r) => r.raw !== undefined);
    expect(routes.map(routeName)).to.not.be.empty;
    const { failures } = await hammer(
      (r) => bodies.map((body) => ({ label: body.slice(0, 60), path: r.path, body })),
      () => superToken,
      routes,
    );
    expect(failures, report(failures)).to.deep.equal([]);
  });

  it('the official API: userId as a number of no user, of another company, and out of range', async () => {
    const api = client(b.url, CONNECTION_TOKEN);
    for (const userId of [123, 999999, 2_147_483_648, 1e99, '99999999999']) {
      const res = await api.post('/api/messages/send', { number: '5511999990000', body: 'hello', userId });
      expect(res.status, `${userId}: ${JSON.stringify(res.body)}`).to.be.within(400, 499);
      expect(res.body.error, String(userId)).to.be.a('string');
    }
    const res = await api.post('/api/messages/send', { number: '5511999990000', body: 'hello', userId: 123 });
    expect(res.status).to.equal(404);
    expect(res.body).to.deep.equal({ error: 'ERR_NO_USER_FOUND' });
    // The operator of the other company is no user of this connection's company either.
    const me = await client(b.url, userToken)
      .get('/auth/me')
      .catch(() => null);
    const otherUserId = me?.body?.id ?? me?.body?.user?.id;
    if (typeof otherUserId === 'number') {
      const other = await api.post('/api/messages/send', { number: '5511999990000', body: 'hello', userId: otherUserId });
      expect(other.status, JSON.stringify(other.body)).to.equal(404);
    }
  });

  it('multipart routes: a body truncated inside a file part (fixed by the multipart item of this issue)', async () => {
    const boundary = 'hostileboundary123';
    const truncated =
      `--${boundary}\r\nContent-Disposition: form-data; name="name"\r\n\r\nx\r\n--${boundary}\r\n` +
      `Content-Disposition: form-data; name="FILE"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n\x89PNG\r\n\x1a\n0000`;
    const routes = b.http.routes.filter((r) => r.multipart && sendsBody(r));
    expect(routes.map(routeName)).to.not.be.empty;
    const failures: Failure[] = [];
    await Promise.all(
      routes.map(async (r) => {
        const body = truncated.replace('FILE', r.multipart!.fileFields[0]!);
        const headers = { ...headersFor(r, { label: '', path: '' }, superToken), 'content-type': `multipart/form-data; boundary=${boundary}` };
        let status: number | string;
        let text = '';
        try {
          const res = await fetch(`${b.url}${basePath(r)}`, {
            method: r.method,
            headers,
            body: Buffer.from(body, 'latin1'),
            signal: AbortSignal.timeout(10_000),
          });
          status = res.status;
          text = await res.text();
        } catch (err) {
          status = `no answer (${String((err as Error).name)})`;
        }
        let error: unknown;
        try {
          error = JSON.parse(text).error;
        } catch {
          /* below */
        }
        if (typeof status !== 'number' || status >= 500 || (status >= 400 && typeof error !== 'string'))
          failures.push({ route: routeName(r), variant: 'truncated multipart', status, body: text.slice(0, 200) });
      }),
    );
    expect((await fetch(`${b.url}/version`)).status).to.equal(200);
    expect(failures, report(failures)).to.deep.equal([]);
  });

  it('still logs the super admin in after all of it', async () => {
    await login(b.url, ADMIN.email, ADMIN.password);
  });
});
