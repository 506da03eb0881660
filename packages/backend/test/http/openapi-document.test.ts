import { readFileSync } from 'node:fs';
import { routesWithoutResponseSchema } from '@servicedesk/adapters-http';
import { Validator } from '@seriousme/openapi-schema-validator';
import { expect } from 'chai';
import { schemaProblems } from '../support/openapi-checks.js';
import { client, startTestBackend, type TestBackend } from '../support/test-backend.js';

type Operation = { operationId?: string; summary?: string; description?: string; responses?: Record<string, unknown> };
const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

describe('HTTP: the OpenAPI document of the backend', () => {
  let b: TestBackend;
  let doc: { openapi: string; paths: Record<string, Record<string, Operation>>; components: Record<string, Record<string, unknown>> };
  const operations = () =>
    Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.entries(item)
        .filter(([m]) => METHODS.includes(m))
        .map(([method, op]) => ({ key: `${method.toUpperCase()} ${path}`, op })),
    );

  before(async () => {
    b = await startTestBackend();
    const res = await client(b.url).get('/openapi.json');
    expect(res.status).to.equal(200);
    doc = res.body;
  });
  after(async () => {
    await b.close();
  });

  it('is a valid OpenAPI 3.1 document (@seriousme/openapi-schema-validator)', async () => {
    const validator = new Validator();
    const result = await validator.validate(doc);
    // Errors come as Ajv's error objects, or as one sentence (an unresolvable $ref).
    expect(result.errors, JSON.stringify(result.errors, null, 2)).to.equal(undefined);
    expect(result.valid).to.equal(true);
    expect(validator.version).to.equal('3.1');
  });

  it('gives every operation a unique operationId, a summary, a description and its error responses', () => {
    const ops = operations();
    expect(ops).to.have.length(b.http.routes.length);
    const ids = ops.map(({ op }) => op.operationId);
    for (const { key, op } of ops) {
      expect(op.operationId, key).to.match(/^[a-z][A-Za-z0-9]*$/);
      expect(op.summary, key).to.be.a('string').that.is.not.empty;
      expect(op.description, key).to.be.a('string').that.is.not.empty;
      const statuses = Object.keys(op.responses ?? {});
      expect(
        statuses.some((s) => /^2\d\d$/.test(s)),
        `${key} has a success response`,
      ).to.equal(true);
      expect(statuses, `${key} documents its errors`).to.include('500');
    }
    const repeated = ids.filter((id, i) => ids.indexOf(id) !== i);
    expect(repeated, 'repeated operationIds').to.deep.equal([]);
  });

  it('describes every tag, the server it is served from and the realtime namespace', () => {
    const full = doc as unknown as { tags: Array<{ name: string; description?: string }>; servers?: Array<{ url: string }>; info: { description?: string } };
    const used = new Set(operations().flatMap(({ op }) => (op as { tags?: string[] }).tags ?? []));
    expect(full.tags.map((t) => t.name).sort()).to.deep.equal([...used].sort());
    for (const tag of full.tags)
      expect(tag.description, tag.name)
        .to.be.a('string')
        .and.match(/^[A-Z`(].{10,}\.$/);
    expect(full.servers).to.deep.equal([{ url: '/', description: 'This server' }]);
    expect(full.info.description).to.include('/<companyId>').and.include('since').and.include('/socket.io/');
  });

  it('writes each error response once, as a component every operation answering it refers to', () => {
    for (const { key, op } of operations()) {
      for (const [status, response] of Object.entries(op.responses ?? {})) {
        if (!/^2/.test(status)) expect(response, `${key} ${status}`).to.have.all.keys('$ref');
      }
    }
    const written = Object.values(doc.components.responses ?? {}).map((r) => JSON.stringify(r));
    expect(
      written.filter((r, i) => written.indexOf(r) !== i),
      'the same response under two names',
    ).to.deep.equal([]);
  });

  it('writes a parameter, or an object schema of some size, used in several places once, as a component', () => {
    const repeated: string[] = [];
    const seen = new Map<string, string>();
    const once = (value: unknown, where: string) => {
      const text = JSON.stringify(value);
      if (seen.has(text)) repeated.push(`${where} (as ${seen.get(text)})`);
      else seen.set(text, where);
    };
    type Schema = Record<string, unknown>;
    const isSchema = (v: unknown): v is Schema => typeof v === 'object' && v !== null && !Array.isArray(v);
    // Schemas only (not their examples): properties, items and the members of unions.
    const walk = (schema: unknown, where: string) => {
      if (!isSchema(schema)) return;
      if (isSchema(schema.properties) && JSON.stringify(schema).length > 1000) once(schema, where);
      for (const [name, s] of Object.entries(isSchema(schema.properties) ? schema.properties : {})) walk(s, `${where}.${name}`);
      for (const key of ['items', 'additionalProperties']) walk(schema[key], `${where}.${key}`);
      for (const key of ['anyOf', 'oneOf', 'allOf'])
        for (const [i, s] of (Array.isArray(schema[key]) ? (schema[key] as unknown[]) : []).entries()) walk(s, `${where}.${key}[${i}]`);
    };
    const media = (content: unknown, where: string) => {
      for (const [type, m] of Object.entries(isSchema(content) ? content : {})) if (isSchema(m)) walk(m.schema, `${where} ${type}`);
    };
    for (const { key, op } of operations()) {
      const full = op as Operation & { parameters?: Schema[]; requestBody?: Schema };
      for (const p of full.parameters ?? []) if (!('$ref' in p)) once(p, `${key} parameter ${String(p.name)}`);
      media(full.requestBody?.content, `${key} body`);
      for (const [status, response] of Object.entries(op.responses ?? {})) media((response as Schema).content, `${key} ${status}`);
    }
    for (const [name, schema] of Object.entries(doc.components.schemas ?? {}))
      for (const [p, s] of Object.entries((schema as Schema).properties ?? {})) walk(s, `${name}.${p}`);
    expect(repeated, 'written twice').to.deep.equal([]);
    // Not a target (the size is what the routes' descriptions and examples weigh): what a reader of the log wants to know.
    console.log(`      the document is ${Math.round(JSON.stringify(doc).length / 1024)} KB`);
  });

  it('holds only valid JSON Schemas, and every example fits its schema', function () {
    // Every schema compiled and every example checked: seconds of CPU, more on a loaded machine.
    this.timeout(120_000);
    expect(schemaProblems(doc)).to.deep.equal([]);
  });

  it('(the schema check itself finds a wrong example and a broken schema)', () => {
    // The two schemas alone (neither refers to another): the whole document's check is the test above.
    const { VersionInfo, Error } = structuredClone(doc.components.schemas!) as Record<string, Record<string, unknown>>;
    VersionInfo!.example = { name: 'x' };
    Error!.type = 'no-such-type';
    const problems = schemaProblems({ paths: {}, components: { schemas: { VersionInfo, Error } } });
    expect(problems.some((p) => p.startsWith('/components/schemas/VersionInfo: example'))).to.equal(true);
    expect(problems.some((p) => p.startsWith('/components/schemas/Error: not a valid schema'))).to.equal(true);
  });

  it('documents a described route with its response schema', () => {
    const ok = doc.paths['/version']!.get!.responses!['200'] as { content: Record<string, { schema: unknown }> };
    expect(ok.content['application/json']!.schema).to.deep.equal({ $ref: '#/components/schemas/VersionInfo' });
    expect(doc.components.schemas).to.have.property('VersionInfo');
    expect(doc.components.schemas).to.have.property('Error');
  });

  it('keeps the reference page and the document itself out of the declared routes and the seed inventory', async () => {
    const seedPaths = readFileSync(new URL('../../../../spec/routes.tsv', import.meta.url), 'utf8')
      .split('\n')
      .map((l) => l.split('\t')[1]);
    for (const path of ['/docs', '/openapi.json']) {
      expect(seedPaths, path).to.not.include(path);
      expect(
        b.http.routes.map((r) => r.path),
        path,
      ).to.not.include(path);
    }
  });

  it('declares a response schema (or `status: 204`) on every route', () => {
    expect(routesWithoutResponseSchema(b.http.routes), 'routes without a response schema').to.deep.equal([]);
    expect(
      routesWithoutResponseSchema([...b.http.routes, { method: 'GET', path: '/bare', auth: 'none', tag: 't', summary: 's', handler: async () => ({}) }]),
    ).to.deep.equal(['GET /bare']);
  });
});
