import { cleanGraph, type FlowNodeInput } from '../../src/flows/clean-graph.js';
import type { FlowGraph } from '../../src/flows/flow-graph.js';

/** A node by id and type, its data given (defaults fill the rest). */
export const node = (id: string, type: string, data: Record<string, unknown> = {}): FlowNodeInput => ({ id, type, data });

/** A graph from nodes and `[source, handle, target]` edges, cleaned as a saved draft is. */
export function graph(nodes: readonly FlowNodeInput[], edges: ReadonlyArray<readonly [string, string, string]>): FlowGraph {
  return cleanGraph({ nodes, edges: edges.map(([source, sourceHandle, target], i) => ({ id: `e${i + 1}`, source, sourceHandle, target })) });
}
