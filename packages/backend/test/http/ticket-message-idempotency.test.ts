import { expect } from 'chai';
import { eventually, sandboxDesk } from '../support/sandbox-conversations.js';
import { client, startTestBackend, type TestBackend } from '../support/test-backend.js';

const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201e2a4d1a60000000049454e44ae426082',
  'hex',
);

/** The operators' send, `POST /messages/:ticketId`, with an `Idempotency-Key` (the console's replies queued offline). */
describe('HTTP: Idempotency-Key on the operators’ send', () => {
  let b: TestBackend;
  before(async () => {
    b = await startTestBackend({ OUTBOX_RELAY_INTERVAL_MS: '100' });
  });
  after(async () => {
    await b.close();
  });
  beforeEach(async () => {
    await b.reset();
  });

  const rows = (sql: string, params: unknown[] = []) => b.infra.db.orm.em.fork().getConnection().execute(sql, params);
  const count = async (body: string) => (await rows('select count(*)::int as n from messages where body = ?', [body]))[0].n as number;
  const key = (k: string) => ({ 'idempotency-key': k });

  /** Ana's open ticket with a contact who wrote in. */
  async function anasTicket(from: string) {
    const d = await sandboxDesk(b);
    const t = await d.inbound(from, 'Oi');
    expect((await d.ana.api.post(`/messages/${t.id}`, { body: 'Olá! Sou a Ana.' })).status).to.equal(200);
    return { d, ticketId: t.id as number };
  }

  it('the same key twice sends once and answers the same status and body, also once the in-progress marks are gone', async () => {
    const { d, ticketId } = await anasTicket('5511977770001');
    const first = await d.ana.api.post(`/messages/${ticketId}`, { body: 'Chego às 10h' }, key('console-1'));
    expect(first.status, JSON.stringify(first.body)).to.equal(200);
    await eventually('the send at the sandbox', async () => d.sent().some((s) => s.content.body === 'Chego às 10h'));
    const again = await d.ana.api.post(`/messages/${ticketId}`, { body: 'Chego às 10h' }, key('console-1'));
    expect(again.status).to.equal(200);
    expect(again.body).to.deep.equal(first.body);
    b.cache.clear();
    const later = await d.ana.api.post(`/messages/${ticketId}`, { body: 'Chego às 10h' }, key('console-1'));
    expect(later.body).to.deep.equal(first.body);
    // A send after the retries reaches the sandbox after anything they could have sent.
    await d.ana.api.post(`/messages/${ticketId}`, { body: 'marker' });
    await eventually('the later send at the sandbox', async () => d.sent().some((s) => s.content.body === 'marker'));
    expect(d.sent().filter((s) => s.content.body === 'Chego às 10h')).to.have.length(1);
    expect(await count('Chego às 10h')).to.equal(1);
    const keys = await rows('select connection_id, key, company_id from idempotency_keys');
    expect(keys).to.deep.equal([{ connection_id: d.connectionId, key: 'console-1', company_id: keys[0].company_id }]);
  });

  it('without a key nothing changes: the same request twice sends twice', async () => {
    const { d, ticketId } = await anasTicket('5511977770002');
    expect((await d.ana.api.post(`/messages/${ticketId}`, { body: 'twice' })).status).to.equal(200);
    expect((await d.ana.api.post(`/messages/${ticketId}`, { body: 'twice' })).status).to.equal(200);
    expect(await count('twice')).to.equal(2);
    expect(await rows('select * from idempotency_keys')).to.have.length(0);
  });

  it('a concurrent pair with one key stores one message, with the in-progress mark and without it (two instances)', async () => {
    const { d, ticketId } = await anasTicket('5511977770003');
    const pair = (body: string, k: string) =>
      Promise.all([d.ana.api.post(`/messages/${ticketId}`, { body }, key(k)), d.ana.api.post(`/messages/${ticketId}`, { body }, key(k))]);
    const marked = await pair('race one', 'race-1');
    for (const a of marked) expect(a.status, JSON.stringify(a.body)).to.be.oneOf([200, 409]);
    const ok = marked.filter((a) => a.status === 200);
    expect(ok.length).to.be.greaterThan(0);
    for (const a of marked.filter((m) => m.status === 409)) expect(a.body).to.deep.equal({ error: 'ERR_IDEMPOTENT_REQUEST_IN_PROGRESS' });
    for (const a of ok) expect(a.body).to.deep.equal(ok[0]!.body);
    expect(await count('race one')).to.equal(1);
    // Each request's mark in a cache of its own (two instances): the database's key decides, and both answer the first result.
    const setIfAbsent = b.cache.setIfAbsent;
    b.cache.setIfAbsent = async () => true;
    try {
      const unmarked = await pair('race two', 'race-2');
      expect(unmarked.map((a) => a.status)).to.deep.equal([200, 200]);
      expect(unmarked[1]!.body).to.deep.equal(unmarked[0]!.body);
    } finally {
      b.cache.setIfAbsent = setIfAbsent;
    }
    expect(await count('race two')).to.equal(1);
  });

  it('refuses the same key with another text, ticket or user (422 ERR_IDEMPOTENCY_KEY_REUSED) and a malformed key (422), sending nothing', async () => {
    const { d, ticketId } = await anasTicket('5511977770004');
    const other = (await d.inbound('5511977770005', 'Oi')).id as number;
    await d.ana.api.post(`/messages/${other}`, { body: 'Olá!' });
    expect((await d.ana.api.post(`/messages/${ticketId}`, { body: 'first' }, key('k-1'))).status).to.equal(200);
    const refused = [
      await d.ana.api.post(`/messages/${ticketId}`, { body: 'second' }, key('k-1')),
      await d.ana.api.post(`/messages/${ticketId}`, { body: 'first', isPrivate: true }, key('k-1')),
      await d.ana.api.post(`/messages/${other}`, { body: 'first' }, key('k-1')),
      await d.admin.post(`/messages/${ticketId}`, { body: 'first' }, key('k-1')),
    ];
    for (const r of refused) expect({ status: r.status, body: r.body }).to.deep.equal({ status: 422, body: { error: 'ERR_IDEMPOTENCY_KEY_REUSED' } });
    for (const bad of ['with space', 'k'.repeat(201), 'café']) {
      const r = await d.ana.api.post(`/messages/${ticketId}`, { body: 'bad key' }, key(bad));
      expect({ status: r.status, body: r.body }, bad).to.deep.equal({ status: 422, body: { error: 'ERR_INVALID_IDEMPOTENCY_KEY' } });
    }
    expect(await count('second')).to.equal(0);
    expect(await count('first')).to.equal(1);
    expect(await count('bad key')).to.equal(0);
  });

  it('a multipart retry sends the files once and answers the same body; another file with the key is refused', async () => {
    const { d, ticketId } = await anasTicket('5511977770006');
    const form = (bytes: Buffer) => {
      const f = new FormData();
      f.append('body', 'a foto');
      f.append('medias', new Blob([bytes], { type: 'image/png' }), 'foto.png');
      return f;
    };
    const first = await d.ana.api.post(`/messages/${ticketId}`, form(PNG), key('upload-1'));
    expect(first.status, JSON.stringify(first.body)).to.equal(200);
    const again = await d.ana.api.post(`/messages/${ticketId}`, form(PNG), key('upload-1'));
    expect(again.status).to.equal(200);
    expect(again.body).to.deep.equal(first.body);
    const otherBytes = Buffer.from(PNG);
    otherBytes.writeUInt8(0, otherBytes.length - 5);
    const refused = await d.ana.api.post(`/messages/${ticketId}`, form(otherBytes), key('upload-1'));
    expect({ status: refused.status, body: refused.body }).to.deep.equal({ status: 422, body: { error: 'ERR_IDEMPOTENCY_KEY_REUSED' } });
    expect(await count('a foto')).to.equal(1);
  });

  it('the OpenAPI document shows the header, with its description, on the send and the message API', async () => {
    const doc = (await client(b.url).get('/openapi.json')).body;
    const header = (path: string) => {
      const params = (doc.paths[path].post.parameters ?? []) as Array<Record<string, any>>;
      const resolved = params.map((p) => (p.$ref ? doc.components.parameters[p.$ref.split('/').pop()] : p));
      return resolved.find((p) => p.in === 'header' && p.name === 'Idempotency-Key');
    };
    const ours = header('/messages/{ticketId}');
    expect(ours).to.include({ required: false });
    expect(ours.description).to.match(/ticket's, shared with the message API's keys/);
    expect(header('/api/messages/send').description).to.match(/unique per connection \(the token's\)/);
  });
});
