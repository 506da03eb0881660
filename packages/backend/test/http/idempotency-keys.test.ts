import { RequestContext } from '@mikro-orm/core';
import { expect } from 'chai';
import { asSuper, client, startTestBackend, type TestBackend } from '../support/test-backend.js';
import { eventually } from '../support/eventually.js';

const TOKEN = 'idempotency-token-0123456789abcdef';

/** Idempotency-Key of the message API, stored in the database with the send it answers for. */
describe('Message API: Idempotency-Key in the database', () => {
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

  async function connectedSandbox() {
    const { api } = await asSuper(b);
    const created = await api.post('/chatapp/', { name: 'Sandbox', provider: 'sandbox', token: TOKEN });
    expect(created.status, JSON.stringify(created.body)).to.be.oneOf([200, 201]);
    const id = created.body.id as number;
    await eventually('the session to connect', async () => (await api.get(`/chatapp/${id}`)).body.status === 'CONNECTED');
    return id;
  }
  const rows = (sql: string, params: unknown[] = []) => b.infra.db.orm.em.fork().getConnection().execute(sql, params);

  it('answers the first result after the cache is gone (a restart), and stores one message', async () => {
    await connectedSandbox();
    const api = client(b.url, TOKEN);
    const first = await api.post('/api/messages/send', { number: '5511999990000', body: 'once' }, { 'idempotency-key': 'order-1' });
    expect(first.status, JSON.stringify(first.body)).to.equal(200);
    b.cache.clear();
    const again = await api.post('/api/messages/send', { body: 'once', number: '5511999990000' }, { 'idempotency-key': 'order-1' });
    expect(again.status).to.equal(200);
    expect(again.body).to.deep.equal(first.body);
    const stored = await rows("select count(*)::int as n from messages where body = 'once'");
    expect(stored[0].n).to.equal(1);
    const keys = await rows('select key, fingerprint from idempotency_keys');
    expect(keys).to.have.length(1);
    expect(keys[0].key).to.equal('order-1');
  });

  it('refuses the same key with a different body (422 ERR_IDEMPOTENCY_KEY_REUSED) and sends nothing', async () => {
    await connectedSandbox();
    const api = client(b.url, TOKEN);
    expect((await api.post('/api/messages/send', { number: '5511999990000', body: 'first' }, { 'idempotency-key': 'order-2' })).status).to.equal(200);
    const reused = await api.post('/api/messages/send', { number: '5511999990000', body: 'second' }, { 'idempotency-key': 'order-2' });
    expect(reused.status).to.equal(422);
    expect(reused.body).to.deep.equal({ error: 'ERR_IDEMPOTENCY_KEY_REUSED' });
    expect((await rows("select count(*)::int as n from messages where body = 'second'"))[0].n).to.equal(0);
  });

  it('ten concurrent requests with one key store one send and all answer its result', async () => {
    await connectedSandbox();
    const api = client(b.url, TOKEN);
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => api.post('/api/messages/send', { number: '5511999990000', body: 'race' }, { 'idempotency-key': 'order-3' })),
    );
    const ok = answers.filter((a) => a.status === 200);
    expect(ok.length).to.be.greaterThan(0);
    for (const a of answers) expect(a.status, JSON.stringify(a.body)).to.be.oneOf([200, 409]);
    expect(new Set(ok.map((a) => a.body.messageId)).size).to.equal(1);
    expect((await rows("select count(*)::int as n from messages where body = 'race'"))[0].n).to.equal(1);
  });

  it('the expiry job removes keys older than 24 hours', async () => {
    await connectedSandbox();
    const api = client(b.url, TOKEN);
    await api.post('/api/messages/send', { number: '5511999990000', body: 'old' }, { 'idempotency-key': 'order-4' });
    await rows("update idempotency_keys set created_at = now() - interval '25 hours'");
    expect(await RequestContext.create(b.infra.db.orm.em, () => b.app.conversations.expireIdempotencyKeys.execute())).to.equal(1);
    expect(await rows('select * from idempotency_keys')).to.have.length(0);
  });
});
