import { assertAdmin, type Actor } from '../shared/actor.js';
import { NotFoundError } from '../shared/errors.js';
import type { Clock } from '../shared/ports.js';
import { step } from './engine.js';
import { initialState, type FlowAction, type FlowAiResult, type FlowContext, type FlowHttpResult, type FlowInput, type FlowState } from './flow-run.js';
import type { FlowGraph } from './flow-graph.js';
import type { FlowContact } from './flow-template.js';
import { findFlow } from './manage-flows.js';
import type { Flows } from './ports.js';

/** A mocked HTTP answer: a status and a JSON body. */
export interface HttpMock {
  readonly status: number;
  readonly body?: unknown;
}

export interface SimulationInput {
  readonly actor: Actor;
  readonly flowId: number;
  /** The draft (default) or a published version's number. */
  readonly version?: 'draft' | number;
  /** The contact's answers, fed in order to the questions (and AI agents) that wait for one. */
  readonly inputs: readonly string[];
  readonly contact?: Partial<FlowContact>;
  readonly variables?: Readonly<Record<string, string>>;
  readonly mocks?: {
    /** By HTTP node id, or `*` for every other; an HTTP node without a mock fails (its `error` handle). */
    readonly http?: Readonly<Record<string, HttpMock>>;
    /** What the model answers at every AI-agent turn (the hand-over phrase hands over); absent: the model fails. */
    readonly ai?: string;
  };
}

/** One line of a simulation: what the bot or the contact said, or what the run did. */
export type TranscriptEntry =
  | { readonly from: 'bot' | 'contact'; readonly text: string; readonly nodeId: string }
  | ({ readonly event: Exclude<FlowAction['type'], 'sendText'>; readonly nodeId: string } & Readonly<Record<string, unknown>>);

export interface Simulation {
  readonly flowId: number;
  readonly version: 'draft' | number;
  readonly transcript: TranscriptEntry[];
  readonly state: FlowState;
  /** How many of `inputs` the run took; the rest came after it ended or stopped. */
  readonly inputsUsed: number;
}

/** Rounds of interval ends, calls and answers one simulation may take. */
const MAX_ROUNDS = 300;
const DEFAULT_CONTACT: FlowContact = { name: 'Test Contact', number: '5511999999999', email: '' };

/**
 * Runs a flow's draft or a published version through the engine (`POST /flows/:flowId/simulate`):
 * the inputs are the contact's answers in order, intervals pass at once (the simulated clock moves
 * on), HTTP and AI nodes are answered from `mocks`, never called. Nothing is sent, nothing stored:
 * the transcript and the final state are the answer. Admins only.
 */
export class SimulateFlow {
  constructor(
    private readonly deps: {
      readonly flows: Flows;
      readonly clock: Clock;
      /** The company's business hours, as a test of an instant. */
      readonly businessHours: (companyId: number) => Promise<(at: Date) => boolean>;
    },
  ) {}

  async execute(input: SimulationInput): Promise<Simulation> {
    const { flows } = this.deps;
    assertAdmin(input.actor);
    const { companyId } = input.actor;
    const flow = await findFlow(flows, companyId, input.flowId);
    const version = input.version ?? 'draft';
    let graph: FlowGraph = flow.draft;
    if (version !== 'draft') {
      const found = await flows.findVersion(companyId, flow.id, version);
      if (!found) throw new NotFoundError('ERR_FLOW_VERSION_NOT_FOUND');
      graph = found.graph;
    }
    const contact: FlowContact = { ...DEFAULT_CONTACT, ...input.contact };
    const open = await this.deps.businessHours(companyId);
    let now = this.deps.clock.now();
    const transcript: TranscriptEntry[] = [];
    const feed = (state: FlowState, next: FlowInput): FlowState => {
      const ctx: FlowContext = { contact, now, withinBusinessHours: open };
      const result = step(graph, state, next, ctx);
      for (const a of result.actions) transcript.push(entryOf(a, input.mocks));
      return result.state;
    };
    let state = feed(initialState(input.variables), 'start');
    let used = 0;
    for (let round = 0; round < MAX_ROUNDS && state.status === 'waiting' && state.waiting; round++) {
      const { kind, until } = state.waiting;
      const nodeId = state.nodeId!;
      if (kind === 'interval') {
        if (until) now = new Date(Math.max(now.getTime(), Date.parse(until)));
        state = feed(state, { intervalDone: true });
      } else if (kind === 'http') {
        state = feed(state, { httpResult: httpResult(input.mocks?.http, nodeId) });
      } else if (kind === 'ai') {
        state = feed(state, { aiResult: aiResult(input.mocks?.ai) });
      } else {
        const answer = input.inputs[used];
        if (answer === undefined) break;
        used++;
        transcript.push({ from: 'contact', text: answer, nodeId });
        state = feed(state, { answer });
      }
    }
    return { flowId: flow.id, version, transcript, state, inputsUsed: used };
  }
}

function httpResult(mocks: Readonly<Record<string, HttpMock>> | undefined, nodeId: string): FlowHttpResult {
  const mock = mocks?.[nodeId] ?? mocks?.['*'];
  return mock ? { status: mock.status, body: mock.body ?? null } : { error: 'not mocked' };
}

function aiResult(mock: string | undefined): FlowAiResult {
  return mock === undefined ? { error: 'not mocked' } : { text: mock };
}

/** An action as a transcript line; a call carries the answer the mocks gave it. */
function entryOf(a: FlowAction, mocks: SimulationInput['mocks']): TranscriptEntry {
  switch (a.type) {
    case 'sendText':
      return { from: 'bot', text: a.text, nodeId: a.nodeId };
    case 'callHttp':
      return { event: a.type, nodeId: a.nodeId, request: a.request, response: httpResult(mocks?.http, a.nodeId) };
    case 'callAi':
      return { event: a.type, nodeId: a.nodeId, promptId: a.promptId, messages: a.messages, response: aiResult(mocks?.ai) };
    default: {
      const { type, nodeId, ...rest } = a;
      return { event: type, nodeId, ...rest };
    }
  }
}
