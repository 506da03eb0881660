/**
 * A flow's graph: typed nodes (each with its validated `data`) joined by edges that leave a node by
 * one of its named handles. The same shape is the editable draft and each immutable published version.
 */

export const FLOW_NODE_TYPES = [
  'start',
  'message',
  'question',
  'condition',
  'interval',
  'setVariable',
  'tags',
  'transfer',
  'close',
  'http',
  'integration',
  'aiAgent',
  'goToFlow',
] as const;
export type FlowNodeType = (typeof FLOW_NODE_TYPES)[number];

export const VALIDATION_KINDS = ['text', 'number', 'email', 'phone'] as const;
export type AnswerValidation = (typeof VALIDATION_KINDS)[number];

export const CONDITION_SOURCES = ['variable', 'contact', 'businessHours'] as const;
export type ConditionSource = (typeof CONDITION_SOURCES)[number];
export const CONDITION_OPERATORS = [
  'equals',
  'notEquals',
  'contains',
  'notContains',
  'startsWith',
  'endsWith',
  'greaterThan',
  'lessThan',
  'isEmpty',
  'isNotEmpty',
  'isTrue',
  'isFalse',
] as const;
export type ConditionOperator = (typeof CONDITION_OPERATORS)[number];
export const CONDITION_MATCHES = ['all', 'any', 'first'] as const;
export type ConditionMatch = (typeof CONDITION_MATCHES)[number];
/** The contact fields a condition or a template may read. */
export const CONTACT_FIELDS = ['name', 'firstName', 'number', 'email'] as const;
export type ContactField = (typeof CONTACT_FIELDS)[number];

export const HTTP_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
export type FlowHttpMethod = (typeof HTTP_METHODS)[number];

export interface FlowPosition {
  x: number;
  y: number;
}

export interface QuestionOption {
  handle: string;
  label: string;
}
export interface ConditionRule {
  /** With `match: 'first'`: the handle taken when this rule is the first to hold. */
  handle: string;
  source: ConditionSource;
  /** The variable's name, or the contact field; empty for business hours. */
  key: string;
  operator: ConditionOperator;
  /** Compared with, after its `{{variables}}` are filled in. */
  value: string;
}
export interface HttpHeader {
  name: string;
  value: string;
}
export interface ResponseCapture {
  path: string;
  variable: string;
}
/** A model configured on the node itself: a keyless OpenAI-compatible endpoint (keys live only in prompts). */
export interface InlineModel {
  baseUrl: string;
  model: string;
  instructions: string;
  temperature: number;
  maxTokens: number;
}

export interface FlowNodeData {
  start: Record<string, never>;
  message: {
    text: string;
    /** Files of a file list sent after the text: one option of it, or all (`fileOptionId` null). */
    media: { fileListId: number; fileOptionId: number | null } | null;
    /** "Typing…" before the message, in milliseconds. */
    typingMs: number;
  };
  question: {
    text: string;
    /** `options`: a numbered menu, one handle per option; `free`: any answer passing `validation` leaves by `answer`. */
    mode: 'options' | 'free';
    options: QuestionOption[];
    /** Where the answer is kept (an option's label for a menu); null keeps it only as `lastAnswer`. */
    variable: string | null;
    validation: AnswerValidation;
    /** How many invalid answers are asked again (with `invalidText`) before leaving by `invalid`. */
    retries: number;
    invalidText: string;
    /** No answer for this long leaves by `timeout`; null waits for ever. */
    timeoutSeconds: number | null;
  };
  condition: { match: ConditionMatch; rules: ConditionRule[] };
  interval: { seconds: number };
  setVariable: { variable: string; value: string };
  tags: { add: number[]; remove: number[] };
  transfer: { queueId: number | null; userId: number | null };
  close: Record<string, never>;
  http: {
    method: FlowHttpMethod;
    url: string;
    headers: HttpHeader[];
    body: string | null;
    timeoutMs: number;
    save: ResponseCapture[];
  };
  integration: { integrationId: number };
  aiAgent: {
    promptId: number | null;
    model: InlineModel | null;
    /** What the model is given as the contact's turn when the node is entered (default `{{lastAnswer}}`). */
    input: string;
    /** Where each answer is kept; null keeps it nowhere. */
    variable: string | null;
    /** Model answers before leaving by `done` (the contact answers in between). */
    maxTurns: number;
  };
  goToFlow: { flowId: number };
}

export type FlowNodeOf<T extends FlowNodeType> = { id: string; type: T; position: FlowPosition; data: FlowNodeData[T] };
export type FlowNode = { [T in FlowNodeType]: FlowNodeOf<T> }[FlowNodeType];

export interface FlowEdge {
  id: string;
  source: string;
  sourceHandle: string;
  target: string;
}

export interface FlowGraph {
  nodes: FlowNode[];
  edges: FlowEdge[];
}

export const EMPTY_GRAPH: FlowGraph = Object.freeze({ nodes: [], edges: [] }) as FlowGraph;

export const FLOW_LIMITS = {
  nodes: 500,
  edges: 2000,
  id: 64,
  text: 4096,
  label: 100,
  options: 20,
  rules: 20,
  headers: 20,
  captures: 10,
  tags: 50,
  variable: 50,
  url: 2000,
  body: 10_000,
  path: 200,
  coordinate: 1_000_000,
  typingMs: { min: 0, max: 30_000 },
  retries: { min: 0, max: 5 },
  timeoutSeconds: { min: 10, max: 7 * 86_400 },
  intervalSeconds: { min: 1, max: 7 * 86_400 },
  httpTimeoutMs: { min: 1000, max: 30_000, default: 10_000 },
  maxTurns: { min: 1, max: 50 },
} as const;

/** Handles the engine answers on its own: a question's invalid answers and silence, a condition's fallback. */
export const RESERVED_HANDLES = ['next', 'answer', 'invalid', 'timeout', 'else', 'true', 'false', 'success', 'error', 'done', 'handover'] as const;

/** One way out of a node; an optional one left unconnected ends the run there. */
export interface NodeHandle {
  readonly handle: string;
  readonly required: boolean;
}

const req = (handle: string): NodeHandle => ({ handle, required: true });
const opt = (handle: string): NodeHandle => ({ handle, required: false });

/** The handles a node leaves by: transfers, closes, integrations and go-tos end the run and have none. */
export function handlesOf(node: FlowNode): NodeHandle[] {
  switch (node.type) {
    case 'start':
      return [req('next')];
    case 'message':
    case 'interval':
    case 'setVariable':
    case 'tags':
      return [opt('next')];
    case 'question': {
      const ways = node.data.mode === 'options' ? node.data.options.map((o) => req(o.handle)) : [req('answer')];
      return [...ways, opt('invalid'), ...(node.data.timeoutSeconds === null ? [] : [opt('timeout')])];
    }
    case 'condition':
      return node.data.match === 'first' ? [...node.data.rules.map((r) => req(r.handle)), req('else')] : [req('true'), req('false')];
    case 'http':
      return [req('success'), req('error')];
    case 'aiAgent':
      return [opt('done'), opt('handover')];
    case 'transfer':
    case 'close':
    case 'integration':
    case 'goToFlow':
      return [];
    default: {
      const unknown: never = node;
      return unknown;
    }
  }
}
