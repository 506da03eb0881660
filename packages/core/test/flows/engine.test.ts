import { expect } from 'chai';
import { MAX_STEP_NODES, step, validAnswer } from '../../src/flows/engine.js';
import { initialState, type FlowContext, type FlowInput, type FlowState } from '../../src/flows/flow-run.js';
import type { FlowGraph } from '../../src/flows/flow-graph.js';
import { HANDOVER_PHRASE } from '../../src/prompts/prompt-answer.js';
import { graph, node } from './graph-builder.js';

const NOW = new Date('2026-03-02T12:00:00.000Z');
const ctx = (over: Partial<FlowContext> = {}): FlowContext => ({
  contact: { name: 'Maria Souza', number: '5511988887777', email: 'maria@example.com' },
  now: NOW,
  withinBusinessHours: () => true,
  ...over,
});
const later = (seconds: number) => new Date(NOW.getTime() + seconds * 1000);

/** Runs `start` then each input, gathering every action. */
function run(g: FlowGraph, inputs: FlowInput[] = [], c: FlowContext = ctx(), from: FlowState = initialState()) {
  let { actions, state } = step(g, from, 'start', c);
  const all = [...actions];
  for (const input of inputs) {
    ({ actions, state } = step(g, state, input, c));
    all.push(...actions);
  }
  return { actions: all, state };
}
const texts = (actions: ReturnType<typeof run>['actions']) => actions.flatMap((a) => (a.type === 'sendText' ? [a.text] : []));

