import { LocatedValidationError, NotFoundError } from '../shared/errors.js';
import type { ErrorCode } from '../shared/error-codes.js';
import {
  CONDITION_MATCHES,
  CONDITION_OPERATORS,
  CONDITION_SOURCES,
  CONTACT_FIELDS,
  FLOW_LIMITS,
  FLOW_NODE_TYPES,
  handlesOf,
  HTTP_METHODS,
  RESERVED_HANDLES,
  VALIDATION_KINDS,
  type ConditionRule,
  type FlowEdge,
  type FlowGraph,
  type FlowNode,
  type FlowNodeData,
  type FlowNodeType,
  type FlowPosition,
} from './flow-graph.js';

/** A node as a client sends it: any `data` field left out takes its default. */
export interface FlowNodeInput {
  readonly id?: string;
  readonly type: string;
  readonly position?: { readonly x: number; readonly y: number };
  readonly data?: Readonly<Record<string, unknown>>;
}

export interface FlowEdgeInput {
  readonly id?: string;
  readonly source: string;
  readonly sourceHandle: string;
  readonly target: string;
}

export interface FlowGraphInput {
  readonly nodes: readonly FlowNodeInput[];
  readonly edges: readonly FlowEdgeInput[];
}

const ID = /^[A-Za-z0-9_.:-]+$/;
const VARIABLE = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** 422 `{ error, nodeId, reason }`: the node (or edge) a draft refuses, and why. */
export function refuse(code: ErrorCode, nodeId: string | null, reason: string): never {
  throw new LocatedValidationError(code, { nodeId, reason });
}

/**
 * 422 `ERR_FLOW_INVALID_EDGE` `{ error, nodeId, edgeId, reason }`: an editor shows it on elements
 * of the graph it sent, so `nodeId` is the edge's source as the edge gives it (null when that is
 * not an id) and `edgeId` the edge's id as the request gave it (null when the server mints it).
 */
function refuseEdge(input: Pick<FlowEdgeInput, 'id' | 'source'>, reason: string): never {
  const named = (id: unknown) => (isElementId(id) ? id : null);
  throw new LocatedValidationError('ERR_FLOW_INVALID_EDGE', { nodeId: named(input.source), edgeId: named(input.id), reason });
}

export function isElementId(id: unknown): id is string {
  return typeof id === 'string' && id.length >= 1 && id.length <= FLOW_LIMITS.id && ID.test(id);
}

export function isVariableName(name: unknown): name is string {
  return typeof name === 'string' && name.length <= FLOW_LIMITS.variable && VARIABLE.test(name);
}

/** Reads one node's `data` field by field, refusing (with the node named) what does not fit. */
class DataReader {
  constructor(
    private readonly nodeId: string,
    private readonly data: Readonly<Record<string, unknown>>,
  ) {}

  fail(reason: string): never {
    return refuse('ERR_FLOW_INVALID_NODE', this.nodeId, reason);
  }

