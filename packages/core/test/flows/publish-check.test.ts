import { expect } from 'chai';
import type { FlowNodeInput } from '../../src/flows/clean-graph.js';
import type { FlowGraph } from '../../src/flows/flow-graph.js';
import { checkPublishable, type FlowLookups } from '../../src/flows/publish-check.js';
import { graph, node } from './graph-builder.js';

/** The company has queue 1, user 2, tag 3, file list 4 (with option 40), prompt 5, integration 6 and flow 7. */
const LOOKUPS: FlowLookups = {
  queue: async (id) => id === 1,
  user: async (id) => id === 2,
  tag: async (id) => id === 3,
  fileList: async (id, option) => id === 4 && (option === null || option === 40),
  prompt: async (id) => id === 5,
  integration: async (id) => id === 6,
  flow: async (id) => id === 7,
};
const MODELS = ['gpt-4o-mini', 'llama-3.1-8b'];

async function refusal(g: FlowGraph): Promise<unknown> {
  try {
    await checkPublishable(g, LOOKUPS, MODELS);
    return 'published';
  } catch (err) {
    const e = err as { code: string; located: unknown };
    return { error: e.code, ...(e.located as object) };
  }
}

/** start → the node `x`, whose handles lead to an end message each. */
function around(x: FlowNodeInput, handles: readonly string[] = []): FlowGraph {
  return graph(
    [node('start', 'start'), x, ...handles.map((h) => node(`to-${h}`, 'message', { text: h }))],
    [['start', 'next', x.id!], ...handles.map((h) => [x.id!, h, `to-${h}`] as const)],
  );
}