describe('Flow engine: step', () => {
  it('sends messages with the variables and contact filled in, then ends where no edge leads on', () => {
    const g = graph(
      [
        node('start', 'start'),
        node('m1', 'message', { text: 'Olá, {{firstName}} ({{number}})! {{unknown}}', typingMs: 1500, media: { fileListId: 3, fileOptionId: null } }),
        node('set', 'setVariable', { variable: 'plan', value: 'gold for {{name}}' }),
        node('m2', 'message', { text: 'Plano: {{plan}}' }),
      ],
      [
        ['start', 'next', 'm1'],
        ['m1', 'next', 'set'],
        ['set', 'next', 'm2'],
      ],
    );
    const { actions, state } = run(g);
    expect(actions).to.deep.equal([
      { type: 'sendText', nodeId: 'm1', text: 'Olá, Maria (5511988887777)! {{unknown}}', typingMs: 1500 },
      { type: 'sendMedia', nodeId: 'm1', fileListId: 3, fileOptionId: null },
      { type: 'sendText', nodeId: 'm2', text: 'Plano: gold for Maria Souza', typingMs: 0 },
      { type: 'end', nodeId: 'm2', status: 'done', reason: 'end' },
    ]);
    expect(state).to.deep.include({ nodeId: 'm2', status: 'done', waiting: null });
    expect(state.variables).to.deep.equal({ plan: 'gold for Maria Souza' });
  });

  it('asks a menu, waits, and follows the option picked by number or label; the answer is kept', () => {
    const g = graph(
      [
        node('start', 'start'),
        node('menu', 'question', {
          text: 'Escolha:',
          options: [
            { handle: 'a1', label: 'Vendas' },
            { handle: 'a2', label: 'Suporte técnico' },
          ],
          variable: 'area',
        }),
        node('sales', 'message', { text: 'Vendas!' }),
        node('support', 'message', { text: 'Suporte: {{area}} / {{lastAnswer}}' }),
      ],
      [
        ['start', 'next', 'menu'],
        ['menu', 'a1', 'sales'],
        ['menu', 'a2', 'support'],
      ],
    );
    const first = run(g);
    expect(first.actions).to.deep.equal([
      { type: 'sendText', nodeId: 'menu', text: 'Escolha:\n[1] Vendas\n[2] Suporte técnico', typingMs: 0 },
      { type: 'wait', nodeId: 'menu', kind: 'answer', until: null },
    ]);
    expect(first.state).to.deep.include({ nodeId: 'menu', status: 'waiting', waiting: { kind: 'answer', retries: 0 } });
    expect(texts(run(g, [{ answer: ' 1 ' }]).actions).at(-1)).to.equal('Vendas!');
    const byLabel = run(g, [{ answer: 'SUPORTE tecnico' }]);
    expect(texts(byLabel.actions).at(-1)).to.equal('Suporte: Suporte técnico / SUPORTE tecnico');
    expect(byLabel.state.status).to.equal('done');
  });

  it('asks again on an invalid answer up to `retries` times, then leaves by `invalid` (or ends)', () => {
    const nodes = [
      node('start', 'start'),
      node('q', 'question', {
        mode: 'free',
        text: 'Seu e-mail?',
        validation: 'email',
        retries: 2,
        invalidText: 'E-mail inválido, tente de novo',
        variable: 'email',
      }),
      node('ok', 'message', { text: 'Obrigado, {{email}}' }),
      node('bad', 'message', { text: 'Vou chamar alguém.' }),
    ];
    const g = graph(nodes, [
      ['start', 'next', 'q'],
      ['q', 'answer', 'ok'],
      ['q', 'invalid', 'bad'],
    ]);
    const retried = run(g, [{ answer: 'nope' }, { answer: 'ana@x.io' }]);
    expect(texts(retried.actions)).to.deep.equal(['Seu e-mail?', 'E-mail inválido, tente de novo', 'Obrigado, ana@x.io']);
    const twice = run(g, [{ answer: 'a' }, { answer: 'b' }]);
    expect(twice.state).to.deep.include({ status: 'waiting', waiting: { kind: 'answer', retries: 2 } });
    const gaveUp = run(g, [{ answer: 'a' }, { answer: 'b' }, { answer: 'c' }]);
    expect(texts(gaveUp.actions).at(-1)).to.equal('Vou chamar alguém.');
    const unconnected = run(
      graph(nodes, [
        ['start', 'next', 'q'],
        ['q', 'answer', 'ok'],
      ]),
      [{ answer: 'a' }, { answer: 'b' }, { answer: 'c' }],
    );
    expect(unconnected.actions.at(-1)).to.deep.equal({ type: 'end', nodeId: 'q', status: 'done', reason: 'invalidAnswer' });
  });

  it('validates free answers by kind', () => {
    expect(['12', '-3,5', '4.25'].every((a) => validAnswer('number', a))).to.equal(true);
    expect(['12a', '', '1.'].some((a) => validAnswer('number', a))).to.equal(false);
    expect(validAnswer('phone', '+55 (11) 98888-7777')).to.equal(true);
    expect(validAnswer('phone', '1234')).to.equal(false);
    expect(validAnswer('phone', 'call me 11988887777')).to.equal(false);
    expect(validAnswer('email', 'a@b.co')).to.equal(true);
    expect(validAnswer('text', '')).to.equal(false);
  });

  it('times a question out: waits with `until`, ignores an early timeout, then leaves by `timeout` (or ends)', () => {
    const nodes = [
      node('start', 'start'),
      node('q', 'question', { mode: 'free', text: 'Nome?', timeoutSeconds: 600 }),
      node('late', 'message', { text: 'Sem resposta, encerrando.' }),
    ];
    const g = graph(nodes, [
      ['start', 'next', 'q'],
      ['q', 'timeout', 'late'],
    ]);
    const { state, actions } = run(g);
    expect(actions.at(-1)).to.deep.equal({ type: 'wait', nodeId: 'q', kind: 'answer', until: later(600).toISOString() });
    const early = step(g, state, { timeout: true }, ctx({ now: later(599) }));
    expect(early).to.deep.equal({ actions: [], state, ignored: true });
    const due = step(g, state, { timeout: true }, ctx({ now: later(600) }));
    expect(texts(due.actions)).to.deep.equal(['Sem resposta, encerrando.']);
    const alone = step(graph(nodes, [['start', 'next', 'q']]), state, { timeout: true }, ctx({ now: later(601) }));
    expect(alone.actions).to.deep.equal([{ type: 'end', nodeId: 'q', status: 'done', reason: 'timeout' }]);
  });

  it('branches on variables, contact fields and business hours (all/any, or the first rule that holds)', () => {
    const nodes = [
      node('start', 'start'),
      node('set', 'setVariable', { variable: 'total', value: '150,5' }),
      node('c', 'condition', {
        match: 'first',
        rules: [
          { handle: 'closed', source: 'businessHours', operator: 'isFalse' },
          { handle: 'big', source: 'variable', key: 'total', operator: 'greaterThan', value: '100' },
          { handle: 'gmail', source: 'contact', key: 'email', operator: 'endsWith', value: 'gmail.com' },
        ],
      }),
      node('closed', 'message', { text: 'fechado' }),
      node('big', 'message', { text: 'grande' }),
      node('else', 'message', { text: 'outro' }),
      node('all', 'condition', {
        match: 'all',
        rules: [
          { source: 'contact', key: 'firstName', operator: 'equals', value: 'maria' },
          { source: 'variable', key: 'x', operator: 'isEmpty' },
        ],
      }),
      node('yes', 'message', { text: 'sim' }),
      node('no', 'message', { text: 'não' }),
    ];
    const edges = [
      ['start', 'next', 'set'],
      ['set', 'next', 'c'],
      ['c', 'closed', 'closed'],
      ['c', 'big', 'big'],
      ['c', 'gmail', 'all'],
      ['c', 'else', 'else'],
      ['all', 'true', 'yes'],
      ['all', 'false', 'no'],
    ] as const;
    const g = graph(nodes, edges);
    expect(texts(run(g).actions)).to.deep.equal(['grande']);
    expect(texts(run(g, [], ctx({ withinBusinessHours: (at) => at.getTime() !== NOW.getTime() })).actions)).to.deep.equal(['fechado']);
    const small = graph(
      nodes.map((n) => (n.id === 'set' ? node('set', 'setVariable', { variable: 'total', value: '99' }) : n)),
      edges,
    );
    expect(texts(run(small).actions)).to.deep.equal(['outro']);
    expect(texts(run(small, [], ctx({ contact: { name: 'Maria', number: '1', email: 'm@gmail.com' } })).actions)).to.deep.equal(['sim']);
    expect(texts(run(small, [], ctx({ contact: { name: 'Ana', number: '1', email: 'a@gmail.com' } })).actions)).to.deep.equal(['não']);
  });

  it('waits an interval as data (never a sleep): the wait action carries its end, an early end is ignored', () => {
    const g = graph(
      [node('start', 'start'), node('i', 'interval', { seconds: 90 }), node('m', 'message', { text: 'depois' })],
      [
        ['start', 'next', 'i'],
        ['i', 'next', 'm'],
      ],
    );
    const { state, actions } = run(g);
    expect(actions).to.deep.equal([{ type: 'wait', nodeId: 'i', kind: 'interval', until: later(90).toISOString() }]);
    expect(state.waiting).to.deep.equal({ kind: 'interval', until: later(90).toISOString(), retries: 0 });
    expect(step(g, state, { intervalDone: true }, ctx({ now: later(89) })).ignored).to.equal(true);
    expect(step(g, state, { answer: 'oi' }, ctx()).ignored).to.equal(true);
    expect(texts(step(g, state, { intervalDone: true }, ctx({ now: later(90) })).actions)).to.deep.equal(['depois']);
  });

  it('asks for an HTTP call with the template filled in, and follows success (keeping parts of the answer) or error', () => {
    const g = graph(
      [
        node('start', 'start'),
        node('h', 'http', {
          method: 'POST',
          url: 'https://api.example.com/clients?q={{name}}',
          headers: [{ name: 'X-Key', value: 'k-{{number}}' }],
          body: '{"name": "{{name}}", "note": "{{note}}"}',
          save: [
            { path: 'data.items.0.plan', variable: 'plan' },
            { path: 'data', variable: 'raw' },
          ],
        }),
        node('ok', 'message', { text: 'plano {{plan}}' }),
        node('fail', 'message', { text: 'falhou' }),
      ],
      [
        ['start', 'next', 'h'],
        ['h', 'success', 'ok'],
        ['h', 'error', 'fail'],
      ],
    );
    const { actions, state } = run(g, [], ctx(), initialState({ note: 'diz "oi"\n' }));
    expect(actions).to.deep.equal([
      {
        type: 'callHttp',
        nodeId: 'h',
        request: {
          method: 'POST',
          url: 'https://api.example.com/clients?q=Maria%20Souza',
          headers: [{ name: 'X-Key', value: 'k-5511988887777' }],
          body: '{"name": "Maria Souza", "note": "diz \\"oi\\"\\n"}',
          timeoutMs: 10_000,
        },
      },
    ]);
    expect(JSON.parse((actions[0] as { request: { body: string } }).request.body)).to.deep.equal({ name: 'Maria Souza', note: 'diz "oi"\n' });
    expect(state.waiting).to.deep.equal({ kind: 'http', retries: 0 });
    const ok = step(g, state, { httpResult: { status: 200, body: { data: { items: [{ plan: 'ouro' }] } } } }, ctx());
    expect(texts(ok.actions)).to.deep.equal(['plano ouro']);
    expect(ok.state.variables).to.deep.include({ plan: 'ouro', raw: '{"items":[{"plan":"ouro"}]}' });
    expect(texts(step(g, state, { httpResult: { status: 500, body: null } }, ctx()).actions)).to.deep.equal(['falhou']);
    expect(texts(step(g, state, { httpResult: { error: 'ERR_URL_NOT_ALLOWED' } }, ctx()).actions)).to.deep.equal(['falhou']);
  });

  it('tags, transfers, closes, hands to an integration and goes to another flow', () => {
    const base = [node('start', 'start'), node('t', 'tags', { add: [1, 2], remove: [3] })];
    const end = (n: ReturnType<typeof node>) =>
      run(
        graph(
          [...base, n],
          [
            ['start', 'next', 't'],
            ['t', 'next', n.id!],
          ],
        ),
      ).actions.slice(1);
    expect(run(graph(base, [['start', 'next', 't']])).actions[0]).to.deep.equal({ type: 'setTags', nodeId: 't', add: [1, 2], remove: [3] });
    expect(end(node('x', 'transfer', { queueId: 4 }))).to.deep.equal([
      { type: 'transfer', nodeId: 'x', queueId: 4, userId: null },
      { type: 'end', nodeId: 'x', status: 'handedOver', reason: 'transferred' },
    ]);
    expect(end(node('x', 'close'))).to.deep.equal([
      { type: 'close', nodeId: 'x' },
      { type: 'end', nodeId: 'x', status: 'done', reason: 'closed' },
    ]);
    expect(end(node('x', 'integration', { integrationId: 8 }))).to.deep.equal([
      { type: 'startIntegration', nodeId: 'x', integrationId: 8 },
      { type: 'end', nodeId: 'x', status: 'handedOver', reason: 'integration' },
    ]);
    expect(end(node('x', 'goToFlow', { flowId: 12 }))).to.deep.equal([
      { type: 'goToFlow', nodeId: 'x', flowId: 12 },
      { type: 'end', nodeId: 'x', status: 'done', reason: 'goToFlow' },
    ]);
  });

  it('talks through an AI agent: the answer is sent and kept, turns alternate with the contact, the hand-over phrase leaves by `handover`', () => {
    const g = graph(
      [
        node('start', 'start'),
        node('q', 'question', { mode: 'free', text: 'Como posso ajudar?' }),
        node('ai', 'aiAgent', { promptId: 5, variable: 'reply', maxTurns: 2 }),
        node('done', 'message', { text: 'fim: {{reply}}' }),
        node('human', 'transfer', { queueId: 2 }),
      ],
      [
        ['start', 'next', 'q'],
        ['q', 'answer', 'ai'],
        ['ai', 'done', 'done'],
        ['ai', 'handover', 'human'],
      ],
    );
    const asked = run(g, [{ answer: 'Quero um plano' }]);
    expect(asked.actions.at(-1)).to.deep.equal({
      type: 'callAi',
      nodeId: 'ai',
      promptId: 5,
      model: null,
      messages: [{ role: 'user', content: 'Quero um plano' }],
    });
    const first = step(g, asked.state, { aiResult: { text: 'Temos o plano Ouro.' } }, ctx());
    expect(first.actions).to.deep.equal([
      { type: 'sendText', nodeId: 'ai', text: 'Temos o plano Ouro.', typingMs: 0 },
      { type: 'wait', nodeId: 'ai', kind: 'answer', until: null },
    ]);
    const again = step(g, first.state, { answer: 'Quanto custa?' }, ctx());
    expect(again.actions).to.deep.equal([
      {
        type: 'callAi',
        nodeId: 'ai',
        promptId: 5,
        model: null,
        messages: [
          { role: 'user', content: 'Quero um plano' },
          { role: 'assistant', content: 'Temos o plano Ouro.' },
          { role: 'user', content: 'Quanto custa?' },
        ],
      },
    ]);
    expect(texts(step(g, again.state, { aiResult: { text: 'R$ 10.' } }, ctx()).actions)).to.deep.equal(['R$ 10.', 'fim: R$ 10.']);
    const handedOver = step(g, asked.state, { aiResult: { text: `${HANDOVER_PHRASE}. Um momento.` } }, ctx());
    expect(handedOver.actions.map((a) => a.type)).to.deep.equal(['sendText', 'transfer', 'end']);
    expect(texts(handedOver.actions)).to.deep.equal(['Um momento.']);
    expect(step(g, asked.state, { aiResult: { error: 'ERR_LANGUAGE_MODEL_TIMEOUT' } }, ctx()).state.status).to.equal('handedOver');
    const alone = graph([node('start', 'start'), node('ai', 'aiAgent', { promptId: 5 })], [['start', 'next', 'ai']]);
    const waiting = run(alone);
    expect(waiting.actions).to.deep.equal([{ type: 'callAi', nodeId: 'ai', promptId: 5, model: null, messages: [] }]);
    expect(step(alone, waiting.state, { aiResult: { error: 'x' } }, ctx()).actions).to.deep.equal([
      { type: 'end', nodeId: 'ai', status: 'handedOver', reason: 'handover' },
    ]);
  });

  it('stops a loop that never waits with ERR_FLOW_LOOP, naming where it stopped; a loop through a question is fine', () => {
    const loop = graph(
      [node('start', 'start'), node('a', 'message', { text: 'a' }), node('b', 'setVariable', { variable: 'x', value: '1' })],
      [
        ['start', 'next', 'a'],
        ['a', 'next', 'b'],
        ['b', 'next', 'a'],
      ],
    );
    let thrown: { code?: string; located?: unknown } = {};
    try {
      step(loop, initialState(), 'start', ctx());
    } catch (err) {
      thrown = err as typeof thrown;
    }
    expect(thrown.code).to.equal('ERR_FLOW_LOOP');
    expect(thrown.located).to.deep.equal({ nodeId: MAX_STEP_NODES % 2 === 0 ? 'a' : 'b', reason: `The flow ran ${MAX_STEP_NODES} nodes without waiting` });
    const menu = graph(
      [node('start', 'start'), node('q', 'question', { text: 'De novo?', options: [{ handle: 'y', label: 'Sim' }] })],
      [
        ['start', 'next', 'q'],
        ['q', 'y', 'q'],
      ],
    );
    const again = run(menu, [{ answer: '1' }, { answer: '1' }]);
    expect(texts(again.actions)).to.deep.equal(['De novo?\n[1] Sim', 'De novo?\n[1] Sim', 'De novo?\n[1] Sim']);
  });

  it('refuses a graph without a start node, and ignores inputs once a run is over', () => {
    let code: string | undefined;
    try {
      step(graph([node('m', 'message', { text: 'x' })], []), initialState(), 'start', ctx());
    } catch (err) {
      code = (err as { code: string }).code;
    }
    expect(code).to.equal('ERR_FLOW_INVALID_GRAPH');
    const g = graph([node('start', 'start'), node('m', 'message', { text: 'x' })], [['start', 'next', 'm']]);
    const done = run(g).state;
    expect(step(g, done, { answer: 'oi' }, ctx())).to.deep.equal({ actions: [], state: done, ignored: true });
  });
});
