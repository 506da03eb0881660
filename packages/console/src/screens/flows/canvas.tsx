import type { FlowEdge, FlowNode, FlowNodeType } from '@servicedesk/core/flows/flow-graph';
import {
  Background,
  type Connection,
  Controls,
  type Edge,
  type EdgeChange,
  Handle,
  type Node,
  type NodeChange,
  type NodeProps,
  Position,
  ReactFlow,
} from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import { createContext, memo, useContext, useMemo } from 'react';
import { useScreenStrings } from '../../i18n/screen-strings.js';
import { handlesOfNode, nodeSummary, shorten } from './graph.js';
import { strings } from './strings.js';

/** A node on the canvas: the flow's node as saved, with what xyflow adds (selection, size). */
export type CanvasNode = Node<Record<string, unknown>, FlowNodeType>;
export type CanvasEdge = Edge;

/** The node the server named in its last refusal: drawn marked, whatever else changes. */
export const ProblemContext = createContext<string | null>(null);

/** The words a handle is shown with: an option's label, a rule's handle, or the engine's name for it. */
export function useHandleLabel() {
  const { t } = useScreenStrings('flows', strings);
  return (node: FlowNode, handle: string): string => {
    if (node.type === 'question') {
      const option = node.data.options.find((o) => o.handle === handle);
      if (option) return option.label || t('handles.option');
    }
    if (node.type === 'condition' && node.data.match === 'first') {
      const index = node.data.rules.findIndex((r) => r.handle === handle);
      if (index >= 0) return t('handles.rule', { n: index + 1 });
    }
    return t(`handles.${handle}`, { defaultValue: handle });
  };
}

/**
 * One node: its type, a line of what it does, a way in (but the start) and a way out per handle,
 * each labelled. Memoised: dragging one node re-renders that node alone, so 200 stay smooth.
 */
const FlowNodeCard = memo(function FlowNodeCard({ id, type, data, selected }: NodeProps<CanvasNode>) {
  const { t } = useScreenStrings('flows', strings);
  const problem = useContext(ProblemContext) === id;
  const label = useHandleLabel();
  const node = { id, type, position: { x: 0, y: 0 }, data } as FlowNode;
  const summary = shorten(nodeSummary(node));
  const handles = handlesOfNode(node);
  return (
    <div className={`flow-node flow-node-${type}${selected ? ' selected' : ''}${problem ? ' problem' : ''}`} data-testid={`node-${id}`}>
      {type !== 'start' && <Handle type="target" position={Position.Left} className="flow-handle-in" />}
      <div className="flow-node-type">
        {t(`types.${type}`)}
        {problem && <span className="flow-node-problem"> · {t('editor.problem')}</span>}
      </div>
      {summary && <div className="flow-node-summary">{summary}</div>}
      {handles.length > 0 && (
        <ul className="flow-node-handles">
          {handles.map((h) => (
            <li key={h.handle}>
              {label(node, h.handle)}
              <Handle type="source" position={Position.Right} id={h.handle} className="flow-handle-out" />
            </li>
          ))}
        </ul>
      )}
    </div>
  );
});

/** Every type drawn by the same card; defined once, outside any render, as xyflow asks. */
const NODE_TYPES = Object.fromEntries(
  ['start', 'message', 'question', 'condition', 'interval', 'setVariable', 'tags', 'transfer', 'close', 'http', 'integration', 'aiAgent', 'goToFlow'].map(
    (k) => [k, FlowNodeCard],
  ),
);

const FIT_VIEW = { maxZoom: 1 };

export function toCanvasEdges(edges: readonly FlowEdge[]): CanvasEdge[] {
  return edges.map((e) => ({ id: e.id, source: e.source, sourceHandle: e.sourceHandle, target: e.target }));
}

/**
 * The canvas: nodes dragged, joined by dragging from a handle to another node, removed with
 * Delete; only what is in view is drawn (`onlyRenderVisibleElements`). The side panel's forms are
 * the keyboard's and screen reader's way to do the same.
 */
export function FlowCanvas(props: {
  nodes: CanvasNode[];
  edges: CanvasEdge[];
  problem: string | null;
  onNodesChange: (changes: NodeChange<CanvasNode>[]) => void;
  onEdgesChange: (changes: EdgeChange<CanvasEdge>[]) => void;
  onConnect: (connection: Connection) => void;
}) {
  const { t } = useScreenStrings('flows', strings);
  const ariaLabelConfig = useMemo(
    () => ({
      'node.a11yDescription.default': t('canvas.nodeHelp'),
      'node.a11yDescription.keyboardDisabled': t('canvas.nodeHelp'),
      'edge.a11yDescription.default': t('canvas.edgeHelp'),
      'controls.ariaLabel': t('canvas.controls'),
      'controls.zoomIn.ariaLabel': t('canvas.zoomIn'),
      'controls.zoomOut.ariaLabel': t('canvas.zoomOut'),
      'controls.fitView.ariaLabel': t('canvas.fitView'),
      'controls.interactive.ariaLabel': t('canvas.interactive'),
      'handle.ariaLabel': t('canvas.handle'),
    }),
    [t],
  );
  return (
    <ProblemContext.Provider value={props.problem}>
      <ReactFlow<CanvasNode, CanvasEdge>
        nodes={props.nodes}
        edges={props.edges}
        nodeTypes={NODE_TYPES}
        onNodesChange={props.onNodesChange}
        onEdgesChange={props.onEdgesChange}
        onConnect={props.onConnect}
        onlyRenderVisibleElements
        fitView
        fitViewOptions={FIT_VIEW}
        minZoom={0.2}
        deleteKeyCode={['Delete', 'Backspace']}
        ariaLabelConfig={ariaLabelConfig}
      >
        <Background />
        <Controls showInteractive={false} />
      </ReactFlow>
    </ProblemContext.Provider>
  );
}
