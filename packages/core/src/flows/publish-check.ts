import { cleanPromptBaseUrl } from '../prompts/prompt.js';
import { refuse } from './clean-graph.js';
import { FLOW_LIMITS, handlesOf, type FlowGraph, type FlowNode } from './flow-graph.js';

/** Whether what a node names is the company's: each answers for one id (the company is the lookups'). */
export interface FlowLookups {
  queue(id: number): Promise<boolean>;
  user(id: number): Promise<boolean>;
  tag(id: number): Promise<boolean>;
  /** The list, and with an option id that option of it. */
  fileList(id: number, optionId: number | null): Promise<boolean>;
  prompt(id: number): Promise<boolean>;
  integration(id: number): Promise<boolean>;
  flow(id: number): Promise<boolean>;
}

function invalid(nodeId: string | null, reason: string): never {
  return refuse('ERR_FLOW_INVALID_GRAPH', nodeId, reason);
}

/** An http(s) URL once its `{{variables}}` are filled in (the host is checked again when it is called). */
function isHttpUrl(template: string): boolean {
  try {
    const url = new URL(template.replace(/\{\{[^}]*\}\}/g, 'x'));
    return (url.protocol === 'http:' || url.protocol === 'https:') && !url.username && !url.password;
  } catch {
    return false;
  }
}

/** What the node itself must say to run: its text, its target, its model… */
function checkContent(node: FlowNode, models: readonly string[]): void {
  const id = node.id;
  switch (node.type) {
    case 'message':
      if (!node.data.text.trim() && !node.data.media) invalid(id, 'A message has text or media');
      return;
    case 'question':
      if (!node.data.text.trim()) invalid(id, 'A question has text');
      if (node.data.mode === 'options' && node.data.options.length === 0) invalid(id, 'A menu has at least one option');
      if (node.data.options.some((o) => !o.label.trim())) invalid(id, 'Every option of a menu has a label');
      return;
    case 'condition':
      if (node.data.rules.length === 0) invalid(id, 'A condition has at least one rule');
      return;
    case 'tags':
      if (node.data.add.length + node.data.remove.length === 0) invalid(id, 'A tags node adds or removes at least one tag');
      return;
    case 'transfer':
      if (node.data.queueId === null && node.data.userId === null) invalid(id, 'A transfer names a queue, a user or both');
      return;
    case 'http':
      if (!isHttpUrl(node.data.url)) invalid(id, 'The URL is an http(s) URL without credentials');
      return;
    case 'aiAgent': {
      const { promptId, model } = node.data;
      if ((promptId === null) === (model === null)) invalid(id, 'An AI agent uses a prompt (`promptId`) or a model of its own (`model`), one of them');
      if (model) {
        try {
          cleanPromptBaseUrl('openai-compatible', model.baseUrl);
        } catch {
          invalid(id, "The model's base URL is an http(s) URL without credentials, query or fragment");
        }
        if (!models.includes(model.model)) invalid(id, `The model is one of the server's: ${models.join(', ')}`);
        if (!model.instructions.trim()) invalid(id, 'The model has instructions');
      }
      return;
    }
    default:
      return;
  }
}

/** Everything the node names, each with the lookup that says it is the company's. */
function references(node: FlowNode, l: FlowLookups): Array<[string, () => Promise<boolean>]> {
  switch (node.type) {
    case 'message': {
      const { media } = node.data;
      return media ? [[`file list ${media.fileListId}`, () => l.fileList(media.fileListId, media.fileOptionId)]] : [];
    }
    case 'tags':
      return [...node.data.add, ...node.data.remove].map((t) => [`tag ${t}`, () => l.tag(t)]);
    case 'transfer': {
      const { queueId, userId } = node.data;
      return [
        ...(queueId === null ? [] : [[`queue ${queueId}`, () => l.queue(queueId)] as [string, () => Promise<boolean>]]),
        ...(userId === null ? [] : [[`user ${userId}`, () => l.user(userId)] as [string, () => Promise<boolean>]]),
      ];
    }
    case 'integration':
      return [[`integration ${node.data.integrationId}`, () => l.integration(node.data.integrationId)]];
    case 'aiAgent': {
      const { promptId } = node.data;
      return promptId === null ? [] : [[`prompt ${promptId}`, () => l.prompt(promptId)]];
    }
    case 'goToFlow':
      return [[`flow ${node.data.flowId}`, () => l.flow(node.data.flowId)]];
    default:
      return [];
  }
}

/**
 * What publishing demands of a draft, the first failure answered as 422 `ERR_FLOW_INVALID_GRAPH`
 * naming the node: bounded sizes; exactly one start; every edge between nodes of the graph, by a
 * handle its source has, one edge per handle; every required handle connected; every node reachable
 * from the start; each node's content complete; everything named (queues, users, tags, file lists,
 * prompts, integrations, flows) one of the company's.
 */
export async function checkPublishable(graph: FlowGraph, lookups: FlowLookups, models: readonly string[]): Promise<void> {
  if (graph.nodes.length > FLOW_LIMITS.nodes || graph.edges.length > FLOW_LIMITS.edges) {
    invalid(null, `A flow has at most ${FLOW_LIMITS.nodes} nodes and ${FLOW_LIMITS.edges} edges`);
  }
  const starts = graph.nodes.filter((n) => n.type === 'start');
  if (starts.length === 0) invalid(null, 'The flow has no start node');
  if (starts.length > 1) invalid(starts[1]!.id, 'A flow has one start node');
  const byId = new Map(graph.nodes.map((n) => [n.id, n]));
  const taken = new Set<string>();
  for (const e of graph.edges) {
    const source = byId.get(e.source);
    if (!source) invalid(e.id, `The edge \`${e.id}\` leaves a node the flow does not have`);
    if (!byId.has(e.target)) invalid(source.id, `The handle \`${e.sourceHandle}\` leads to a node the flow does not have`);
    if (!handlesOf(source).some((h) => h.handle === e.sourceHandle)) invalid(source.id, `The node has no handle \`${e.sourceHandle}\``);
    const key = `${e.source}\u0000${e.sourceHandle}`;
    if (taken.has(key)) invalid(source.id, `The handle \`${e.sourceHandle}\` leads to two nodes`);
    taken.add(key);
  }
  for (const n of graph.nodes) {
    for (const h of handlesOf(n)) if (h.required && !taken.has(`${n.id}\u0000${h.handle}`)) invalid(n.id, `The handle \`${h.handle}\` leads nowhere`);
  }
  const reached = new Set<string>([starts[0]!.id]);
  const queue = [starts[0]!.id];
  while (queue.length) {
    const at = queue.shift()!;
    for (const e of graph.edges)
      if (e.source === at && !reached.has(e.target)) {
        reached.add(e.target);
        queue.push(e.target);
      }
  }
  for (const n of graph.nodes) if (!reached.has(n.id)) invalid(n.id, 'No path from the start reaches this node');
  for (const n of graph.nodes) checkContent(n, models);
  for (const n of graph.nodes) {
    for (const [what, exists] of references(n, lookups)) if (!(await exists())) invalid(n.id, `The ${what} is not one of the company's`);
  }
}
