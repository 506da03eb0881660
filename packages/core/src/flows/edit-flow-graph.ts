import type { Actor } from '../shared/actor.js';
import { assertAdmin } from '../shared/actor.js';
import { ConflictError, NotFoundError } from '../shared/errors.js';
import type { IdGenerator } from '../shared/ports.js';
import { checkEdge, checkSize, cleanEdge, cleanGraph, cleanNode, type FlowEdgeInput, type FlowGraphInput, type FlowNodeInput } from './clean-graph.js';
import type { Flow, FlowDetails } from './flow.js';
import { handlesOf, type FlowEdge, type FlowGraph, type FlowNode } from './flow-graph.js';
import { announceDraft, flowDetails, type FlowDeps } from './manage-flows.js';

/**
 * Saves the whole draft as the editor holds it (`PUT /flows/:flowId/graph`), only if its draft is
 * still at `version` (409 `ERR_FLOW_VERSION_CONFLICT` otherwise: another editor saved in between);
 * the draft's version then moves on by one. `flow` event, action `update`.
 */
export class SaveFlowGraph {
  constructor(private readonly deps: FlowDeps) {}

  async execute(input: { readonly actor: Actor; readonly flowId: number; readonly graph: FlowGraphInput; readonly version: number }): Promise<FlowDetails> {
    const { flows, clock } = this.deps;
    assertAdmin(input.actor);
    const { companyId } = input.actor;
    const draft = cleanGraph(input.graph);
    if (!(await flows.saveDraft(companyId, input.flowId, input.version, draft, clock.now()))) {
      if (!(await flows.findById(companyId, input.flowId))) throw new NotFoundError('ERR_NO_FLOW_FOUND');
      throw new ConflictError('ERR_FLOW_VERSION_CONFLICT');
    }
    const saved = (await flows.findById(companyId, input.flowId))!;
    await announceDraft(this.deps, saved);
    return flowDetails(flows, saved);
  }
}

/** Changes the draft under its row's lock (changes take turns), moves its version on and tells the editors. */
async function changeDraft<T>(deps: FlowDeps, actor: Actor, flowId: number, change: (draft: FlowGraph) => T): Promise<{ result: T; flow: Flow }> {
  const { flows, tx, clock } = deps;
  assertAdmin(actor);
  const done = await tx.run(async () => {
    const flow = await flows.lock(actor.companyId, flowId);
    if (!flow) throw new NotFoundError('ERR_NO_FLOW_FOUND');
    const draft = structuredClone(flow.draft);
    const result = change(draft);
    checkSize(draft.nodes.length, draft.edges.length);
    const now = clock.now();
    if (!(await flows.saveDraft(actor.companyId, flowId, flow.draftVersion, draft, now))) throw new ConflictError('ERR_FLOW_VERSION_CONFLICT');
    return { result, flow: { ...flow, draft, draftVersion: flow.draftVersion + 1, updatedAt: now } };
  });
  await announceDraft(deps, done.flow);
  return done;
}

function nodeIndex(draft: FlowGraph, nodeId: string): number {
  const i = draft.nodes.findIndex((n) => n.id === nodeId);
  if (i < 0) throw new NotFoundError('ERR_FLOW_NODE_NOT_FOUND');
  return i;
}

/** Drops the edges of `nodeId` that no longer fit it (every one, without the node; those of handles it lost). */
function dropEdges(draft: FlowGraph, nodeId: string, node: FlowNode | null): string[] {
  const handles = new Set(node ? handlesOf(node).map((h) => h.handle) : []);
  const gone = draft.edges.filter((e) => (node ? e.source === nodeId && !handles.has(e.sourceHandle) : e.source === nodeId || e.target === nodeId));
  draft.edges = draft.edges.filter((e) => !gone.includes(e));
  return gone.map((e) => e.id);
}

/** Adds a node to the draft with an id of the server's (`POST /flows/:flowId/nodes`). */
export class AddFlowNode {
  constructor(private readonly deps: FlowDeps & { readonly ids: IdGenerator }) {}

  async execute(input: { readonly actor: Actor; readonly flowId: number; readonly node: FlowNodeInput }): Promise<{ node: FlowNode; version: number }> {
    const node = cleanNode(input.node, this.deps.ids.uuid());
    const { flow } = await changeDraft(this.deps, input.actor, input.flowId, (draft) => {
      draft.nodes.push(node);
    });
    return { node, version: flow.draftVersion };
  }
}

/**
 * Changes a node of the draft: its position and data (defaults filled in), or its type (the data
 * then read for the new type). Edges of handles it no longer has go (`removedEdgeIds`).
 */
export class UpdateFlowNode {
  constructor(private readonly deps: FlowDeps) {}

  async execute(input: {
    readonly actor: Actor;
    readonly flowId: number;
    readonly nodeId: string;
    readonly node: Partial<FlowNodeInput>;
  }): Promise<{ node: FlowNode; version: number; removedEdgeIds: string[] }> {
    const { result, flow } = await changeDraft(this.deps, input.actor, input.flowId, (draft) => {
      const i = nodeIndex(draft, input.nodeId);
      const current = draft.nodes[i]!;
      const type = input.node.type ?? current.type;
      const node = cleanNode(
        {
          type,
          position: input.node.position ?? current.position,
          data: input.node.data ?? (type === current.type ? current.data : {}),
        },
        current.id,
      );
      draft.nodes[i] = node;
      return { node, removedEdgeIds: dropEdges(draft, node.id, node) };
    });
    return { ...result, version: flow.draftVersion };
  }
}

/** Removes a node of the draft with every edge to or from it. */
export class RemoveFlowNode {
  constructor(private readonly deps: FlowDeps) {}

  async execute(input: { readonly actor: Actor; readonly flowId: number; readonly nodeId: string }): Promise<{ version: number; removedEdgeIds: string[] }> {
    const { result, flow } = await changeDraft(this.deps, input.actor, input.flowId, (draft) => {
      draft.nodes.splice(nodeIndex(draft, input.nodeId), 1);
      return dropEdges(draft, input.nodeId, null);
    });
    return { version: flow.draftVersion, removedEdgeIds: result };
  }
}

/**
 * Joins two nodes of the draft (`POST /flows/:flowId/edges`): both must exist (404
 * `ERR_FLOW_NODE_NOT_FOUND`), the handle must be one of the source's and not connected yet (422
 * `ERR_FLOW_INVALID_EDGE`).
 */
export class AddFlowEdge {
  constructor(private readonly deps: FlowDeps & { readonly ids: IdGenerator }) {}

  async execute(input: { readonly actor: Actor; readonly flowId: number; readonly edge: FlowEdgeInput }): Promise<{ edge: FlowEdge; version: number }> {
    const edge = cleanEdge(input.edge, this.deps.ids.uuid());
    const { flow } = await changeDraft(this.deps, input.actor, input.flowId, (draft) => {
      checkEdge(draft, edge);
      draft.edges.push(edge);
    });
    return { edge, version: flow.draftVersion };
  }
}

export class RemoveFlowEdge {
  constructor(private readonly deps: FlowDeps) {}

  async execute(input: { readonly actor: Actor; readonly flowId: number; readonly edgeId: string }): Promise<{ version: number }> {
    const { flow } = await changeDraft(this.deps, input.actor, input.flowId, (draft) => {
      const i = draft.edges.findIndex((e) => e.id === input.edgeId);
      if (i < 0) throw new NotFoundError('ERR_FLOW_EDGE_NOT_FOUND');
      draft.edges.splice(i, 1);
    });
    return { version: flow.draftVersion };
  }
}
