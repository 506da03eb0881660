import { readAnswer } from '../prompts/prompt-decider.js';
import { foldForSearch, isEmail } from '../shared/text.js';
import { refuse } from './clean-graph.js';
import { FLOW_LIMITS, type ConditionRule, type FlowGraph, type FlowNode, type FlowNodeOf } from './flow-graph.js';
import type { FlowAction, FlowAiResult, FlowContext, FlowEndReason, FlowHttpRequest, FlowInput, FlowState, FlowStep, FlowWaiting } from './flow-run.js';
import { asVariable, contactValue, renderTemplate, valueAt } from './flow-template.js';

/**
 * The step engine: a pure function from a graph, a run's state and one input to the actions the
 * caller performs and the next state. It runs nodes until it must wait (for the contact, an
 * interval, an HTTP call or the model, whose results come back as inputs) or the run ends. No I/O,
 * no clock of its own, no sleeping: the caller stores the state, performs the actions, schedules
 * the waits and feeds the results back.
 */

/** Nodes one step may run without waiting; beyond, the graph loops on itself (`ERR_FLOW_LOOP`). */
export const MAX_STEP_NODES = 1000;
/** Turns of an AI-agent exchange kept for the model. */
const AI_HISTORY = 20;

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** The result of entering a node: go on by a handle, wait here, or the run is over. */
type Next = { readonly handle: string } | 'wait' | 'ended';

class Run {
  readonly actions: FlowAction[] = [];
  readonly state: Mutable<FlowState>;
  private visits = 0;

  constructor(
    private readonly graph: FlowGraph,
    state: FlowState,
    private readonly ctx: FlowContext,
  ) {
    this.state = { ...state, variables: { ...state.variables } };
  }

  render(text: string, escape: 'none' | 'url' | 'json' = 'none') {
    return renderTemplate(text, this.state.variables, this.ctx.contact, escape);
  }
  setVariable(name: string | null, value: unknown) {
    if (name) this.state.variables = { ...this.state.variables, [name]: asVariable(value) };
  }
  node(id: string): FlowNode | undefined {
    return this.graph.nodes.find((n) => n.id === id);
  }
  later(seconds: number): string {
    return new Date(this.ctx.now.getTime() + seconds * 1000).toISOString();
  }
  due(): boolean {
    return !this.state.waiting?.until || this.ctx.now.getTime() >= Date.parse(this.state.waiting.until);
  }

  end(nodeId: string, status: 'done' | 'handedOver', reason: FlowEndReason): 'ended' {
    this.actions.push({ type: 'end', nodeId, status, reason });
    Object.assign(this.state, { nodeId, status, waiting: null, ai: null });
    return 'ended';
  }

  wait(nodeId: string, waiting: FlowWaiting): 'wait' {
    Object.assign(this.state, { nodeId, status: 'waiting', waiting });
    if (waiting.kind === 'answer' || waiting.kind === 'interval') this.actions.push({ type: 'wait', nodeId, kind: waiting.kind, until: waiting.until ?? null });
    return 'wait';
  }

  /** Leaves `from` by `handle` and runs on until a wait or an end; an unconnected handle ends the run. */
  follow(from: FlowNode, handle: string, unconnected: { status: 'done' | 'handedOver'; reason: FlowEndReason } = { status: 'done', reason: 'end' }): void {
    let current: FlowNode = from;
    let next: Next = { handle };
    while (typeof next === 'object') {
      const out = next.handle;
      const edge = this.graph.edges.find((e) => e.source === current.id && e.sourceHandle === out);
      if (!edge) {
        this.end(current.id, unconnected.status, unconnected.reason);
        return;
      }
      const target = this.node(edge.target);
      if (!target) {
        this.end(current.id, 'done', 'missingNode');
        return;
      }
      if (++this.visits > MAX_STEP_NODES) refuse('ERR_FLOW_LOOP', target.id, `The flow ran ${MAX_STEP_NODES} nodes without waiting`);
      current = target;
      this.state.nodeId = target.id;
      this.state.ai = null;
      next = this.enter(target);
      unconnected = { status: 'done', reason: 'end' };
    }
  }

