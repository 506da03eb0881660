import { type FlowEdge, type FlowGraph, type FlowNode, type FlowNodeData, type FlowNodeType, handlesOf } from '@servicedesk/core/flows/flow-graph';

/**
 * The flow editor's pure side: the data a new node of each type starts with, fresh ids for nodes,
 * options and edges, what a node is called in lists, the handles it leaves by (the engine's own
 * `handlesOf`), and what a reload would drop (the editor's unsaved changes, in words).
 */

/** The types the palette offers, in the engine's order; the start is there from the flow's creation. */
export const PALETTE_TYPES = [
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
] as const satisfies readonly FlowNodeType[];

/** An id the server takes (`[A-Za-z0-9_.:-]`, up to 64), unlikely to meet another in the same draft. */
export function freshId(prefix: string, taken: ReadonlySet<string> = new Set()): string {
  for (;;) {
    const id = `${prefix}-${Math.random().toString(36).slice(2, 8)}`;
    if (!taken.has(id)) return id;
  }
}

/** What a node of each type holds when added: the engine's defaults, an option or a rule to fill in. */
export function defaultData<T extends FlowNodeType>(type: T): FlowNodeData[T] {
  const data: { [K in FlowNodeType]: () => FlowNodeData[K] } = {
    start: () => ({}),
    message: () => ({ text: '', media: null, typingMs: 0 }),
    question: () => ({
      text: '',
      mode: 'options',
      options: [{ handle: freshId('o'), label: '' }],
      variable: null,
      validation: 'text',
      retries: 2,
      invalidText: '',
      timeoutSeconds: null,
    }),
    condition: () => ({ match: 'all', rules: [{ handle: '', source: 'variable', key: '', operator: 'equals', value: '' }] }),
    interval: () => ({ seconds: 60 }),
    setVariable: () => ({ variable: 'value', value: '' }),
    tags: () => ({ add: [], remove: [] }),
    transfer: () => ({ queueId: null, userId: null }),
    close: () => ({}),
    http: () => ({ method: 'GET', url: '', headers: [], body: null, timeoutMs: 10_000, save: [] }),
    // The server refuses an integration or a go-to without its target: the form asks for it at once.
    integration: () => ({ integrationId: 0 }),
    aiAgent: () => ({ promptId: null, model: null, input: '{{lastAnswer}}', variable: null, maxTurns: 1 }),
    goToFlow: () => ({ flowId: 0 }),
  };
  return data[type]();
}

/** A node as the editor keeps it: the saved shape, whatever the canvas added (selection, size). */
export function newNode(type: FlowNodeType, position: { x: number; y: number }, taken: ReadonlySet<string>): FlowNode {
  return { id: freshId('n', taken), type, position, data: defaultData(type) } as FlowNode;
}

/** The node as the server stores it: only its id, type, position and data. */
export function savedNode(n: { id: string; type?: string | undefined; position: { x: number; y: number }; data: unknown }): FlowNode {
  return { id: n.id, type: n.type, position: { x: Math.round(n.position.x), y: Math.round(n.position.y) }, data: n.data } as FlowNode;
}

export function savedEdge(e: { id: string; source: string; sourceHandle?: string | null; target: string }): FlowEdge {
  return { id: e.id, source: e.source, sourceHandle: e.sourceHandle ?? '', target: e.target };
}

/** The handles a node leaves by, as the engine defines them (`next`, each option's, `true`/`false`…). */
export function handlesOfNode(node: FlowNode): Array<{ handle: string; required: boolean }> {
  try {
    return handlesOf(node);
  } catch {
    return [];
  }
}

/** A few words saying what the node does: its text, its target, its URL… (empty when it has none). */
export function nodeSummary(node: FlowNode): string {
  switch (node.type) {
    case 'message':
    case 'question':
      return node.data.text;
    case 'setVariable':
      return node.data.variable ? `${node.data.variable} = ${node.data.value}` : '';
    case 'http':
      return node.data.url ? `${node.data.method} ${node.data.url}` : '';
    case 'interval':
      return `${node.data.seconds} s`;
    default:
      return '';
  }
}

/** Up to `max` characters of a text on one line. */
export function shorten(text: string, max = 40): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** Sets the edge leaving `source` by `handle` (one per handle: any other leaving there goes), or removes it when `target` is null. */
export function connect(edges: readonly FlowEdge[], source: string, handle: string, target: string | null, taken: ReadonlySet<string>): FlowEdge[] {
  const rest = edges.filter((e) => !(e.source === source && e.sourceHandle === handle));
  return target === null ? rest : [...rest, { id: freshId('e', taken), source, sourceHandle: handle, target }];
}

/** Edges whose source handle its node no longer has (an option removed, a condition switched to `first`) go. */
export function pruneEdges(nodes: readonly FlowNode[], edges: readonly FlowEdge[]): FlowEdge[] {
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const kept = edges.filter((e) => {
    const source = byId.get(e.source);
    return source !== undefined && byId.has(e.target) && handlesOfNode(source).some((h) => h.handle === e.sourceHandle);
  });
  return kept.length === edges.length ? (edges as FlowEdge[]) : kept;
}

/** What the editor changed since the draft it last saved: what a reload would drop. */
export interface DraftChanges {
  added: FlowNode[];
  removed: FlowNode[];
  changed: FlowNode[];
  moved: number;
  edgesAdded: number;
  edgesRemoved: number;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
const edgeKey = (e: FlowEdge) => `${e.source}\u0000${e.sourceHandle}\u0000${e.target}`;

export function draftChanges(saved: FlowGraph, local: FlowGraph): DraftChanges {
  const before = new Map(saved.nodes.map((n) => [n.id, n]));
  const after = new Map(local.nodes.map((n) => [n.id, n]));
  const changes: DraftChanges = { added: [], removed: [], changed: [], moved: 0, edgesAdded: 0, edgesRemoved: 0 };
  for (const n of local.nodes) {
    const old = before.get(n.id);
    if (!old) changes.added.push(n);
    else if (old.type !== n.type || !same(old.data, n.data)) changes.changed.push(n);
    else if (Math.round(old.position.x) !== Math.round(n.position.x) || Math.round(old.position.y) !== Math.round(n.position.y)) changes.moved++;
  }
  for (const n of saved.nodes) if (!after.has(n.id)) changes.removed.push(n);
  const oldEdges = new Set(saved.edges.map(edgeKey));
  const newEdges = new Set(local.edges.map(edgeKey));
  for (const k of newEdges) if (!oldEdges.has(k)) changes.edgesAdded++;
  for (const k of oldEdges) if (!newEdges.has(k)) changes.edgesRemoved++;
  return changes;
}

export function hasChanges(c: DraftChanges): boolean {
  return c.added.length + c.removed.length + c.changed.length + c.moved + c.edgesAdded + c.edgesRemoved > 0;
}

/** Where a new node goes: to the right of the selected one, else below the lowest node. */
export function placeNew(nodes: readonly FlowNode[], selected: FlowNode | undefined): { x: number; y: number } {
  if (selected) return { x: Math.round(selected.position.x + 280), y: Math.round(selected.position.y) };
  if (nodes.length === 0) return { x: 0, y: 0 };
  const lowest = nodes.reduce((a, b) => (b.position.y > a.position.y ? b : a));
  return { x: Math.round(lowest.position.x), y: Math.round(lowest.position.y + 160) };
}