  raw(key: string): unknown {
    return this.data[key];
  }
  text(key: string, max: number = FLOW_LIMITS.text, fallback = ''): string {
    const v = this.data[key] ?? fallback;
    if (typeof v !== 'string' || v.length > max) this.fail(`\`${key}\` is text of at most ${max} characters`);
    return v;
  }
  int(key: string, range: { readonly min: number; readonly max: number }, fallback: number): number {
    const v = this.data[key] ?? fallback;
    if (typeof v !== 'number' || !Number.isInteger(v) || v < range.min || v > range.max)
      this.fail(`\`${key}\` is a whole number from ${range.min} to ${range.max}`);
    return v;
  }
  optionalInt(key: string, range: { readonly min: number; readonly max: number }): number | null {
    const v = this.data[key];
    if (v === undefined || v === null) return null;
    if (typeof v !== 'number' || !Number.isInteger(v) || v < range.min || v > range.max)
      this.fail(`\`${key}\` is null or a whole number from ${range.min} to ${range.max}`);
    return v;
  }
  number(key: string, range: { readonly min: number; readonly max: number }, fallback: number): number {
    const v = this.data[key] ?? fallback;
    if (typeof v !== 'number' || !Number.isFinite(v) || v < range.min || v > range.max) this.fail(`\`${key}\` is a number from ${range.min} to ${range.max}`);
    return v;
  }
  id(key: string, value: unknown = this.data[key]): number {
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > 2_147_483_647) this.fail(`\`${key}\` is an id`);
    return value;
  }
  optionalId(key: string): number | null {
    const v = this.data[key];
    return v === undefined || v === null ? null : this.id(key, v);
  }
  ids(key: string): number[] {
    const v = this.data[key] ?? [];
    if (!Array.isArray(v) || v.length > FLOW_LIMITS.tags) this.fail(`\`${key}\` is a list of at most ${FLOW_LIMITS.tags} ids`);
    return [...new Set((v as unknown[]).map((x) => this.id(key, x)))];
  }
  oneOf<T extends string>(key: string, allowed: readonly T[], fallback: T): T {
    const v = this.data[key] ?? fallback;
    if (typeof v !== 'string' || !(allowed as readonly string[]).includes(v)) this.fail(`\`${key}\` is one of ${allowed.join(', ')}`);
    return v as T;
  }
  variable(key: string, nullable: true): string | null;
  variable(key: string, nullable: false): string;
  variable(key: string, nullable: boolean): string | null {
    const v = this.data[key];
    if ((v === undefined || v === null || v === '') && nullable) return null;
    if (!isVariableName(v)) this.fail(`\`${key}\` is a variable name: a letter or \`_\`, then letters, digits or \`_\` (up to ${FLOW_LIMITS.variable})`);
    return v;
  }
  /** A nested object read the same way; null when absent. */
  object(key: string): DataReader | null {
    const v = this.data[key];
    if (v === undefined || v === null) return null;
    if (typeof v !== 'object' || Array.isArray(v)) this.fail(`\`${key}\` is an object or null`);
    return new DataReader(this.nodeId, v as Record<string, unknown>);
  }
  list(key: string, max: number): DataReader[] {
    const v = this.data[key] ?? [];
    if (!Array.isArray(v) || v.length > max || v.some((x) => typeof x !== 'object' || x === null || Array.isArray(x))) {
      this.fail(`\`${key}\` is a list of at most ${max} objects`);
    }
    return (v as Array<Record<string, unknown>>).map((x) => new DataReader(this.nodeId, x));
  }
  /** Handles a client names (an option's, a rule's): unique in the node, none the engine keeps for itself. */
  handles(values: readonly unknown[], what: string): string[] {
    const seen = new Set<string>();
    for (const h of values) {
      if (!isElementId(h) || (RESERVED_HANDLES as readonly string[]).includes(h) || seen.has(h)) {
        this.fail(`each ${what} has its own \`handle\` (letters, digits, \`_.:-\`; not ${RESERVED_HANDLES.join(', ')})`);
      }
      seen.add(h);
    }
    return [...seen];
  }
}

type Cleaners = { readonly [T in FlowNodeType]: (r: DataReader) => FlowNodeData[T] };

