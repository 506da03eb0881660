import type { FlowGraph, FlowNode } from '@servicedesk/core/flows/flow-graph';
import { expect } from 'chai';
import { mocksOf } from '../src/screens/flows/simulate.js';
import {
  connect,
  defaultData,
  draftChanges,
  handlesOfNode,
  hasChanges,
  newNode,
  placeNew,
  pruneEdges,
  savedNode,
  shorten,
} from '../src/screens/flows/graph.js';

const node = (id: string, type: FlowNode['type'], data: Record<string, unknown> = {}, x = 0, y = 0) =>
  ({ id, type, position: { x, y }, data: { ...defaultData(type), ...data } }) as FlowNode;

describe('console: the flow editor’s graph', () => {
  it('starts each node type with data the server takes and the handles the engine gives it', () => {
    const question = node('q', 'question');
    const option = (question.data as { options: Array<{ handle: string }> }).options[0]!.handle;
    expect(option).to.match(/^o-[a-z0-9]+$/);
    expect(handlesOfNode(question).map((h) => h.handle)).to.deep.equal([option, 'invalid']);
    expect(handlesOfNode(node('c', 'condition')).map((h) => h.handle)).to.deep.equal(['true', 'false']);
    expect(handlesOfNode(node('h', 'http')).map((h) => [h.handle, h.required])).to.deep.equal([
      ['success', true],
      ['error', true],
    ]);
    expect(handlesOfNode(node('t', 'transfer'))).to.deep.equal([]);
    const taken = new Set(['n-1']);
    expect(taken.has(newNode('message', { x: 1, y: 2 }, taken).id)).to.equal(false);
  });

  it('keeps one edge per handle, and drops the edges of handles a node no longer has', () => {
    const q = node('q', 'question', {
      options: [
        { handle: 'a1', label: 'A' },
        { handle: 'a2', label: 'B' },
      ],
    });
    const m = node('m', 'message');
    const c = node('c', 'close');
    let edges = connect([], 'q', 'a1', 'm', new Set());
    edges = connect(edges, 'q', 'a2', 'c', new Set(edges.map((e) => e.id)));
    edges = connect(edges, 'q', 'a1', 'c', new Set(edges.map((e) => e.id)));
    expect(edges.map((e) => [e.sourceHandle, e.target])).to.deep.equal([
      ['a2', 'c'],
      ['a1', 'c'],
    ]);
    expect(connect(edges, 'q', 'a2', null, new Set())).to.have.length(1);
    const fewer = { ...q, data: { ...q.data, options: [{ handle: 'a1', label: 'A' }] } } as FlowNode;
    expect(pruneEdges([fewer, m, c], edges).map((e) => e.sourceHandle)).to.deep.equal(['a1']);
    expect(pruneEdges([q, m], edges).map((e) => e.target)).to.deep.equal([]);
  });

  it('says what a reload would drop: nodes added, changed, removed and moved, and connections', () => {
    const saved: FlowGraph = {
      nodes: [node('start', 'start'), node('a', 'message', { text: 'Hi' }), node('b', 'close', {}, 10, 10)],
      edges: [{ id: 'e1', source: 'start', sourceHandle: 'next', target: 'a' }],
    };
    expect(hasChanges(draftChanges(saved, saved))).to.equal(false);
    // The start moved, the message's text changed, the close removed, an interval added, the edge removed.
    const local: FlowGraph = { nodes: [node('start', 'start', {}, 50, 0), node('a', 'message', { text: 'Hello' }), node('c', 'interval')], edges: [] };
    const c = draftChanges(saved, local);
    expect(c.added.map((n) => n.id)).to.deep.equal(['c']);
    expect(c.changed.map((n) => n.id)).to.deep.equal(['a']);
    expect(c.removed.map((n) => n.id)).to.deep.equal(['b']);
    expect([c.moved, c.edgesAdded, c.edgesRemoved]).to.deep.equal([1, 0, 1]);
  });

  it('saves a node without what the canvas adds, places new nodes beside the selected one, and shortens names', () => {
    const drawn = { ...node('a', 'message', {}, 10.4, 20.6), selected: true, measured: { width: 10, height: 10 } };
    expect(savedNode(drawn)).to.deep.equal({ id: 'a', type: 'message', position: { x: 10, y: 21 }, data: { text: '', media: null, typingMs: 0 } });
    expect(placeNew([node('a', 'start', {}, 0, 0), node('b', 'close', {}, 0, 300)], undefined)).to.deep.equal({ x: 0, y: 460 });
    expect(placeNew([], node('a', 'start', {}, 5, 5))).to.deep.equal({ x: 285, y: 5 });
    expect(shorten('a  b\nc', 10)).to.equal('a b c');
    expect(shorten('abcdefghijkl', 6)).to.equal('abcde…');
  });

  it('reads the simulation mocks: statuses and JSON bodies, the node of a bad one named', () => {
    expect(mocksOf({ h: { status: '200', body: '{"a":1}' }, k: { status: '500', body: '' } }, 'Olá')).to.deep.equal({
      mocks: { http: { h: { status: 200, body: { a: 1 } }, k: { status: 500 } }, ai: 'Olá' },
      bad: null,
    });
    expect(mocksOf({ h: { status: '200', body: '{' } }, '').bad).to.equal('h');
    expect(mocksOf({ h: { status: '99', body: '' } }, '').bad).to.equal('h');
  });
});