describe('Flow publishing: what a draft must be', () => {
  it("publishes a complete graph of every node type naming the company's rows", async () => {
    const g = graph(
      [
        node('start', 'start'),
        node('hello', 'message', { text: 'Oi', media: { fileListId: 4, fileOptionId: 40 } }),
        node('menu', 'question', {
          text: 'Menu',
          options: [
            { handle: 'a1', label: 'A' },
            { handle: 'a2', label: 'B' },
          ],
          timeoutSeconds: 60,
        }),
        node('c', 'condition', { rules: [{ source: 'businessHours', operator: 'isTrue' }] }),
        node('wait', 'interval', { seconds: 5 }),
        node('set', 'setVariable', { variable: 'v', value: '1' }),
        node('tags', 'tags', { add: [3] }),
        node('h', 'http', { url: 'https://api.example.com/{{v}}' }),
        node('ai', 'aiAgent', { model: { baseUrl: 'http://llm.lan:8080/v1', model: 'llama-3.1-8b', instructions: 'Seja breve.' } }),
        node('ai2', 'aiAgent', { promptId: 5 }),
        node('int', 'integration', { integrationId: 6 }),
        node('to', 'transfer', { queueId: 1, userId: 2 }),
        node('close', 'close'),
        node('go', 'goToFlow', { flowId: 7 }),
      ],
      [
        ['start', 'next', 'hello'],
        ['hello', 'next', 'menu'],
        ['menu', 'a1', 'c'],
        ['menu', 'a2', 'wait'],
        ['menu', 'timeout', 'close'],
        ['c', 'true', 'set'],
        ['c', 'false', 'tags'],
        ['set', 'next', 'h'],
        ['h', 'success', 'ai'],
        ['h', 'error', 'int'],
        ['ai', 'done', 'ai2'],
        ['ai', 'handover', 'to'],
        ['tags', 'next', 'go'],
      ],
    );
    expect(await refusal(g)).to.equal('published');
  });

  it('wants exactly one start', async () => {
    expect(await refusal(graph([node('m', 'message', { text: 'x' })], []))).to.deep.equal({
      error: 'ERR_FLOW_INVALID_GRAPH',
      nodeId: null,
      reason: 'The flow has no start node',
    });
    expect(await refusal(graph([node('s1', 'start'), node('s2', 'start')], [['s1', 'next', 's2']]))).to.deep.equal({
      error: 'ERR_FLOW_INVALID_GRAPH',
      nodeId: 's2',
      reason: 'A flow has one start node',
    });
  });

  it('refuses edges from or to missing nodes, by handles a node lacks, or two from one handle', async () => {
    const base = [node('start', 'start'), node('m', 'message', { text: 'x' }), node('n', 'message', { text: 'y' })];
    expect(
      await refusal(
        graph(base, [
          ['start', 'next', 'm'],
          ['ghost', 'next', 'n'],
        ]),
      ),
    ).to.deep.equal({ error: 'ERR_FLOW_INVALID_GRAPH', nodeId: 'e2', reason: 'The edge `e2` leaves a node the flow does not have' });
    expect(
      await refusal(
        graph(base, [
          ['start', 'next', 'm'],
          ['m', 'next', 'ghost'],
        ]),
      ),
    ).to.deep.equal({ error: 'ERR_FLOW_INVALID_GRAPH', nodeId: 'm', reason: 'The handle `next` leads to a node the flow does not have' });
    expect(
      await refusal(
        graph(base, [
          ['start', 'next', 'm'],
          ['m', 'yes', 'n'],
        ]),
      ),
    ).to.deep.equal({ error: 'ERR_FLOW_INVALID_GRAPH', nodeId: 'm', reason: 'The node has no handle `yes`' });
    expect(
      await refusal(
        graph(base, [
          ['start', 'next', 'm'],
          ['m', 'next', 'n'],
          ['m', 'next', 'start'],
        ]),
      ),
    ).to.deep.equal({ error: 'ERR_FLOW_INVALID_GRAPH', nodeId: 'm', reason: 'The handle `next` leads to two nodes' });
  });

  it('wants every required handle connected (optional ones may end the run)', async () => {
    expect(await refusal(graph([node('start', 'start')], []))).to.deep.equal({
      error: 'ERR_FLOW_INVALID_GRAPH',
      nodeId: 'start',
      reason: 'The handle `next` leads nowhere',
    });
    const menu = node('q', 'question', {
      text: 'Menu',
      options: [
        { handle: 'a1', label: 'A' },
        { handle: 'a2', label: 'B' },
      ],
    });
    expect(await refusal(around(menu, ['a1']))).to.deep.equal({ error: 'ERR_FLOW_INVALID_GRAPH', nodeId: 'q', reason: 'The handle `a2` leads nowhere' });
    expect(await refusal(around(menu, ['a1', 'a2']))).to.equal('published');
    expect(await refusal(around(node('c', 'condition', { rules: [{ source: 'variable', key: 'x', operator: 'isEmpty' }] }), ['true']))).to.deep.equal({
      error: 'ERR_FLOW_INVALID_GRAPH',
      nodeId: 'c',
      reason: 'The handle `false` leads nowhere',
    });
    const first = node('c', 'condition', { match: 'first', rules: [{ handle: 'vip', source: 'contact', key: 'name', operator: 'contains', value: 'VIP' }] });
    expect(await refusal(around(first, ['vip']))).to.deep.equal({ error: 'ERR_FLOW_INVALID_GRAPH', nodeId: 'c', reason: 'The handle `else` leads nowhere' });
    expect(await refusal(around(node('h', 'http', { url: 'https://x.example' }), ['success']))).to.deep.equal({
      error: 'ERR_FLOW_INVALID_GRAPH',
      nodeId: 'h',
      reason: 'The handle `error` leads nowhere',
    });
  });

  it('wants every node reachable from the start', async () => {
    const g = graph(
      [node('start', 'start'), node('m', 'message', { text: 'x' }), node('island', 'message', { text: 'y' })],
      [
        ['start', 'next', 'm'],
        ['island', 'next', 'm'],
      ],
    );
    expect(await refusal(g)).to.deep.equal({ error: 'ERR_FLOW_INVALID_GRAPH', nodeId: 'island', reason: 'No path from the start reaches this node' });
  });

  it('wants each node complete', async () => {
    const cases: Array<[FlowNodeInput, string[], string]> = [
      [node('x', 'message'), [], 'A message has text or media'],
      [node('x', 'question', { text: ' ', mode: 'free' }), ['answer'], 'A question has text'],
      [node('x', 'question', { text: 'Menu?' }), [], 'A menu has at least one option'],
      [node('x', 'question', { text: 'Menu?', options: [{ handle: 'a', label: ' ' }] }), ['a'], 'Every option of a menu has a label'],
      [node('x', 'condition'), ['true', 'false'], 'A condition has at least one rule'],
      [node('x', 'tags'), [], 'A tags node adds or removes at least one tag'],
      [node('x', 'transfer'), [], 'A transfer names a queue, a user or both'],
      [node('x', 'http', { url: 'ftp://files.example' }), ['success', 'error'], 'The URL is an http(s) URL without credentials'],
      [node('x', 'aiAgent'), [], 'An AI agent uses a prompt (`promptId`) or a model of its own (`model`), one of them'],
      [
        node('x', 'aiAgent', { promptId: 5, model: { baseUrl: 'http://llm.lan/v1', model: 'gpt-4o-mini', instructions: 'x' } }),
        [],
        'An AI agent uses a prompt (`promptId`) or a model of its own (`model`), one of them',
      ],
      [
        node('x', 'aiAgent', { model: { baseUrl: 'http://llm.lan/v1?key=1', model: 'gpt-4o-mini', instructions: 'x' } }),
        [],
        "The model's base URL is an http(s) URL without credentials, query or fragment",
      ],
      [
        node('x', 'aiAgent', { model: { baseUrl: 'http://llm.lan/v1', model: 'gpt-5', instructions: 'x' } }),
        [],
        "The model is one of the server's: gpt-4o-mini, llama-3.1-8b",
      ],
      [node('x', 'aiAgent', { model: { baseUrl: 'http://llm.lan/v1', model: 'gpt-4o-mini', instructions: '' } }), [], 'The model has instructions'],
    ];
    for (const [x, handles, reason] of cases)
      expect(await refusal(around(x, handles)), reason).to.deep.equal({ error: 'ERR_FLOW_INVALID_GRAPH', nodeId: 'x', reason });
  });

  it("wants everything a node names to be the company's", async () => {
    const cases: Array<[FlowNodeInput, string]> = [
      [node('x', 'message', { text: 'x', media: { fileListId: 9, fileOptionId: null } }), "The file list 9 is not one of the company's"],
      [node('x', 'message', { text: 'x', media: { fileListId: 4, fileOptionId: 41 } }), "The file list 4 is not one of the company's"],
      [node('x', 'tags', { add: [3], remove: [8] }), "The tag 8 is not one of the company's"],
      [node('x', 'transfer', { queueId: 9 }), "The queue 9 is not one of the company's"],
      [node('x', 'transfer', { queueId: 1, userId: 9 }), "The user 9 is not one of the company's"],
      [node('x', 'integration', { integrationId: 9 }), "The integration 9 is not one of the company's"],
      [node('x', 'aiAgent', { promptId: 9 }), "The prompt 9 is not one of the company's"],
      [node('x', 'goToFlow', { flowId: 9 }), "The flow 9 is not one of the company's"],
    ];
    for (const [x, reason] of cases) expect(await refusal(around(x)), reason).to.deep.equal({ error: 'ERR_FLOW_INVALID_GRAPH', nodeId: 'x', reason });
  });

  it('bounds the size of a graph', async () => {
    const g: FlowGraph = { nodes: Array.from({ length: 501 }, (_, i) => ({ id: `m${i}`, type: 'close', position: { x: 0, y: 0 }, data: {} })), edges: [] };
    expect(await refusal(g)).to.deep.equal({ error: 'ERR_FLOW_INVALID_GRAPH', nodeId: null, reason: 'A flow has at most 500 nodes and 2000 edges' });
  });
});