const CLEAN: Cleaners = {
  start: () => ({}),
  message: (r) => {
    const media = r.object('media');
    return {
      text: r.text('text'),
      media: media ? { fileListId: media.id('fileListId'), fileOptionId: media.optionalId('fileOptionId') } : null,
      typingMs: r.int('typingMs', FLOW_LIMITS.typingMs, 0),
    };
  },
  question: (r) => {
    const mode = r.oneOf('mode', ['options', 'free'] as const, 'options');
    const raw = mode === 'options' ? r.list('options', FLOW_LIMITS.options) : [];
    const handles = r.handles(
      raw.map((o) => o.raw('handle')),
      'option',
    );
    const seconds = r.optionalInt('timeoutSeconds', FLOW_LIMITS.timeoutSeconds);
    return {
      text: r.text('text'),
      mode,
      options: raw.map((o, i) => ({ handle: handles[i]!, label: o.text('label', FLOW_LIMITS.label) })),
      variable: r.variable('variable', true),
      validation: r.oneOf('validation', VALIDATION_KINDS, 'text'),
      retries: r.int('retries', FLOW_LIMITS.retries, 2),
      invalidText: r.text('invalidText'),
      timeoutSeconds: seconds,
    };
  },
  condition: (r) => {
    const match = r.oneOf('match', CONDITION_MATCHES, 'all');
    const raw = r.list('rules', FLOW_LIMITS.rules);
    const handles =
      match === 'first'
        ? r.handles(
            raw.map((x) => x.raw('handle')),
            'rule',
          )
        : raw.map(() => '');
    return { match, rules: raw.map((x, i) => ruleOf(x, handles[i]!)) };
  },
  interval: (r) => ({ seconds: r.int('seconds', FLOW_LIMITS.intervalSeconds, 60) }),
  setVariable: (r) => ({ variable: r.variable('variable', false), value: r.text('value') }),
  tags: (r) => ({ add: r.ids('add'), remove: r.ids('remove') }),
  transfer: (r) => ({ queueId: r.optionalId('queueId'), userId: r.optionalId('userId') }),
  close: () => ({}),
  http: (r) => ({
    method: r.oneOf('method', HTTP_METHODS, 'GET'),
    url: r.text('url', FLOW_LIMITS.url),
    headers: r.list('headers', FLOW_LIMITS.headers).map((h) => {
      const name = h.text('name', 100);
      if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) r.fail('each header has a `name` of token characters');
      return { name, value: h.text('value', 1000) };
    }),
    body: r.raw('body') === undefined || r.raw('body') === null ? null : r.text('body', FLOW_LIMITS.body),
    timeoutMs: r.int('timeoutMs', FLOW_LIMITS.httpTimeoutMs, FLOW_LIMITS.httpTimeoutMs.default),
    save: r.list('save', FLOW_LIMITS.captures).map((c) => ({ path: c.text('path', FLOW_LIMITS.path), variable: c.variable('variable', false) })),
  }),
  integration: (r) => ({ integrationId: r.id('integrationId') }),
  aiAgent: (r) => {
    const model = r.object('model');
    return {
      promptId: r.optionalId('promptId'),
      model: model
        ? {
            baseUrl: model.text('baseUrl', 500),
            model: model.text('model', 100),
            instructions: model.text('instructions', 20_000),
            temperature: model.number('temperature', { min: 0, max: 2 }, 1),
            maxTokens: model.int('maxTokens', { min: 1, max: 16_000 }, 300),
          }
        : null,
      input: r.text('input', FLOW_LIMITS.text, '{{lastAnswer}}'),
      variable: r.variable('variable', true),
      maxTurns: r.int('maxTurns', FLOW_LIMITS.maxTurns, 1),
    };
  },
  goToFlow: (r) => ({ flowId: r.id('flowId') }),
};

function ruleOf(r: DataReader, handle: string): ConditionRule {
  const source = r.oneOf('source', CONDITION_SOURCES, 'variable');
  const operator = r.oneOf('operator', CONDITION_OPERATORS, source === 'businessHours' ? 'isTrue' : 'equals');
  const onHours = operator === 'isTrue' || operator === 'isFalse';
  if ((source === 'businessHours') !== onHours) r.fail('business hours are tested with `isTrue`/`isFalse`, and only they are');
  let key = '';
  if (source === 'variable') key = r.variable('key', false);
  if (source === 'contact') key = r.oneOf('key', CONTACT_FIELDS, 'name');
  return { handle, source, key, operator, value: r.text('value', 1000) };
}

function positionOf(nodeId: string, p: FlowNodeInput['position']): FlowPosition {
  if (p === undefined) return { x: 0, y: 0 };
  const ok = (v: unknown) => typeof v === 'number' && Number.isFinite(v) && Math.abs(v) <= FLOW_LIMITS.coordinate;
  if (typeof p !== 'object' || p === null || !ok(p.x) || !ok(p.y))
    refuse('ERR_FLOW_INVALID_NODE', nodeId, `\`position\` is \`{x, y}\`, each within ±${FLOW_LIMITS.coordinate}`);
  return { x: p.x, y: p.y };
}

