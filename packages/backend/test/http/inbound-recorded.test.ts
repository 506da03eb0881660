import { createHmac } from 'node:crypto';
import { expect } from 'chai';
import { asSuper, client, startTestBackend, type TestBackend } from '../support/test-backend.js';
import { startFakeGraph, type FakeGraph } from '../support/fake-graph.js';
import { eventually } from '../support/eventually.js';

const APP_SECRET = 'inbound-recorded-meta-app-secret';
const MICRO = 'inbound-recorded-microservice-secret-01';

/**
 * A delivery is in the database when it is answered or taken: the outbox holds it (once, however
 * often the provider delivers it) by the time a webhook answers 200 or the embedded runtime's
 * connector is told it was taken, so a crash right after loses nothing (the crash itself is
 * shown with real processes in processes/crash-durability.test.ts).
 */
describe('Inbound deliveries are recorded before they are answered or taken', () => {
  let b: TestBackend;
  let graph: FakeGraph;
  before(async () => {
    graph = await startFakeGraph({ 'recorded-page-token': 'RECORDED-PAGE' });
    b = await startTestBackend({ META_APP_SECRET: APP_SECRET, CHATAPP_MICROSERVICE_SECRET: MICRO, META_GRAPH_URL: graph.url });
    await b.reset();
  });
  after(async () => {
    await b?.close();
    await graph?.close();
  });

  /** Outbox entries of one provider message id (whatever became of them since). */
  const recorded = async (providerMessageId: string) =>
    Number(
      (
        (await b.infra.db.orm.em
          .fork()
          .getConnection()
          .execute("select count(*)::int as n from outbox where payload->>'providerMessageId' = ?", [providerMessageId])) as Array<{ n: number }>
      )[0]!.n,
    );

  it('each webhook route answers 200 with its events already in the outbox, once however often they are delivered', async () => {
    const { api } = await asSuper(b);
    const page = await api.post('/socialnet/', {
      name: 'Página',
      provider: 'sandbox',
      externalId: 'RECORDED-PAGE',
      secrets: { pageAccessToken: 'recorded-page-token' },
    });
    expect(page.status, JSON.stringify(page.body)).to.equal(201);
    const chatapp = await api.post('/chatapp/', { name: 'Microserviço', provider: 'sandbox' });
    expect(chatapp.status, JSON.stringify(chatapp.body)).to.equal(201);
    const time = Date.now();
    const meta = JSON.stringify({
      object: 'page',
      entry: [
        {
          id: 'RECORDED-PAGE',
          time,
          messaging: [
            { sender: { id: 'PSID-1' }, recipient: { id: 'RECORDED-PAGE' }, timestamp: time, message: { mid: 'm_rec_1', text: 'um' } },
            { sender: { id: 'PSID-2' }, recipient: { id: 'RECORDED-PAGE' }, timestamp: time, message: { mid: 'm_rec_2', text: 'dois' } },
          ],
        },
      ],
    });
    const signature = `sha256=${createHmac('sha256', APP_SECRET).update(meta).digest('hex')}`;
    const micro = { chatappId: chatapp.body.id, events: [{ type: 'InboundMessage', providerMessageId: 'micro-rec-1', from: '5511977770001', body: 'três' }] };
    for (let i = 0; i < 2; i++) {
      const delivered = await client(b.url).post('/webhook/', meta, { 'x-hub-signature-256': signature });
      expect(delivered.body).to.deep.equal({ received: true, accepted: 2 });
      expect([await recorded('m_rec_1'), await recorded('m_rec_2')]).to.deep.equal([1, 1]);
      const pushed = await client(b.url).post('/api/chatapp-microservice/webhook', micro, { 'x-webhook-secret': MICRO });
      expect(pushed.body).to.deep.equal({ received: true, accepted: 1 });
      expect(await recorded('micro-rec-1')).to.equal(1);
    }
  });

  it("a message the embedded runtime's connector receives is in the outbox once the connector is told it was taken", async () => {
    const { api } = await asSuper(b);
    const created = await api.post('/chatapp/', { name: 'Sandbox', provider: 'sandbox' });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    await eventually('the session to connect', async () => (await api.get(`/chatapp/${created.body.id}`)).body.status === 'CONNECTED');
    await b.sandbox!.inject(created.body.id as number, { from: '5511977770002', body: 'quatro', providerMessageId: 'sandbox-rec-1' });
    expect(await recorded('sandbox-rec-1')).to.equal(1);
  });
});
