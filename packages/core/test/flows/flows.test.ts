import { expect } from 'chai';
import { admits, audienceOf } from '../../src/events/realtime-audience.js';
import { code, eventsOf, ticketWorld, type TicketWorld } from '../messaging/ticket-world.js';
import { node } from './graph-builder.js';

/** The located error a promise rejects with: `{ error, nodeId, reason }`. */
const located = (p: Promise<unknown>) =>
  p.then(
    () => 'resolved',
    (e: { code?: string; located?: object }) => ({ error: e.code, ...e.located }),
  );

describe('Flows: definitions, drafts and publishing', () => {
  let w: TicketWorld;
  beforeEach(async () => {
    w = await ticketWorld();
  });

  it('creates a flow with only a start node, lists, shows, renames, re-triggers and deletes it, telling admins each time', async () => {
    const { app, admin, connection } = w;
    const created = await app.flows.createFlow.execute({
      actor: admin,
      name: '  Boas-vindas  ',
      triggers: [{ type: 'keyword', chatappIds: [connection.id], keywords: [{ text: ' oi ', match: 'exact' }] }],
    });
    expect(created).to.deep.include({
      name: 'Boas-vindas',
      active: false,
      version: 1,
      publishedVersion: null,
      nodeCount: 1,
      versions: [],
      triggers: [{ type: 'keyword', chatappIds: [connection.id], keywords: [{ text: 'oi', match: 'exact' }] }],
      draft: { nodes: [{ id: 'start', type: 'start', position: { x: 0, y: 0 }, data: {} }], edges: [] },
    });
    await app.flows.createFlow.execute({ actor: admin, name: 'Atendimento' });
    const list = await app.flows.listFlows.execute({ actor: admin });
    expect([list.flows.map((f) => f.name), list.count, list.hasMore]).to.deep.equal([['Atendimento', 'Boas-vindas'], 2, false]);
    expect(list.flows[1]).to.not.have.property('draft');
    expect((await app.flows.listFlows.execute({ actor: admin, searchParam: 'boas' })).flows.map((f) => f.id)).to.deep.equal([created.id]);
    const updated = await app.flows.updateFlow.execute({
      actor: admin,
      flowId: created.id,
      name: 'Entrada',
      triggers: [{ type: 'welcome', chatappIds: [], keywords: [{ text: 'x', match: 'exact' }] }],
    });
    expect(updated).to.deep.include({ name: 'Entrada', triggers: [{ type: 'welcome', chatappIds: [], keywords: [] }], version: 1 });
    expect((await app.flows.showFlow.execute({ actor: admin, flowId: created.id })).name).to.equal('Entrada');
    await app.flows.deleteFlow.execute({ actor: admin, flowId: created.id });
    expect(await code(app.flows.showFlow.execute({ actor: admin, flowId: created.id }))).to.equal('ERR_NO_FLOW_FOUND');
    expect(eventsOf(w)).to.deep.equal(['flow:create', 'flow:create', 'flow:update', 'flow:delete']);
    expect(w.ports.realtime.events.map((e) => e.companyId)).to.deep.equal([w.acme.id, w.acme.id, w.acme.id, w.acme.id]);
  });

  it('sends its frames to admins only, as its routes are theirs', async () => {
    const { app, admin, ports, acme } = w;
    await app.flows.createFlow.execute({ actor: admin, name: 'Vendas' });
    const audience = await audienceOf(ports, acme.id, ports.realtime.events.at(-1)!);
    expect(audience).to.deep.equal({ kind: 'admins' });
    const access = (profile: 'user' | 'admin') => ({ actor: { userId: 9, companyId: acme.id, profile }, seesAll: true, queueIds: [] });
    expect([admits(access('admin'), audience), admits(access('user'), audience)]).to.deep.equal([true, false]);
  });

  it("refuses bad names, triggers and connections, duplicate names, activation before publishing; operators; other companies' flows", async () => {
    const { app, admin, ana, otherAdmin, otherConnection } = w;
    const flow = await app.flows.createFlow.execute({ actor: admin, name: 'Vendas' });
    expect(await code(app.flows.createFlow.execute({ actor: admin, name: ' ' }))).to.equal('ERR_FLOW_INVALID_NAME');
    expect(await code(app.flows.createFlow.execute({ actor: admin, name: 'x'.repeat(101) }))).to.equal('ERR_FLOW_INVALID_NAME');
    expect(await code(app.flows.createFlow.execute({ actor: admin, name: 'Vendas' }))).to.equal('ERR_FLOW_NAME_IN_USE');
    expect(await code(app.flows.createFlow.execute({ actor: admin, name: 'K', triggers: [{ type: 'keyword', chatappIds: [], keywords: [] }] }))).to.equal(
      'ERR_FLOW_INVALID_TRIGGERS',
    );
    expect(
      await code(app.flows.createFlow.execute({ actor: admin, name: 'K', triggers: [{ type: 'welcome', chatappIds: [otherConnection.id], keywords: [] }] })),
    ).to.equal('ERR_NO_CONNECTION_FOUND');
    expect(await code(app.flows.createFlow.execute({ actor: admin, name: 'K', active: true }))).to.equal('ERR_FLOW_NOT_PUBLISHED');
    expect(await code(app.flows.updateFlow.execute({ actor: admin, flowId: flow.id, active: true }))).to.equal('ERR_FLOW_NOT_PUBLISHED');
    expect(await code(app.flows.createFlow.execute({ actor: ana, name: 'Meu' }))).to.equal('ERR_NO_PERMISSION');
    expect(await code(app.flows.listFlows.execute({ actor: ana }))).to.equal('ERR_NO_PERMISSION');
    expect(await code(app.flows.showFlow.execute({ actor: otherAdmin, flowId: flow.id }))).to.equal('ERR_NO_FLOW_FOUND');
    expect(await code(app.flows.deleteFlow.execute({ actor: otherAdmin, flowId: flow.id }))).to.equal('ERR_NO_FLOW_FOUND');
    expect(await code(app.flows.addFlowNode.execute({ actor: otherAdmin, flowId: flow.id, node: { type: 'close' } }))).to.equal('ERR_NO_FLOW_FOUND');
    expect((await app.flows.listFlows.execute({ actor: otherAdmin })).count).to.equal(0);
  });

  it('edits the draft node by node and edge by edge, each change moving its version; a stale whole-graph save is 409', async () => {
    const { app, admin } = w;
    const flow = await app.flows.createFlow.execute({ actor: admin, name: 'Menu' });
    const { node: menu, version: v2 } = await app.flows.addFlowNode.execute({
      actor: admin,
      flowId: flow.id,
      node: {
        type: 'question',
        position: { x: 10, y: 20 },
        data: {
          text: 'Escolha',
          options: [
            { handle: 'a1', label: 'A' },
            { handle: 'a2', label: 'B' },
          ],
        },
      },
    });
    expect(v2).to.equal(2);
    expect(menu).to.deep.include({ type: 'question', position: { x: 10, y: 20 } });
    expect(menu.data).to.deep.include({ mode: 'options', retries: 2, validation: 'text', timeoutSeconds: null, variable: null });
    const { node: bye } = await app.flows.addFlowNode.execute({ actor: admin, flowId: flow.id, node: { type: 'close' } });
    const e1 = await app.flows.addFlowEdge.execute({ actor: admin, flowId: flow.id, edge: { source: 'start', sourceHandle: 'next', target: menu.id } });
    const e2 = await app.flows.addFlowEdge.execute({ actor: admin, flowId: flow.id, edge: { source: menu.id, sourceHandle: 'a2', target: bye.id } });
    expect(e2.version).to.equal(5);
    expect(
      await located(app.flows.addFlowEdge.execute({ actor: admin, flowId: flow.id, edge: { source: menu.id, sourceHandle: 'a2', target: 'start' } })),
    ).to.deep.include({ error: 'ERR_FLOW_INVALID_EDGE', nodeId: menu.id, edgeId: null, reason: `The handle \`a2\` of \`${menu.id}\` already leads somewhere` });
    expect(
      await located(app.flows.addFlowEdge.execute({ actor: admin, flowId: flow.id, edge: { source: menu.id, sourceHandle: 'zz', target: bye.id } })),
    ).to.deep.include({ error: 'ERR_FLOW_INVALID_EDGE', nodeId: menu.id, edgeId: null, reason: `The node \`${menu.id}\` has no handle \`zz\`` });
    // A malformed end: the edge by its own id, the source only when it is an id.
    const save = (e: { id: string; source: string }) =>
      app.flows.saveFlowGraph.execute({
        actor: admin,
        flowId: flow.id,
        version: 5,
        graph: { nodes: [{ id: 'start', type: 'start' }], edges: [{ ...e, sourceHandle: 'next', target: 'start' }] },
      });
    expect(await located(save({ id: 'e9', source: 'no such id!' }))).to.deep.include({ error: 'ERR_FLOW_INVALID_EDGE', nodeId: null, edgeId: 'e9' });
    expect(await located(save({ id: 'bad id', source: 'start' }))).to.deep.include({ error: 'ERR_FLOW_INVALID_EDGE', nodeId: 'start', edgeId: null });
    expect(
      await code(app.flows.addFlowEdge.execute({ actor: admin, flowId: flow.id, edge: { source: menu.id, sourceHandle: 'a1', target: 'ghost' } })),
    ).to.equal('ERR_FLOW_NODE_NOT_FOUND');
    expect(await located(app.flows.addFlowNode.execute({ actor: admin, flowId: flow.id, node: { type: 'interval', data: { seconds: 0 } } }))).to.deep.include({
      error: 'ERR_FLOW_INVALID_NODE',
      reason: '`seconds` is a whole number from 1 to 604800',
    });
    expect(await located(app.flows.addFlowNode.execute({ actor: admin, flowId: flow.id, node: { type: 'robot' } }))).to.deep.include({
      error: 'ERR_FLOW_INVALID_NODE',
    });

    // Dropping the option `a2` drops its edge.
    const changed = await app.flows.updateFlowNode.execute({
      actor: admin,
      flowId: flow.id,
      nodeId: menu.id,
      node: { data: { text: 'Escolha', options: [{ handle: 'a1', label: 'A' }] } },
    });
    expect([changed.version, changed.removedEdgeIds]).to.deep.equal([6, [e2.edge.id]]);
    expect(await code(app.flows.updateFlowNode.execute({ actor: admin, flowId: flow.id, nodeId: 'ghost', node: {} }))).to.equal('ERR_FLOW_NODE_NOT_FOUND');
    const removed = await app.flows.removeFlowNode.execute({ actor: admin, flowId: flow.id, nodeId: menu.id });
    expect([removed.version, removed.removedEdgeIds]).to.deep.equal([7, [e1.edge.id]]);
    expect(await code(app.flows.removeFlowEdge.execute({ actor: admin, flowId: flow.id, edgeId: e1.edge.id }))).to.equal('ERR_FLOW_EDGE_NOT_FOUND');

    const shown = await app.flows.showFlow.execute({ actor: admin, flowId: flow.id });
    expect(shown.version).to.equal(7);
    const saved = await app.flows.saveFlowGraph.execute({
      actor: admin,
      flowId: flow.id,
      version: 7,
      graph: { nodes: [...shown.draft.nodes, node('m', 'message', { text: 'Oi' })], edges: [] },
    });
    expect([saved.version, saved.nodeCount]).to.deep.equal([8, 3]);
    expect(await code(app.flows.saveFlowGraph.execute({ actor: admin, flowId: flow.id, version: 7, graph: shown.draft }))).to.equal(
      'ERR_FLOW_VERSION_CONFLICT',
    );
    expect(await code(app.flows.saveFlowGraph.execute({ actor: admin, flowId: 999, version: 1, graph: shown.draft }))).to.equal('ERR_NO_FLOW_FOUND');
    expect(
      await located(
        app.flows.saveFlowGraph.execute({ actor: admin, flowId: flow.id, version: 8, graph: { nodes: [node('a', 'close'), node('a', 'close')], edges: [] } }),
      ),
    ).to.deep.equal({ error: 'ERR_FLOW_INVALID_NODE', nodeId: 'a', reason: 'Two nodes have this id' });
    const tooBig = { nodes: Array.from({ length: 501 }, (_, i) => node(`n${i}`, 'close')), edges: [] };
    expect(await code(app.flows.saveFlowGraph.execute({ actor: admin, flowId: flow.id, version: 8, graph: tooBig }))).to.equal('ERR_FLOW_TOO_LARGE');
  });

  it('publishes an immutable numbered version, refuses an incomplete draft naming the node, and then allows activation', async () => {
    const { app, admin, sales } = w;
    const flow = await app.flows.createFlow.execute({ actor: admin, name: 'Suporte' });
    expect(await located(app.flows.publishFlow.execute({ actor: admin, flowId: flow.id }))).to.deep.equal({
      error: 'ERR_FLOW_INVALID_GRAPH',
      nodeId: 'start',
      reason: 'The handle `next` leads nowhere',
    });
    const draft = {
      nodes: [node('start', 'start'), node('hi', 'message', { text: 'Oi' }), node('to', 'transfer', { queueId: sales.id })],
      edges: [
        { id: 'e1', source: 'start', sourceHandle: 'next', target: 'hi' },
        { id: 'e2', source: 'hi', sourceHandle: 'next', target: 'to' },
      ],
    };
    await app.flows.saveFlowGraph.execute({ actor: admin, flowId: flow.id, version: 1, graph: draft });
    const v1 = await app.flows.publishFlow.execute({ actor: admin, flowId: flow.id });
    expect(v1).to.deep.include({ flowId: flow.id, version: 1, publishedBy: admin.userId });
    expect(v1.graph.nodes.map((n) => n.id)).to.deep.equal(['start', 'hi', 'to']);
    await app.flows.updateFlowNode.execute({ actor: admin, flowId: flow.id, nodeId: 'to', node: { data: { queueId: 999 } } });
    expect(await located(app.flows.publishFlow.execute({ actor: admin, flowId: flow.id }))).to.deep.equal({
      error: 'ERR_FLOW_INVALID_GRAPH',
      nodeId: 'to',
      reason: "The queue 999 is not one of the company's",
    });
    await app.flows.updateFlowNode.execute({ actor: admin, flowId: flow.id, nodeId: 'to', node: { data: { queueId: sales.id, userId: w.ana.userId } } });
    expect((await app.flows.publishFlow.execute({ actor: admin, flowId: flow.id })).version).to.equal(2);
    // The first version is as it was published.
    expect((await w.ports.flows.findVersion(w.acme.id, flow.id, 1))!.graph.nodes[2]!.data).to.deep.equal({ queueId: sales.id, userId: null });
    const shown = await app.flows.updateFlow.execute({ actor: admin, flowId: flow.id, active: true });
    expect(shown).to.deep.include({ active: true, publishedVersion: 2, versions: [1, 2] });
    expect(eventsOf(w).filter((e) => e === 'flow:publish')).to.have.length(2);
  });

  it('refuses to delete a flow another flow goes to, until that go-to is gone', async () => {
    const { app, admin } = w;
    const target = await app.flows.createFlow.execute({ actor: admin, name: 'Alvo' });
    const source = await app.flows.createFlow.execute({ actor: admin, name: 'Origem' });
    const { node: jump } = await app.flows.addFlowNode.execute({ actor: admin, flowId: source.id, node: { type: 'goToFlow', data: { flowId: target.id } } });
    await app.flows.addFlowEdge.execute({ actor: admin, flowId: source.id, edge: { source: 'start', sourceHandle: 'next', target: jump.id } });
    await app.flows.publishFlow.execute({ actor: admin, flowId: source.id });
    expect(await code(app.flows.deleteFlow.execute({ actor: admin, flowId: target.id }))).to.equal('ERR_FLOW_IN_USE');
    await app.flows.removeFlowNode.execute({ actor: admin, flowId: source.id, nodeId: jump.id });
    // Still in the published version.
    expect(await code(app.flows.deleteFlow.execute({ actor: admin, flowId: target.id }))).to.equal('ERR_FLOW_IN_USE');
    await app.flows.deleteFlow.execute({ actor: admin, flowId: source.id });
    expect(await code(app.flows.deleteFlow.execute({ actor: admin, flowId: target.id }))).to.equal('resolved');
  });
});