/** One node of a draft: its type known, its data complete (defaults filled in) and within bounds. */
export function cleanNode(input: FlowNodeInput, id: string): FlowNode {
  if (!isElementId(id)) refuse('ERR_FLOW_INVALID_NODE', null, `A node id is 1 to ${FLOW_LIMITS.id} letters, digits or \`_.:-\``);
  if (!(FLOW_NODE_TYPES as readonly string[]).includes(input.type)) refuse('ERR_FLOW_INVALID_NODE', id, `\`type\` is one of ${FLOW_NODE_TYPES.join(', ')}`);
  const type = input.type as FlowNodeType;
  const data = input.data ?? {};
  if (typeof data !== 'object' || data === null || Array.isArray(data)) refuse('ERR_FLOW_INVALID_NODE', id, '`data` is an object');
  const clean = CLEAN[type] as (r: DataReader) => FlowNodeData[FlowNodeType];
  return { id, type, position: positionOf(id, input.position), data: clean(new DataReader(id, data)) } as FlowNode;
}

/**
 * An edge of a draft: its ids well formed. Whether its ends exist is for `checkEdge` (and for
 * publishing). `id` is the input's own or, for an edge the server names, a fresh one.
 */
export function cleanEdge(input: FlowEdgeInput, id: string): FlowEdge {
  if (!isElementId(id)) refuseEdge(input, `An edge id is 1 to ${FLOW_LIMITS.id} letters, digits or \`_.:-\``);
  for (const key of ['source', 'sourceHandle', 'target'] as const) {
    if (!isElementId(input[key])) refuseEdge(input, `\`${key}\` is 1 to ${FLOW_LIMITS.id} letters, digits or \`_.:-\``);
  }
  return { id, source: input.source, sourceHandle: input.sourceHandle, target: input.target };
}

/**
 * An edge about to be added may join these two nodes: both exist (404 otherwise), the handle is
 * one of the source's and still free. Refusals name the source only: the edge's id is not the
 * client's yet.
 */
export function checkEdge(graph: FlowGraph, edge: FlowEdge): void {
  const source = graph.nodes.find((n) => n.id === edge.source);
  if (!source || !graph.nodes.some((n) => n.id === edge.target)) throw new NotFoundError('ERR_FLOW_NODE_NOT_FOUND');
  const named = { source: source.id };
  if (!handlesOf(source).some((h) => h.handle === edge.sourceHandle)) refuseEdge(named, `The node \`${source.id}\` has no handle \`${edge.sourceHandle}\``);
  if (graph.edges.some((e) => e.id !== edge.id && e.source === edge.source && e.sourceHandle === edge.sourceHandle)) {
    refuseEdge(named, `The handle \`${edge.sourceHandle}\` of \`${source.id}\` already leads somewhere`);
  }
}

/** Sizes a graph may have, draft or published. */
export function checkSize(nodes: number, edges: number): void {
  if (nodes > FLOW_LIMITS.nodes || edges > FLOW_LIMITS.edges) {
    refuse('ERR_FLOW_TOO_LARGE', null, `A flow has at most ${FLOW_LIMITS.nodes} nodes and ${FLOW_LIMITS.edges} edges`);
  }
}

/**
 * A whole draft as the editor saves it: every node complete and within bounds, ids unique. Edges
 * may still point at missing nodes or handles (a canvas being drawn); publishing refuses those.
 */
export function cleanGraph(input: FlowGraphInput): FlowGraph {
  checkSize(input.nodes.length, input.edges.length);
  const nodes = input.nodes.map((n) => cleanNode(n, n.id ?? ''));
  const edges = input.edges.map((e) => cleanEdge(e, e.id ?? ''));
  const nodeIds = new Set<string>();
  for (const n of nodes) {
    if (nodeIds.has(n.id)) refuse('ERR_FLOW_INVALID_NODE', n.id, 'Two nodes have this id');
    nodeIds.add(n.id);
  }
  const edgeIds = new Set<string>();
  for (const e of edges) {
    if (edgeIds.has(e.id)) refuseEdge(e, 'Two edges have this id');
    edgeIds.add(e.id);
  }
  return { nodes, edges };
}