  enter(node: FlowNode): Next {
    const id = node.id;
    switch (node.type) {
      case 'start':
        return { handle: 'next' };
      case 'message': {
        const text = this.render(node.data.text);
        if (text.trim()) this.actions.push({ type: 'sendText', nodeId: id, text, typingMs: node.data.typingMs });
        if (node.data.media) this.actions.push({ type: 'sendMedia', nodeId: id, ...node.data.media });
        return { handle: 'next' };
      }
      case 'question':
        return this.ask(node, 0);
      case 'condition':
        return { handle: this.decide(node) };
      case 'interval':
        return this.wait(id, { kind: 'interval', until: this.later(node.data.seconds), retries: 0 });
      case 'setVariable':
        this.setVariable(node.data.variable, this.render(node.data.value));
        return { handle: 'next' };
      case 'tags':
        this.actions.push({ type: 'setTags', nodeId: id, add: [...node.data.add], remove: [...node.data.remove] });
        return { handle: 'next' };
      case 'transfer':
        this.actions.push({ type: 'transfer', nodeId: id, queueId: node.data.queueId, userId: node.data.userId });
        return this.end(id, 'handedOver', 'transferred');
      case 'close':
        this.actions.push({ type: 'close', nodeId: id });
        return this.end(id, 'done', 'closed');
      case 'http': {
        const d = node.data;
        const request: FlowHttpRequest = {
          method: d.method,
          url: this.render(d.url, 'url'),
          headers: d.headers.map((h) => ({ name: h.name, value: this.render(h.value) })),
          body: d.body === null ? null : this.render(d.body, 'json'),
          timeoutMs: d.timeoutMs,
        };
        this.actions.push({ type: 'callHttp', nodeId: id, request });
        return this.wait(id, { kind: 'http', retries: 0 });
      }
      case 'integration':
        this.actions.push({ type: 'startIntegration', nodeId: id, integrationId: node.data.integrationId });
        return this.end(id, 'handedOver', 'integration');
      case 'aiAgent': {
        // Before any answer, `{{lastAnswer}}` is empty rather than left as written.
        const input = renderTemplate(node.data.input, { lastAnswer: '', ...this.state.variables }, this.ctx.contact).trim();
        this.state.ai = { turns: 0, history: input ? [{ role: 'user', content: input }] : [] };
        return this.callAi(node);
      }
      case 'goToFlow':
        this.actions.push({ type: 'goToFlow', nodeId: id, flowId: node.data.flowId });
        return this.end(id, 'done', 'goToFlow');
      default: {
        const unknown: never = node;
        return unknown;
      }
    }
  }

  ask(node: FlowNodeOf<'question'>, retries: number, text = node.data.text): 'wait' {
    const d = node.data;
    const menu = d.mode === 'options' && text === d.text ? d.options.map((o, i) => `[${i + 1}] ${o.label}`) : [];
    const body = [this.render(text), ...menu].filter((l) => l.trim()).join('\n');
    if (body) this.actions.push({ type: 'sendText', nodeId: node.id, text: body, typingMs: 0 });
    return this.wait(node.id, { kind: 'answer', retries, ...(d.timeoutSeconds === null ? {} : { until: this.later(d.timeoutSeconds) }) });
  }

  callAi(node: FlowNodeOf<'aiAgent'>): 'wait' {
    this.actions.push({ type: 'callAi', nodeId: node.id, promptId: node.data.promptId, model: node.data.model, messages: [...(this.state.ai?.history ?? [])] });
    return this.wait(node.id, { kind: 'ai', retries: 0 });
  }

  decide(node: FlowNodeOf<'condition'>): string {
    const { match, rules } = node.data;
    if (match === 'first') return rules.find((r) => this.holds(r))?.handle ?? 'else';
    const result = match === 'all' ? rules.every((r) => this.holds(r)) : rules.some((r) => this.holds(r));
    return result ? 'true' : 'false';
  }

  holds(rule: ConditionRule): boolean {
    if (rule.source === 'businessHours') return this.ctx.withinBusinessHours(this.ctx.now) === (rule.operator === 'isTrue');
    const left = (rule.source === 'variable' ? this.state.variables[rule.key] : contactValue(this.ctx.contact, rule.key)) ?? '';
    const right = this.render(rule.value);
    const [l, r] = [foldForSearch(left), foldForSearch(right)];
    const num = (v: string) => (/^-?\d+(?:[.,]\d+)?$/.test(v.trim()) ? Number(v.trim().replace(',', '.')) : NaN);
    switch (rule.operator) {
      case 'equals':
        return l === r;
      case 'notEquals':
        return l !== r;
      case 'contains':
        return l.includes(r);
      case 'notContains':
        return !l.includes(r);
      case 'startsWith':
        return l.startsWith(r);
      case 'endsWith':
        return l.endsWith(r);
      case 'greaterThan':
        return num(left) > num(right);
      case 'lessThan':
        return num(left) < num(right);
      case 'isEmpty':
        return left.trim() === '';
      case 'isNotEmpty':
        return left.trim() !== '';
      default:
        return false;
    }
  }
}

/** Whether a free answer passes the question's validation. */
export function validAnswer(kind: 'text' | 'number' | 'email' | 'phone', answer: string): boolean {
  switch (kind) {
    case 'text':
      return answer.length > 0;
    case 'number':
      return /^-?\d+(?:[.,]\d+)?$/.test(answer);
    case 'email':
      return isEmail(answer);
    case 'phone':
      return /^\+?[\d\s().-]+$/.test(answer) && /^\d{8,15}$/.test(answer.replace(/\D/g, ''));
    default:
      return false;
  }
}

