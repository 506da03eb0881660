import { expect } from 'chai';
import { openNamespace } from '../support/namespace-client.js';
import { sandboxDesk } from '../support/sandbox-conversations.js';
import { asSuper, newCompanyWithAdmin, startTestBackend, type TestBackend } from '../support/test-backend.js';

const edge = (id: string, source: string, sourceHandle: string, target: string) => ({ id, source, sourceHandle, target });
const at = (x: number) => ({ x, y: 0 });

describe('HTTP: flows', () => {
  let b: TestBackend;
  before(async () => {
    b = await startTestBackend();
  });
  after(async () => {
    await b.close();
  });
  beforeEach(async () => {
    await b.reset();
  });

  it('creates, lists, shows, edits and deletes a flow, with frames to admins', async () => {
    const d = await sandboxDesk(b);
    const { token, user } = await asSuper(b);
    const ns = await openNamespace(b.url, user.companyId as number, token);
    try {
      const created = await d.admin.post('/flows', {
        name: 'Boas-vindas',
        triggers: [{ type: 'keyword', chatappIds: [d.connectionId], keywords: [{ text: 'oi', match: 'exact' }] }],
      });
      expect(created.status, JSON.stringify(created.body)).to.equal(201);
      expect(created.body).to.deep.include({
        name: 'Boas-vindas',
        active: false,
        version: 1,
        publishedVersion: null,
        nodeCount: 1,
        versions: [],
        draft: { nodes: [{ id: 'start', type: 'start', position: { x: 0, y: 0 }, data: {} }], edges: [] },
      });
      const frame = await ns.waitFor((f) => f.event === `company-${user.companyId}-flow` && f.data.action === 'create');
      const { draft: _draft, versions: _versions, ...summary } = created.body;
      expect(frame.data).to.deep.equal({ action: 'create', flow: summary });
      const list = await d.admin.get('/flows?searchParam=boas');
      expect(list.body).to.deep.equal({ flows: [summary], count: 1, hasMore: false });
      const edited = await d.admin.put(`/flows/${created.body.id}`, { name: 'Entrada', triggers: [] });
      expect([edited.status, edited.body.name, edited.body.triggers]).to.deep.equal([200, 'Entrada', []]);
      expect((await d.admin.put(`/flows/${created.body.id}`, { active: true })).body).to.deep.equal({ error: 'ERR_FLOW_NOT_PUBLISHED' });
      expect((await d.admin.post('/flows', { name: 'Entrada' })).body).to.deep.equal({ error: 'ERR_FLOW_NAME_IN_USE' });
      const deleted = await d.admin.delete(`/flows/${created.body.id}`);
      expect([deleted.status, deleted.body]).to.deep.equal([200, { message: 'Flow deleted' }]);
      expect((await ns.waitFor((f) => f.event === `company-${user.companyId}-flow` && f.data.action === 'delete')).data).to.deep.equal({
        action: 'delete',
        flowId: created.body.id,
      });
      expect((await d.admin.get(`/flows/${created.body.id}`)).body).to.deep.equal({ error: 'ERR_NO_FLOW_FOUND' });
    } finally {
      ns.close();
    }
  });

  it('edits the draft whole (a stale version is 409) or node by node, names the node it refuses, and publishes only a complete graph', async () => {
    const d = await sandboxDesk(b);
    const queue = (await d.admin.post('/queue', { name: 'Suporte', color: '#00aa55' })).body.id as number;
    const flow = (await d.admin.post('/flows', { name: 'Menu' })).body;
    const node = await d.admin.post(`/flows/${flow.id}/nodes`, { type: 'message', position: at(200), data: { text: 'Olá!' } });
    expect(node.status, JSON.stringify(node.body)).to.equal(201);
    expect(node.body).to.deep.include({ version: 2 });
    expect(node.body.node).to.deep.include({ type: 'message', data: { text: 'Olá!', media: null, typingMs: 0 } });
    const e = await d.admin.post(`/flows/${flow.id}/edges`, { source: 'start', sourceHandle: 'next', target: node.body.node.id });
    expect([e.status, e.body.version]).to.deep.equal([201, 3]);
    const taken = await d.admin.post(`/flows/${flow.id}/edges`, { source: 'start', sourceHandle: 'next', target: 'start' });
    expect([taken.status, taken.body.error, taken.body.reason]).to.deep.equal([
      422,
      'ERR_FLOW_INVALID_EDGE',
      'The handle `next` of `start` already leads somewhere',
    ]);
    expect((await d.admin.post(`/flows/${flow.id}/edges`, { source: 'start', sourceHandle: 'next', target: 'ghost' })).body).to.deep.equal({
      error: 'ERR_FLOW_NODE_NOT_FOUND',
    });
    const bad = await d.admin.post(`/flows/${flow.id}/nodes`, { type: 'interval', data: { seconds: 0 } });
    expect([bad.status, bad.body.error, bad.body.reason]).to.deep.equal([422, 'ERR_FLOW_INVALID_NODE', '`seconds` is a whole number from 1 to 604800']);
    expect(bad.body.nodeId).to.be.a('string');

    const shown = (await d.admin.get(`/flows/${flow.id}`)).body;
    expect(shown.version).to.equal(3);
    const graph = {
      version: 3,
      nodes: [...shown.draft.nodes, { id: 'to', type: 'transfer', position: at(400), data: { queueId: 999_999 } }],
      edges: [...shown.draft.edges, edge('e-to', node.body.node.id, 'next', 'to')],
    };
    const saved = await d.admin.put(`/flows/${flow.id}/graph`, graph);
    expect([saved.status, saved.body.version, saved.body.nodeCount], JSON.stringify(saved.body)).to.deep.equal([200, 4, 3]);
    const stale = await d.admin.put(`/flows/${flow.id}/graph`, graph);
    expect([stale.status, stale.body]).to.deep.equal([409, { error: 'ERR_FLOW_VERSION_CONFLICT' }]);
    const invalid = await d.admin.post(`/flows/${flow.id}/publish`);
    expect([invalid.status, invalid.body]).to.deep.equal([
      422,
      { error: 'ERR_FLOW_INVALID_GRAPH', nodeId: 'to', reason: "The queue 999999 is not one of the company's" },
    ]);
    const fixed = await d.admin.put(`/flows/${flow.id}/nodes/to`, { data: { queueId: queue } });
    expect([fixed.status, fixed.body.version, fixed.body.removedEdgeIds]).to.deep.equal([200, 5, []]);
    const published = await d.admin.post(`/flows/${flow.id}/publish`);
    expect(published.status, JSON.stringify(published.body)).to.equal(200);
    expect(published.body).to.deep.include({ flowId: flow.id, version: 1 });
    expect(published.body.graph.nodes.map((n: { id: string }) => n.id)).to.deep.equal(['start', node.body.node.id, 'to']);
    const active = await d.admin.put(`/flows/${flow.id}`, { active: true });
    expect(active.body).to.deep.include({ active: true, publishedVersion: 1, versions: [1] });
    const removed = await d.admin.delete(`/flows/${flow.id}/nodes/${node.body.node.id}`);
    expect(removed.body).to.deep.equal({ version: 6, removedEdgeIds: [e.body.edge.id, 'e-to'] });
    expect((await d.admin.delete(`/flows/${flow.id}/edges/e-to`)).body).to.deep.equal({ error: 'ERR_FLOW_EDGE_NOT_FOUND' });
    const unreachable = await d.admin.post(`/flows/${flow.id}/publish`);
    expect(unreachable.body).to.deep.equal({ error: 'ERR_FLOW_INVALID_GRAPH', nodeId: 'start', reason: 'The handle `next` leads nowhere' });
  });

  it('names a refused edge by elements of the graph the editor sent: its source node and its own id, never an id the server made up', async () => {
    const { api } = await asSuper(b);
    const flow = (await api.post('/flows', { name: 'Arestas' })).body;
    const node = (await api.post(`/flows/${flow.id}/nodes`, { type: 'close' })).body.node;
    expect((await api.post(`/flows/${flow.id}/edges`, { source: 'start', sourceHandle: 'next', target: node.id })).status).to.equal(201);
    const refused = async (res: { status: number; body: any }) => [res.status, res.body.error, res.body.nodeId, res.body.edgeId];
    // Added one by one, the edge has no id of the client's: the source names it.
    expect(await refused(await api.post(`/flows/${flow.id}/edges`, { source: 'start', sourceHandle: 'next', target: 'start' }))).to.deep.equal([
      422,
      'ERR_FLOW_INVALID_EDGE',
      'start',
      null,
    ]);
    expect(await refused(await api.post(`/flows/${flow.id}/edges`, { source: 'start', sourceHandle: 'nope', target: node.id }))).to.deep.equal([
      422,
      'ERR_FLOW_INVALID_EDGE',
      'start',
      null,
    ]);
    // Saved whole, the edge's own id and its source as the edge gives it.
    const save = (edges: unknown[]) =>
      api.put(`/flows/${flow.id}/graph`, {
        version: 3,
        nodes: [
          { id: 'start', type: 'start' },
          { id: 'a', type: 'close' },
        ],
        edges,
      });
    expect(await refused(await save([edge('e1', 'start', 'next', 'a'), edge('e1', 'a', 'next', 'start')]))).to.deep.equal([
      422,
      'ERR_FLOW_INVALID_EDGE',
      'a',
      'e1',
    ]);
    expect(await refused(await save([edge('e2', 'ghost', 'next', 'a'), edge('e2', 'start', 'next', 'a')]))).to.deep.equal([
      422,
      'ERR_FLOW_INVALID_EDGE',
      'start',
      'e2',
    ]);
  });

  it('simulates welcome → menu → condition → HTTP (mocked) → transfer, sending and storing nothing', async () => {
    const d = await sandboxDesk(b);
    // No business hours set: always open.
    const company = (await asSuper(b)).user.companyId as number;
    expect((await d.admin.put(`/companies/${company}/schedules`, { schedules: [] })).status).to.equal(200);
    const queue = (await d.admin.post('/queue', { name: 'Pedidos', color: '#0055aa' })).body.id as number;
    const flow = (await d.admin.post('/flows', { name: 'Atendimento' })).body;
    const saved = await d.admin.put(`/flows/${flow.id}/graph`, {
      version: 1,
      nodes: [
        { id: 'start', type: 'start', position: at(0) },
        { id: 'welcome', type: 'message', position: at(1), data: { text: 'Olá, {{firstName}}!' } },
        {
          id: 'menu',
          type: 'question',
          position: at(2),
          data: {
            text: 'Como ajudar?',
            options: [
              { handle: 'a1', label: 'Pedidos' },
              { handle: 'a2', label: 'Outros' },
            ],
            variable: 'topic',
          },
        },
        { id: 'hours', type: 'condition', position: at(3), data: { rules: [{ source: 'businessHours', operator: 'isTrue' }] } },
        {
          id: 'lookup',
          type: 'http',
          position: at(4),
          data: { url: 'https://erp.example.com/orders?phone={{number}}', save: [{ path: 'orders.0.status', variable: 'status' }] },
        },
        { id: 'status', type: 'message', position: at(5), data: { text: 'Seu pedido: {{status}}' } },
        { id: 'to', type: 'transfer', position: at(6), data: { queueId: queue } },
        { id: 'closed', type: 'close', position: at(7) },
      ],
      edges: [
        edge('e1', 'start', 'next', 'welcome'),
        edge('e2', 'welcome', 'next', 'menu'),
        edge('e3', 'menu', 'a1', 'hours'),
        edge('e4', 'menu', 'a2', 'closed'),
        edge('e5', 'hours', 'true', 'lookup'),
        edge('e6', 'hours', 'false', 'closed'),
        edge('e7', 'lookup', 'success', 'status'),
        edge('e8', 'lookup', 'error', 'closed'),
        edge('e9', 'status', 'next', 'to'),
      ],
    });
    expect(saved.status, JSON.stringify(saved.body)).to.equal(200);
    const tickets = (await d.admin.get('/tickets?showAll=true')).body.count;
    const sim = await d.admin.post(`/flows/${flow.id}/simulate`, {
      inputs: ['1'],
      contact: { name: 'Maria Souza', number: '5511977776666' },
      mocks: { http: { lookup: { status: 200, body: { orders: [{ status: 'enviado' }] } } } },
    });
    expect(sim.status, JSON.stringify(sim.body)).to.equal(200);
    expect(sim.body.transcript).to.deep.equal([
      { from: 'bot', text: 'Olá, Maria!', nodeId: 'welcome' },
      { from: 'bot', text: 'Como ajudar?\n[1] Pedidos\n[2] Outros', nodeId: 'menu' },
      { event: 'wait', nodeId: 'menu', kind: 'answer', until: null },
      { from: 'contact', text: '1', nodeId: 'menu' },
      {
        event: 'callHttp',
        nodeId: 'lookup',
        request: { method: 'GET', url: 'https://erp.example.com/orders?phone=5511977776666', headers: [], body: null, timeoutMs: 10_000 },
        response: { status: 200, body: { orders: [{ status: 'enviado' }] } },
      },
      { from: 'bot', text: 'Seu pedido: enviado', nodeId: 'status' },
      { event: 'transfer', nodeId: 'to', queueId: queue, userId: null },
      { event: 'end', nodeId: 'to', status: 'handedOver', reason: 'transferred' },
    ]);
    expect(sim.body).to.deep.include({ flowId: flow.id, version: 'draft', inputsUsed: 1 });
    expect(sim.body.state).to.deep.equal({
      nodeId: 'to',
      variables: { lastAnswer: '1', topic: 'Pedidos', status: 'enviado' },
      waiting: null,
      status: 'handedOver',
      ai: null,
    });
    expect(d.sent()).to.deep.equal([]);
    expect((await d.admin.get('/tickets?showAll=true')).body.count).to.equal(tickets);
    expect((await d.admin.post(`/flows/${flow.id}/simulate`, { version: 1, inputs: [] })).body).to.deep.equal({ error: 'ERR_FLOW_VERSION_NOT_FOUND' });
    expect((await d.admin.post(`/flows/${flow.id}/simulate`, { inputs: 'x' })).body.error).to.equal('ERR_VALIDATION');
  });

  it('checks tenant and profile on every route, and answers bad input with a 4xx', async () => {
    const d = await sandboxDesk(b);
    const other = await newCompanyWithAdmin(b);
    const theirs = (await other.api.post('/flows', { name: 'Deles' })).body;
    const ours = (await d.admin.post('/flows', { name: 'Nosso' })).body;
    const routes = (id: number) =>
      [
        ['GET', `/flows/${id}`, undefined],
        ['PUT', `/flows/${id}`, { name: 'X' }],
        ['DELETE', `/flows/${id}`, undefined],
        ['PUT', `/flows/${id}/graph`, { version: 1, nodes: [], edges: [] }],
        ['POST', `/flows/${id}/nodes`, { type: 'close' }],
        ['PUT', `/flows/${id}/nodes/start`, { data: {} }],
        ['DELETE', `/flows/${id}/nodes/start`, undefined],
        ['POST', `/flows/${id}/edges`, { source: 'start', sourceHandle: 'next', target: 'start' }],
        ['DELETE', `/flows/${id}/edges/e1`, undefined],
        ['POST', `/flows/${id}/publish`, undefined],
        ['POST', `/flows/${id}/simulate`, { inputs: [] }],
      ] as const;
    for (const [method, path, body] of routes(theirs.id)) {
      const res = await d.admin.call(method, path, body);
      expect([res.status, res.body], `${method} ${path}`).to.deep.equal([404, { error: 'ERR_NO_FLOW_FOUND' }]);
    }
    for (const [method, path, body] of [['GET', '/flows', undefined], ['POST', '/flows', { name: 'Meu' }], ...routes(ours.id)] as const) {
      const res = await d.ana.api.call(method, path, body);
      expect([res.status, res.body], `${method} ${path}`).to.deep.equal([403, { error: 'ERR_NO_PERMISSION' }]);
    }
    expect((await d.admin.get('/flows')).body.flows.map((f: { id: number }) => f.id)).to.deep.equal([ours.id]);
    const cases: Array<[string, string, unknown, number, string]> = [
      ['POST', '/flows', { name: '' }, 422, 'ERR_FLOW_INVALID_NAME'],
      ['POST', '/flows', { name: 42 }, 422, 'ERR_VALIDATION'],
      ['POST', '/flows', { name: 'K', triggers: [{ type: 'keyword', chatappIds: [], keywords: [] }] }, 422, 'ERR_FLOW_INVALID_TRIGGERS'],
      ['POST', '/flows', { name: 'K', triggers: [{ type: 'welcome', chatappIds: [999_999], keywords: [] }] }, 404, 'ERR_NO_CONNECTION_FOUND'],
      ['POST', `/flows/${ours.id}/nodes`, { type: 'robot' }, 422, 'ERR_VALIDATION'],
      ['POST', `/flows/${ours.id}/nodes`, { type: 'question', data: { options: [{ handle: 'next', label: 'x' }] } }, 422, 'ERR_FLOW_INVALID_NODE'],
      ['PUT', `/flows/${ours.id}/nodes/start`, { type: 'robot' }, 422, 'ERR_FLOW_INVALID_NODE'],
      ['PUT', `/flows/${ours.id}/nodes/bad%20id`, { data: {} }, 422, 'ERR_VALIDATION'],
      [
        'PUT',
        `/flows/${ours.id}/graph`,
        {
          version: 1,
          nodes: [
            { id: 'a', type: 'close' },
            { id: 'a', type: 'close' },
          ],
          edges: [],
        },
        422,
        'ERR_FLOW_INVALID_NODE',
      ],
      [
        'PUT',
        `/flows/${ours.id}/graph`,
        { version: 1, nodes: [], edges: [edge('e', 'a', 'next', 'b'), edge('e', 'a', 'x', 'b')] },
        422,
        'ERR_FLOW_INVALID_EDGE',
      ],
      ['PUT', `/flows/${ours.id}/graph`, { version: 0, nodes: [], edges: [] }, 422, 'ERR_VALIDATION'],
      ['GET', '/flows/abc', undefined, 422, 'ERR_VALIDATION'],
      ['GET', '/flows/99999999999', undefined, 422, 'ERR_VALIDATION'],
    ];
    for (const [method, path, body, status, error] of cases) {
      const res = await d.admin.call(method, path, body);
      expect([res.status, res.body.error], `${method} ${path} ${JSON.stringify(body)}`).to.deep.equal([status, error]);
    }
    // Another flow going to ours keeps it.
    const jump = await d.admin.post('/flows', { name: 'Salto' });
    await d.admin.post(`/flows/${jump.body.id}/nodes`, { type: 'goToFlow', data: { flowId: ours.id } });
    expect((await d.admin.delete(`/flows/${ours.id}`)).body).to.deep.equal({ error: 'ERR_FLOW_IN_USE' });
  });
});
