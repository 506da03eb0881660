import { expect } from 'chai';
import type { FlowGraphInput } from '../../src/flows/clean-graph.js';
import { HANDOVER_PHRASE } from '../../src/prompts/prompt-answer.js';
import { code, ticketWorld, type TicketWorld } from '../messaging/ticket-world.js';
import { node } from './graph-builder.js';

const edges = (list: ReadonlyArray<readonly [string, string, string]>) =>
  list.map(([source, sourceHandle, target], i) => ({ id: `e${i + 1}`, source, sourceHandle, target }));

describe('Flows: simulation', () => {
  let w: TicketWorld;
  beforeEach(async () => {
    w = await ticketWorld();
  });

  async function flowWith(graph: FlowGraphInput, name = 'Simulada') {
    const flow = await w.app.flows.createFlow.execute({ actor: w.admin, name });
    await w.app.flows.saveFlowGraph.execute({ actor: w.admin, flowId: flow.id, version: 1, graph });
    return flow.id;
  }

  it('walks welcome → menu → condition → HTTP (mocked) → transfer, answering the transcript and the final state; nothing is sent or stored', async () => {
    // Open on Thursdays: the fixed clock's day.
    await w.app.tenancy.updateCompanySchedules.execute({
      actor: w.admin,
      companyId: w.acme.id,
      schedules: [{ weekday: 'Quinta-feira', weekdayEn: 'thursday', startTime: '08:00', endTime: '18:00' }],
    });
    const flowId = await flowWith({
      nodes: [
        node('start', 'start'),
        node('welcome', 'message', { text: 'Olá, {{firstName}}!' }),
        node('menu', 'question', {
          text: 'Como ajudar?',
          options: [
            { handle: 'a1', label: 'Pedidos' },
            { handle: 'a2', label: 'Outros' },
          ],
          variable: 'topic',
        }),
        node('hours', 'condition', { rules: [{ source: 'businessHours', operator: 'isTrue' }] }),
        node('closed', 'message', { text: 'Estamos fechados.' }),
        node('lookup', 'http', { url: 'https://erp.example.com/orders?phone={{number}}', save: [{ path: 'orders.0.status', variable: 'status' }] }),
        node('status', 'message', { text: 'Seu pedido está: {{status}}' }),
        node('to', 'transfer', { queueId: w.support.id }),
        node('sorry', 'message', { text: 'Sistema indisponível.' }),
        node('other', 'close'),
      ],
      edges: edges([
        ['start', 'next', 'welcome'],
        ['welcome', 'next', 'menu'],
        ['menu', 'a1', 'hours'],
        ['menu', 'a2', 'other'],
        ['hours', 'true', 'lookup'],
        ['hours', 'false', 'closed'],
        ['lookup', 'success', 'status'],
        ['lookup', 'error', 'sorry'],
        ['status', 'next', 'to'],
      ]),
    });
    const before = {
      messages: await w.ports.messages.list({ companyId: w.acme.id, page: { offset: 0, limit: 50 } }),
      outbox: w.ports.outbox.entries.length,
      events: w.ports.realtime.events.length,
    };
    const result = await w.app.flows.simulateFlow.execute({
      actor: w.admin,
      flowId,
      inputs: ['x', '1', 'extra'],
      contact: { name: 'Maria Souza', number: '5511977776666' },
      mocks: { http: { lookup: { status: 200, body: { orders: [{ status: 'enviado' }] } } } },
    });
    expect(result.transcript).to.deep.equal([
      { from: 'bot', text: 'Olá, Maria!', nodeId: 'welcome' },
      { from: 'bot', text: 'Como ajudar?\n[1] Pedidos\n[2] Outros', nodeId: 'menu' },
      { event: 'wait', nodeId: 'menu', kind: 'answer', until: null },
      { from: 'contact', text: 'x', nodeId: 'menu' },
      { from: 'bot', text: 'Como ajudar?\n[1] Pedidos\n[2] Outros', nodeId: 'menu' },
      { event: 'wait', nodeId: 'menu', kind: 'answer', until: null },
      { from: 'contact', text: '1', nodeId: 'menu' },
      {
        event: 'callHttp',
        nodeId: 'lookup',
        request: { method: 'GET', url: 'https://erp.example.com/orders?phone=5511977776666', headers: [], body: null, timeoutMs: 10_000 },
        response: { status: 200, body: { orders: [{ status: 'enviado' }] } },
      },
      { from: 'bot', text: 'Seu pedido está: enviado', nodeId: 'status' },
      { event: 'transfer', nodeId: 'to', queueId: w.support.id, userId: null },
      { event: 'end', nodeId: 'to', status: 'handedOver', reason: 'transferred' },
    ]);
    expect(result).to.deep.include({ flowId, version: 'draft', inputsUsed: 2 });
    expect(result.state).to.deep.include({ nodeId: 'to', status: 'handedOver', waiting: null });
    expect(result.state.variables).to.deep.equal({ lastAnswer: '1', topic: 'Pedidos', status: 'enviado' });
    expect(await w.ports.messages.list({ companyId: w.acme.id, page: { offset: 0, limit: 50 } })).to.deep.equal(before.messages);
    expect([w.ports.outbox.entries.length, w.ports.realtime.events.length]).to.deep.equal([before.outbox, before.events]);
    // Without a mock the call fails: the error handle.
    const unmocked = await w.app.flows.simulateFlow.execute({ actor: w.admin, flowId, inputs: ['1'] });
    expect(unmocked.transcript.slice(-3)).to.deep.equal([
      {
        event: 'callHttp',
        nodeId: 'lookup',
        request: { method: 'GET', url: 'https://erp.example.com/orders?phone=5511999999999', headers: [], body: null, timeoutMs: 10_000 },
        response: { error: 'not mocked' },
      },
      { from: 'bot', text: 'Sistema indisponível.', nodeId: 'sorry' },
      { event: 'end', nodeId: 'sorry', status: 'done', reason: 'end' },
    ]);
  });

  it("passes intervals on a simulated clock, stops waiting when the inputs run out, and branches on the company's hours", async () => {
    await w.app.tenancy.updateCompanySchedules.execute({
      actor: w.admin,
      companyId: w.acme.id,
      schedules: [{ weekday: 'Segunda-feira', weekdayEn: 'monday', startTime: '09:00', endTime: '18:00' }],
    });
    const flowId = await flowWith({
      nodes: [
        node('start', 'start'),
        node('wait', 'interval', { seconds: 3600 * 24 * 3 }),
        node('c', 'condition', { rules: [{ source: 'businessHours', operator: 'isTrue' }] }),
        node('open', 'question', { mode: 'free', text: 'Aberto. Nome?' }),
        node('closed', 'message', { text: 'Fechado.' }),
      ],
      edges: edges([
        ['start', 'next', 'wait'],
        ['wait', 'next', 'c'],
        ['c', 'true', 'open'],
        ['c', 'false', 'closed'],
      ]),
    });
    // The fixed clock is a Thursday: three days later is a Sunday.
    const now = w.ports.clock.now();
    const result = await w.app.flows.simulateFlow.execute({ actor: w.admin, flowId, inputs: [] });
    expect(result.transcript[0]).to.deep.equal({
      event: 'wait',
      nodeId: 'wait',
      kind: 'interval',
      until: new Date(now.getTime() + 3 * 86_400_000).toISOString(),
    });
    expect(result.transcript.slice(1)).to.deep.equal([
      { from: 'bot', text: 'Fechado.', nodeId: 'closed' },
      { event: 'end', nodeId: 'closed', status: 'done', reason: 'end' },
    ]);
    await w.app.flows.updateFlowNode.execute({ actor: w.admin, flowId, nodeId: 'wait', node: { data: { seconds: 4 * 86_400 } } });
    const monday = await w.app.flows.simulateFlow.execute({ actor: w.admin, flowId, inputs: [] });
    expect(monday.state).to.deep.include({ nodeId: 'open', status: 'waiting' });
    expect(monday.inputsUsed).to.equal(0);
  });

  it('answers AI agents from the mock (the hand-over phrase hands over), runs a published version, and refuses what cannot run', async () => {
    const flowId = await flowWith({
      nodes: [
        node('start', 'start'),
        node('ai', 'aiAgent', { promptId: 1 }),
        node('ok', 'message', { text: 'ok' }),
        node('human', 'transfer', { queueId: w.sales.id }),
      ],
      edges: edges([
        ['start', 'next', 'ai'],
        ['ai', 'done', 'ok'],
        ['ai', 'handover', 'human'],
      ]),
    });
    const answered = await w.app.flows.simulateFlow.execute({ actor: w.admin, flowId, inputs: [], mocks: { ai: 'Posso ajudar.' } });
    expect(answered.transcript.map((t) => ('from' in t ? t.text : t.event))).to.deep.equal(['callAi', 'Posso ajudar.', 'ok', 'end']);
    const handed = await w.app.flows.simulateFlow.execute({ actor: w.admin, flowId, inputs: [], mocks: { ai: `${HANDOVER_PHRASE}` } });
    expect(handed.state.status).to.equal('handedOver');
    expect(await code(w.app.flows.simulateFlow.execute({ actor: w.admin, flowId, version: 1, inputs: [] }))).to.equal('ERR_FLOW_VERSION_NOT_FOUND');
    const other = await flowWith(
      { nodes: [node('start', 'start'), node('m', 'message', { text: 'v1' })], edges: edges([['start', 'next', 'm']]) },
      'Versionada',
    );
    await w.app.flows.publishFlow.execute({ actor: w.admin, flowId: other });
    await w.app.flows.updateFlowNode.execute({ actor: w.admin, flowId: other, nodeId: 'm', node: { data: { text: 'rascunho' } } });
    expect((await w.app.flows.simulateFlow.execute({ actor: w.admin, flowId: other, version: 1, inputs: [] })).transcript[0]).to.deep.equal({
      from: 'bot',
      text: 'v1',
      nodeId: 'm',
    });
    expect((await w.app.flows.simulateFlow.execute({ actor: w.admin, flowId: other, inputs: [] })).transcript[0]).to.deep.equal({
      from: 'bot',
      text: 'rascunho',
      nodeId: 'm',
    });
    const loop = await flowWith(
      {
        nodes: [node('start', 'start'), node('a', 'setVariable', { variable: 'x', value: '1' })],
        edges: edges([
          ['start', 'next', 'a'],
          ['a', 'next', 'a'],
        ]),
      },
      'Laço',
    );
    expect(await code(w.app.flows.simulateFlow.execute({ actor: w.admin, flowId: loop, inputs: [] }))).to.equal('ERR_FLOW_LOOP');
    const empty = await w.app.flows.createFlow.execute({ actor: w.admin, name: 'Vazia' });
    await w.app.flows.removeFlowNode.execute({ actor: w.admin, flowId: empty.id, nodeId: 'start' });
    expect(await code(w.app.flows.simulateFlow.execute({ actor: w.admin, flowId: empty.id, inputs: [] }))).to.equal('ERR_FLOW_INVALID_GRAPH');
    expect(await code(w.app.flows.simulateFlow.execute({ actor: w.ana, flowId, inputs: [] }))).to.equal('ERR_NO_PERMISSION');
    expect(await code(w.app.flows.simulateFlow.execute({ actor: w.otherAdmin, flowId, inputs: [] }))).to.equal('ERR_NO_FLOW_FOUND');
  });
});