/** The option a menu answer picks: its number (`2`) or its label, case and accents aside. */
function pick(node: FlowNodeOf<'question'>, answer: string) {
  const folded = foldForSearch(answer);
  return node.data.options.find((o, i) => answer === String(i + 1) || (folded !== '' && foldForSearch(o.label) === folded));
}

function onAnswer(run: Run, node: FlowNode, text: string): void {
  const answer = text.trim().slice(0, FLOW_LIMITS.text);
  run.setVariable('lastAnswer', answer);
  if (node.type === 'aiAgent') {
    const history = [...(run.state.ai?.history ?? []), { role: 'user' as const, content: answer }].slice(-AI_HISTORY);
    run.state.ai = { turns: run.state.ai?.turns ?? 0, history };
    run.callAi(node);
    return;
  }
  if (node.type !== 'question') return;
  const d = node.data;
  const option = d.mode === 'options' ? pick(node, answer) : undefined;
  const valid = d.mode === 'options' ? option !== undefined : validAnswer(d.validation, answer);
  if (valid) {
    run.setVariable(d.variable, option ? option.label : answer);
    run.follow(node, option ? option.handle : 'answer');
    return;
  }
  const retries = (run.state.waiting?.retries ?? 0) + 1;
  if (retries <= d.retries) run.ask(node, retries, d.invalidText.trim() ? d.invalidText : d.text);
  else run.follow(node, 'invalid', { status: 'done', reason: 'invalidAnswer' });
}

function onAiResult(run: Run, node: FlowNodeOf<'aiAgent'>, result: FlowAiResult): void {
  const handover = { status: 'handedOver' as const, reason: 'handover' as const };
  if ('error' in result) {
    run.follow(node, 'handover', handover);
    return;
  }
  const { reply, handOver } = readAnswer(result.text);
  const ai = run.state.ai ?? { turns: 0, history: [] };
  if (reply) {
    run.actions.push({ type: 'sendText', nodeId: node.id, text: reply, typingMs: 0 });
    run.setVariable(node.data.variable, reply);
  }
  const turns = ai.turns + 1;
  run.state.ai = { turns, history: reply ? [...ai.history, { role: 'assistant' as const, content: reply }].slice(-AI_HISTORY) : ai.history };
  if (handOver) run.follow(node, 'handover', handover);
  else if (turns >= node.data.maxTurns) run.follow(node, 'done');
  else run.wait(node.id, { kind: 'answer', retries: 0 });
}

/**
 * One step of a run: `start` enters the graph's start node; an answer, a timeout, an interval's end
 * or a call's result continues from the node waiting for it. An input the state does not wait for
 * changes nothing (`ignored`). Throws 422 `ERR_FLOW_INVALID_GRAPH` for a graph without a start node
 * and `ERR_FLOW_LOOP` past `MAX_STEP_NODES` nodes without a wait.
 */
export function step(graph: FlowGraph, state: FlowState, input: FlowInput, ctx: FlowContext): FlowStep {
  const run = new Run(graph, state, ctx);
  const ignored = (): FlowStep => ({ actions: [], state, ignored: true });
  if (input === 'start') {
    const start = graph.nodes.find((n) => n.type === 'start');
    if (!start) refuse('ERR_FLOW_INVALID_GRAPH', null, 'The flow has no start node');
    Object.assign(run.state, { nodeId: start.id, status: 'running', waiting: null, ai: null });
    run.follow(start, 'next');
    return { actions: run.actions, state: run.state, ignored: false };
  }
  const node = state.nodeId === null ? undefined : run.node(state.nodeId);
  const waiting = state.status === 'waiting' ? state.waiting : null;
  if (!node || !waiting) return ignored();
  if ('answer' in input) {
    if (waiting.kind !== 'answer') return ignored();
    onAnswer(run, node, input.answer);
  } else if ('timeout' in input) {
    if (waiting.kind !== 'answer' || !waiting.until || !run.due()) return ignored();
    run.follow(node, 'timeout', { status: 'done', reason: 'timeout' });
  } else if ('intervalDone' in input) {
    if (waiting.kind !== 'interval' || !run.due()) return ignored();
    run.follow(node, 'next');
  } else if ('httpResult' in input) {
    if (waiting.kind !== 'http' || node.type !== 'http') return ignored();
    const result = input.httpResult;
    const ok = !('error' in result) && result.status >= 200 && result.status < 300;
    if (!('error' in result)) for (const c of node.data.save) run.setVariable(c.variable, valueAt(result.body, c.path));
    run.follow(node, ok ? 'success' : 'error');
  } else {
    if (waiting.kind !== 'ai' || node.type !== 'aiAgent') return ignored();
    onAiResult(run, node, input.aiResult);
  }
  return { actions: run.actions, state: run.state, ignored: false };
}
