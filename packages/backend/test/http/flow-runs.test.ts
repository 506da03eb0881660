import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { eventually, sandboxDesk } from '../support/sandbox-conversations.js';
import { startTestBackend, type TestBackend } from '../support/test-backend.js';

const e = (list: ReadonlyArray<readonly [string, string, string]>) =>
  list.map(([source, sourceHandle, target], i) => ({ id: `e${i + 1}`, source, sourceHandle, target }));

describe('HTTP: flow runs', () => {
  let b: TestBackend;
  let erp: Server;
  let erpUrl: string;
  before(async () => {
    erp = createServer((req, res) => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ orders: [{ status: 'enviado', path: req.url }] }));
    });
    await new Promise<void>((r) => erp.listen(0, '127.0.0.1', r));
    erpUrl = `http://127.0.0.1:${(erp.address() as AddressInfo).port}`;
    b = await startTestBackend({ ALLOW_PRIVATE_URLS: 'true' });
  });
  after(async () => {
    await b.close();
    await new Promise((r) => erp.close(r));
  });
  beforeEach(async () => {
    await b.reset();
  });

  it('a published welcome flow (menu → condition → HTTP to a loopback server → transfer) answers a new sandbox contact as the simulation says', async () => {
    const d = await sandboxDesk(b);
    const queue = (await d.admin.post('/queue', { name: 'Pedidos', color: '#00aa55' })).body.id as number;
    const flow = (await d.admin.post('/flows', { name: 'Boas-vindas' })).body;
    const graph = {
      nodes: [
        { id: 'start', type: 'start', data: {} },
        { id: 'hi', type: 'message', data: { text: 'Olá, {{firstName}}!' } },
        {
          id: 'menu',
          type: 'question',
          data: {
            text: 'Como ajudar?',
            options: [
              { handle: 'a1', label: 'Pedidos' },
              { handle: 'a2', label: 'Outros' },
            ],
            variable: 'topic',
          },
        },
        { id: 'is', type: 'condition', data: { rules: [{ source: 'variable', key: 'topic', operator: 'equals', value: 'Pedidos' }] } },
        { id: 'get', type: 'http', data: { url: `${erpUrl}/orders?phone={{number}}`, save: [{ path: 'orders.0.status', variable: 'status' }] } },
        { id: 'say', type: 'message', data: { text: 'Seu pedido: {{status}}' } },
        { id: 'to', type: 'transfer', data: { queueId: queue } },
        { id: 'ko', type: 'message', data: { text: 'Indisponível.' } },
        { id: 'bye', type: 'close', data: {} },
      ],
      edges: e([
        ['start', 'next', 'hi'],
        ['hi', 'next', 'menu'],
        ['menu', 'a1', 'is'],
        ['menu', 'a2', 'bye'],
        ['is', 'true', 'get'],
        ['is', 'false', 'bye'],
        ['get', 'success', 'say'],
        ['get', 'error', 'ko'],
        ['say', 'next', 'to'],
      ]),
    };
    const saved = await d.admin.put(`/flows/${flow.id}/graph`, { version: 1, ...graph });
    expect(saved.status, JSON.stringify(saved.body)).to.equal(200);
    expect((await d.admin.post(`/flows/${flow.id}/publish`, {})).status).to.equal(200);
    const activated = await d.admin.put(`/flows/${flow.id}`, { active: true, triggers: [{ type: 'welcome', chatappIds: [d.connectionId], keywords: [] }] });
    expect(activated.status, JSON.stringify(activated.body)).to.equal(200);

    const to = '5511977776666';
    const texts = () =>
      d
        .sent()
        .filter((s) => s.to === to)
        .map((s) => s.content.body as string);
    await d.inbound(to, 'oi', { senderName: 'Carla Dias' });
    await eventually('the menu', () => texts().length === 2);
    await d.inbound(to, '1');
    await eventually('the order status', () => texts().length === 3);
    const ticket = await eventually('the transfer', async () => {
      const found = (await d.admin.get(`/tickets?showAll=true&searchParam=${to}`)).body.tickets[0];
      return found?.queueId === queue && found;
    });
    expect(ticket).to.include({ status: 'pending', userId: null });

    const simulated = await d.admin.post(`/flows/${flow.id}/simulate`, {
      version: 1,
      inputs: ['1'],
      contact: { name: 'Carla Dias', number: to },
      mocks: { http: { get: { status: 200, body: { orders: [{ status: 'enviado' }] } } } },
    });
    const botLines = (simulated.body.transcript as Array<{ from?: string; text?: string }>).filter((l) => l.from === 'bot').map((l) => l.text);
    expect(texts()).to.deep.equal(botLines);
    expect(texts()).to.deep.equal(['Olá, Carla!', 'Como ajudar?\n[1] Pedidos\n[2] Outros', 'Seu pedido: enviado']);

    // The manual trigger: the ticket waits in its queue, nobody took it, so a run may start; a second one is 409.
    const run = await d.admin.post(`/flows/${flow.id}/execute`, { ticketId: ticket.id });
    expect(run.status, JSON.stringify(run.body)).to.equal(200);
    expect(run.body).to.include({ flowId: flow.id, version: 1, ticketId: ticket.id, status: 'waiting', trigger: 'manual', nodeId: 'menu' });
    expect((await d.admin.post(`/flows/${flow.id}/execute`, { ticketId: ticket.id })).body).to.deep.equal({ error: 'ERR_FLOW_RUN_ACTIVE' });
    expect((await d.admin.post(`/flows/${flow.id}/execute`, {})).body).to.deep.equal({ error: 'ERR_FLOW_EXECUTE_TARGET' });
    expect((await d.ana.api.post(`/flows/${flow.id}/execute`, { ticketId: ticket.id })).status).to.equal(403);
    expect((await d.admin.post('/flows/999999/execute', { ticketId: ticket.id })).status).to.equal(404);
  });
});
