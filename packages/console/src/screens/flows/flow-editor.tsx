import type { FlowGraph, FlowNode, FlowNodeType } from '@servicedesk/core/flows/flow-graph';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { applyEdgeChanges, applyNodeChanges, type Connection, type EdgeChange, type NodeChange, ReactFlowProvider, useReactFlow } from '@xyflow/react';
import { memo, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { ApiError, must, type Schema } from '../../api/client.js';
import { useScreenStrings } from '../../i18n/screen-strings.js';
import { keys } from '../../realtime/apply-frame.js';
import { useServices, useSession } from '../../services.js';
import { errorText } from '../../ui/errors.js';
import { FormError } from '../../ui/form.js';
import { type CanvasEdge, type CanvasNode, FlowCanvas, toCanvasEdges, useHandleLabel } from './canvas.js';
import { ExecuteDialog } from './execute.js';
import {
  connect,
  draftChanges,
  handlesOfNode,
  hasChanges,
  newNode,
  nodeSummary,
  PALETTE_TYPES,
  placeNew,
  pruneEdges,
  savedEdge,
  savedNode,
  shorten,
} from './graph.js';
import { NodeForm } from './node-forms.js';
import { SimulatePanel } from './simulate.js';
import { strings } from './strings.js';
import { TriggersDialog } from './triggers.js';
import './flows.css';

type Flow = Schema<'Flow'>;

/** What the server said is wrong, and where: a node of the draft (or none, for the whole flow). */
interface Problem {
  nodeId: string | null;
  reason: string;
  code: string;
}

/** A refusal with the node it names (`{ error, nodeId, reason }`), which the shared client does not keep. */
class LocatedRefusal extends ApiError {
  constructor(
    status: number,
    code: string,
    readonly nodeId: string | null,
    readonly reason: string | null,
  ) {
    super(status, code);
  }
}

/** The answer of a flow route, or its refusal with the node and reason it names. */
async function located<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  const { data, error, response } = await call;
  if (response.ok) return data as T;
  const body = (error ?? {}) as { error?: string; nodeId?: unknown; reason?: unknown };
  throw new LocatedRefusal(
    response.status,
    body.error ?? `HTTP_${response.status}`,
    typeof body.nodeId === 'string' ? body.nodeId : null,
    typeof body.reason === 'string' ? body.reason : null,
  );
}

type SaveStatus = { kind: 'saved' } | { kind: 'pending' } | { kind: 'saving' } | { kind: 'failed'; reason: string } | { kind: 'conflict' };

const toCanvasNodes = (nodes: readonly FlowNode[]): CanvasNode[] =>
  nodes.map((n) => ({ id: n.id, type: n.type, position: n.position, data: n.data as Record<string, unknown>, deletable: n.type !== 'start' }));
const asFlowNode = (n: CanvasNode): FlowNode => savedNode(n);
const graphOf = (nodes: readonly CanvasNode[], edges: readonly CanvasEdge[]): FlowGraph => ({ nodes: nodes.map(asFlowNode), edges: edges.map(savedEdge) });

/** `/flows/$flowId`: the flow builder. */
export function FlowEditor({ flowId }: { flowId: number | null }) {
  const { t } = useScreenStrings('flows', strings);
  const { api } = useServices();
  const session = useSession();
  const isAdmin = session?.user.profile === 'admin' || session?.user.super === true;
  // Under `flows`: a `flow` frame refetches it; the editor adopts another admin's draft when it has nothing unsaved.
  const flow = useQuery({
    queryKey: keys.flow(flowId ?? 0),
    queryFn: () => must(api.GET('/flows/{flowId}', { params: { path: { flowId: flowId! } } })),
    enabled: flowId !== null && isAdmin,
    retry: false,
  });
  const [loaded, setLoaded] = useState<{ flow: Flow; round: number } | null>(null);
  useEffect(() => {
    if (flow.data && (!loaded || loaded.flow.id !== flow.data.id)) setLoaded({ flow: flow.data, round: 0 });
  }, [flow.data, loaded]);

  if (!isAdmin || flowId === null || flow.error) {
    return (
      <section className="admin-screen" aria-labelledby="flow-title">
        <h1 id="flow-title">{t('list.title')}</h1>
        <p className="placeholder">{!isAdmin ? t('list.adminsOnly') : errorText(t, flow.error ?? new ApiError(404, 'ERR_NO_FLOW_FOUND'))}</p>
        <Link to="/flows">{t('editor.back')}</Link>
      </section>
    );
  }
  if (!loaded || loaded.flow.id !== flowId) {
    return (
      <p className="loading" role="status">
        {t('editor.loading')}
      </p>
    );
  }
  return (
    <ReactFlowProvider>
      <Editor
        key={`${loaded.flow.id}-${loaded.round}`}
        initial={loaded.flow}
        latest={flow.data ?? loaded.flow}
        reload={(fresh) => setLoaded({ flow: fresh, round: loaded.round + 1 })}
      />
    </ReactFlowProvider>
  );
}

const SAVE_DELAY_MS = 700;

function Editor({ initial, latest, reload }: { initial: Flow; latest: Flow; reload: (fresh: Flow) => void }) {
  const { t } = useScreenStrings('flows', strings);
  const { api } = useServices();
  const client = useQueryClient();
  const flowId = initial.id;
  const reactFlow = useReactFlow();
  const handleLabel = useHandleLabel();

  const [nodes, setNodes] = useState<CanvasNode[]>(() => toCanvasNodes(initial.draft.nodes as FlowNode[]));
  const [edges, setEdges] = useState<CanvasEdge[]>(() => toCanvasEdges(initial.draft.edges));
  const [status, setStatus] = useState<SaveStatus>({ kind: 'saved' });
  const [problem, setProblem] = useState<Problem | null>(null);
  const [notice, setNotice] = useState('');
  const [simulating, setSimulating] = useState(false);
  const [executing, setExecuting] = useState(false);
  const [editingTriggers, setEditingTriggers] = useState(false);

  // The save's bookkeeping, read by timers and callbacks: the draft's version, what it holds, the changes made and saved.
  const nodesRef = useRef(nodes);
  const edgesRef = useRef(edges);
  nodesRef.current = nodes;
  edgesRef.current = edges;
  const version = useRef(initial.version);
  const savedGraph = useRef<FlowGraph>(initial.draft as FlowGraph);
  const changeSeq = useRef(0);
  const savedSeq = useRef(0);
  const inFlight = useRef<Promise<boolean> | null>(null);
  const conflict = useRef(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  const saveNow = useCallback(async (): Promise<boolean> => {
    clearTimeout(timer.current);
    while (inFlight.current) await inFlight.current;
    if (conflict.current) return false;
    if (changeSeq.current === savedSeq.current) return true;
    const sentSeq = changeSeq.current;
    const graph = graphOf(nodesRef.current, edgesRef.current);
    // An integration or a go-to without its target is refused by the server whole: said here, on the node, without a request.
    const untargeted = graph.nodes.find((n) => (n.type === 'integration' && !n.data.integrationId) || (n.type === 'goToFlow' && !n.data.flowId));
    if (untargeted) {
      const reason = t(untargeted.type === 'integration' ? 'editor.needsIntegration' : 'editor.needsFlow');
      setStatus({ kind: 'failed', reason });
      setProblem({ nodeId: untargeted.id, reason, code: 'ERR_FLOW_INVALID_NODE' });
      return false;
    }
    setStatus({ kind: 'saving' });
    const attempt = (async () => {
      try {
        const saved = await located(
          api.PUT('/flows/{flowId}/graph', {
            params: { path: { flowId } },
            body: { version: version.current, nodes: graph.nodes as Schema<'FlowNode'>[], edges: graph.edges },
          }),
        );
        version.current = saved.version;
        savedGraph.current = graph;
        savedSeq.current = sentSeq;
        client.setQueryData(keys.flow(flowId), saved);
        setProblem((p) => (p?.code === 'ERR_FLOW_INVALID_NODE' || p?.code === 'ERR_FLOW_INVALID_EDGE' || p?.code === 'ERR_FLOW_TOO_LARGE' ? null : p));
        if (changeSeq.current === sentSeq) setStatus({ kind: 'saved' });
        else {
          setStatus({ kind: 'pending' });
          timer.current = setTimeout(() => void saveNow(), SAVE_DELAY_MS);
        }
        return true;
      } catch (err) {
        if (err instanceof ApiError && err.code === 'ERR_FLOW_VERSION_CONFLICT') {
          conflict.current = true;
          setStatus({ kind: 'conflict' });
          return false;
        }
        const reason = err instanceof LocatedRefusal && err.reason ? err.reason : errorText(t, err);
        setStatus({ kind: 'failed', reason });
        if (err instanceof LocatedRefusal && err.nodeId) setProblem({ nodeId: err.nodeId, reason, code: err.code });
        // A server out of reach: tried again a little later; a refusal waits for the next change.
        if (!(err instanceof ApiError)) timer.current = setTimeout(() => void saveNow(), 5000);
        return false;
      }
    })();
    inFlight.current = attempt;
    try {
      return await attempt;
    } finally {
      inFlight.current = null;
    }
  }, [api, client, flowId, t]);

  /** A change to keep: saved once the editing pauses. */
  const changed = useCallback(() => {
    changeSeq.current++;
    if (conflict.current) return;
    setStatus((s) => (s.kind === 'saving' ? s : { kind: 'pending' }));
    clearTimeout(timer.current);
    timer.current = setTimeout(() => void saveNow(), SAVE_DELAY_MS);
  }, [saveNow]);

  // Leaving the editor saves what is left; closing the tab with unsaved changes asks first.
  useEffect(() => {
    const warn = (e: BeforeUnloadEvent) => {
      if (changeSeq.current !== savedSeq.current) e.preventDefault();
    };
    window.addEventListener('beforeunload', warn);
    return () => {
      window.removeEventListener('beforeunload', warn);
      clearTimeout(timer.current);
      if (changeSeq.current !== savedSeq.current && !conflict.current) void saveNow();
    };
  }, [saveNow]);

  // Another admin's (or tab's) save, read again through its `flow` frame: adopted when nothing here is unsaved, else a conflict to settle.
  useEffect(() => {
    if (latest.version <= version.current || inFlight.current) return;
    if (changeSeq.current === savedSeq.current && !conflict.current) {
      setNotice(t('editor.updatedElsewhere'));
      reload(latest);
    } else if (!conflict.current) {
      conflict.current = true;
      clearTimeout(timer.current);
      setStatus({ kind: 'conflict' });
    }
  }, [latest, reload, t]);

  // The nodes without their positions' moves: a drag re-renders the canvas, not the list, the names and the panels.
  const contentRef = useRef<FlowNode[]>([]);
  const flowNodes = useMemo(() => {
    const before = contentRef.current;
    const same = before.length === nodes.length && nodes.every((n, i) => before[i]!.id === n.id && before[i]!.type === n.type && before[i]!.data === n.data);
    if (!same) contentRef.current = nodes.map(asFlowNode);
    return contentRef.current;
  }, [nodes]);
  const httpNodes = useMemo(() => flowNodes.filter((n) => n.type === 'http'), [flowNodes]);
  const selected = nodes.find((n) => n.selected);
  const selectedNode = selected ? asFlowNode(selected) : undefined;
  const nodeName = useCallback(
    (id: string) => {
      const i = flowNodes.findIndex((n) => n.id === id);
      const node = flowNodes[i];
      if (!node) return id;
      const summary = shorten(nodeSummary(node), 30);
      return summary ? `${t(`types.${node.type}`)}: ${summary}` : `${t(`types.${node.type}`)} ${i + 1}`;
    },
    [flowNodes, t],
  );

  const select = useCallback(
    (id: string | null, focusForm = false) => {
      setNodes((ns) => ns.map((n) => (n.selected === (n.id === id) ? n : { ...n, selected: n.id === id })));
      setEdges((es) => es.map((e) => (e.selected ? { ...e, selected: false } : e)));
      const node = id ? nodesRef.current.find((n) => n.id === id) : undefined;
      if (node) void reactFlow.setCenter(node.position.x + 100, node.position.y + 40, { zoom: Math.max(reactFlow.getZoom(), 0.8), duration: 200 });
      if (focusForm) setTimeout(() => document.getElementById('flow-node-form-title')?.focus(), 0);
    },
    [reactFlow],
  );

  const onNodesChange = useCallback(
    (changes: NodeChange<CanvasNode>[]) => {
      setNodes((ns) => applyNodeChanges(changes, ns));
      const kept = changes.some((c) => c.type === 'remove' || c.type === 'add' || (c.type === 'position' && c.dragging === false));
      if (changes.some((c) => c.type === 'remove'))
        setEdges((es) =>
          toCanvasEdges(
            pruneEdges(nodesRef.current.filter((n) => !changes.some((c) => c.type === 'remove' && c.id === n.id)).map(asFlowNode), es.map(savedEdge)),
          ),
        );
      if (kept) changed();
    },
    [changed],
  );
  const onEdgesChange = useCallback(
    (changes: EdgeChange<CanvasEdge>[]) => {
      setEdges((es) => applyEdgeChanges(changes, es));
      if (changes.some((c) => c.type === 'remove')) changed();
    },
    [changed],
  );
  const onConnect = useCallback(
    (c: Connection) => {
      if (!c.sourceHandle) return;
      setEdges((es) => toCanvasEdges(connect(es.map(savedEdge), c.source, c.sourceHandle!, c.target, new Set(es.map((e) => e.id)))));
      changed();
    },
    [changed],
  );

  const add = (type: FlowNodeType) => {
    const node = newNode(type, placeNew(nodes.map(asFlowNode), selectedNode), new Set(nodes.map((n) => n.id)));
    setNodes((ns) => [...ns.map((n) => (n.selected ? { ...n, selected: false } : n)), { ...toCanvasNodes([node])[0]!, selected: true }]);
    changed();
    setNotice(t('editor.added', { type: t(`types.${type}`) }));
    setTimeout(() => {
      void reactFlow.setCenter(node.position.x + 100, node.position.y + 40, { zoom: Math.max(reactFlow.getZoom(), 0.8), duration: 200 });
      document.getElementById('flow-node-form-title')?.focus();
    }, 0);
  };
  const updateData = (id: string, data: FlowNode['data']) => {
    const next = nodesRef.current.map((n) => (n.id === id ? { ...n, data: data as Record<string, unknown> } : n));
    nodesRef.current = next;
    setNodes(next);
    setEdges((es) => {
      const kept = pruneEdges(next.map(asFlowNode), es.map(savedEdge));
      return kept.length === es.length ? es : toCanvasEdges(kept);
    });
    changed();
  };
  const remove = (id: string) => {
    setNodes((ns) => ns.filter((n) => n.id !== id));
    setEdges((es) => es.filter((e) => e.source !== id && e.target !== id));
    changed();
    setNotice(t('editor.removed', { name: nodeName(id) }));
    setTimeout(() => document.getElementById('flow-nodes-title')?.focus(), 0);
  };
  const setWay = (source: string, handle: string, target: string | null) => {
    setEdges((es) => toCanvasEdges(connect(es.map(savedEdge), source, handle, target, new Set(es.map((e) => e.id)))));
    changed();
  };

  const publish = useMutation({
    mutationFn: async () => {
      if (!(await saveNow())) throw new ApiError(0, 'UNSAVED');
      return located(api.POST('/flows/{flowId}/publish', { params: { path: { flowId } } }));
    },
    onSuccess: (published) => {
      setProblem(null);
      setNotice(t('editor.published', { version: published.version }));
      void client.invalidateQueries({ queryKey: keys.flows });
    },
    onError: (err) => {
      if (err instanceof LocatedRefusal && err.reason) {
        setProblem({ nodeId: err.nodeId, reason: err.reason, code: err.code });
        if (err.nodeId && nodesRef.current.some((n) => n.id === err.nodeId)) select(err.nodeId);
      }
    },
  });

  const reloadFromServer = useMutation({
    mutationFn: () => must(api.GET('/flows/{flowId}', { params: { path: { flowId } } })),
    onSuccess: (fresh) => {
      client.setQueryData(keys.flow(flowId), fresh);
      reload(fresh);
    },
  });
  const keepMine = useMutation({
    mutationFn: async () => {
      const fresh = await must(api.GET('/flows/{flowId}', { params: { path: { flowId } } }));
      version.current = fresh.version;
      conflict.current = false;
      if (changeSeq.current === savedSeq.current) changeSeq.current++;
      if (!(await saveNow())) throw new ApiError(0, 'UNSAVED');
    },
    onSuccess: () => setNotice(t('editor.keptMine')),
  });

  const lost = status.kind === 'conflict' ? draftChanges(savedGraph.current, graphOf(nodes, edges)) : null;
  const published = latest.publishedVersion;
  const problemNode = problem?.nodeId ? flowNodes.find((n) => n.id === problem.nodeId) : undefined;

  return (
    <section className="flow-editor" aria-labelledby="flow-title">
      <header className="flow-editor-head">
        <div>
          <Link to="/flows" className="small-text">
            {t('editor.back')}
          </Link>
          <h1 id="flow-title">{latest.name}</h1>
          <p className="muted small-text">
            {published === null ? t('list.unpublished') : t('list.published', { version: published })}
            {latest.versions.length > 0 && ` · ${t('editor.versions', { list: latest.versions.map((v) => `v${v}`).join(', ') })}`}
            {` · ${latest.active ? t('triggers.state.on') : t('triggers.state.off')} · ${t('triggers.summary', { count: latest.triggers.length })}`}
          </p>
        </div>
        <p className={`flow-save-state ${status.kind}`} role="status" data-testid="save-state">
          {status.kind === 'saved' && t('editor.saved')}
          {status.kind === 'pending' && t('editor.pending')}
          {status.kind === 'saving' && t('editor.saving')}
          {status.kind === 'failed' && t('editor.notSaved', { reason: status.reason })}
          {status.kind === 'conflict' && t('editor.notSavedConflict')}
        </p>
        <div className="flow-editor-actions">
          <button type="button" className="primary" onClick={() => publish.mutate()} disabled={publish.isPending || status.kind === 'conflict'}>
            {publish.isPending ? t('editor.publishing') : t('editor.publish')}
          </button>
          <button type="button" aria-pressed={simulating} onClick={() => setSimulating((s) => !s)}>
            {t('editor.simulate')}
          </button>
          <button type="button" onClick={() => setEditingTriggers(true)}>
            {t('triggers.open')}
          </button>
          <button
            type="button"
            onClick={() => setExecuting(true)}
            disabled={published === null}
            title={published === null ? t('editor.runNeedsPublish') : undefined}
          >
            {t('editor.run')}
          </button>
        </div>
      </header>
      <p className="visually-hidden" role="status">
        {notice}
      </p>
      {lost && (
        <div className="flow-conflict" role="alert">
          <p>
            <strong>{t('editor.conflictTitle')}</strong> {t('editor.conflictBody')}
          </p>
          {hasChanges(lost) ? (
            <>
              <p>{t('editor.conflictLoses')}</p>
              <ul>
                {lost.added.length > 0 && (
                  <li>{t('editor.lostAdded', { count: lost.added.length, list: lost.added.map((n) => nodeName(n.id)).join('; ') })}</li>
                )}
                {lost.changed.length > 0 && (
                  <li>{t('editor.lostChanged', { count: lost.changed.length, list: lost.changed.map((n) => nodeName(n.id)).join('; ') })}</li>
                )}
                {lost.removed.length > 0 && (
                  <li>{t('editor.lostRemoved', { count: lost.removed.length, list: lost.removed.map((n) => t(`types.${n.type}`)).join('; ') })}</li>
                )}
                {lost.moved > 0 && <li>{t('editor.lostMoved', { count: lost.moved })}</li>}
                {lost.edgesAdded + lost.edgesRemoved > 0 && <li>{t('editor.lostEdges', { count: lost.edgesAdded + lost.edgesRemoved })}</li>}
              </ul>
            </>
          ) : (
            <p>{t('editor.conflictNothingLost')}</p>
          )}
          <div className="row-actions">
            <button type="button" className="primary" onClick={() => reloadFromServer.mutate()} disabled={reloadFromServer.isPending || keepMine.isPending}>
              {t('editor.reload')}
            </button>
            {lost && hasChanges(lost) && (
              <button type="button" onClick={() => keepMine.mutate()} disabled={reloadFromServer.isPending || keepMine.isPending}>
                {t('editor.keepMine')}
              </button>
            )}
          </div>
          <FormError
            text={
              reloadFromServer.error
                ? errorText(t, reloadFromServer.error)
                : keepMine.error && !(keepMine.error instanceof ApiError && keepMine.error.code === 'UNSAVED')
                  ? errorText(t, keepMine.error)
                  : null
            }
          />
        </div>
      )}
      {publish.error &&
        !(publish.error instanceof LocatedRefusal && publish.error.reason) &&
        !(publish.error instanceof ApiError && publish.error.code === 'UNSAVED') && <FormError text={errorText(t, publish.error)} />}
      {problem && (
        <section className="flow-problems" aria-labelledby="flow-problems-title">
          <h2 id="flow-problems-title">{problem.code === 'ERR_FLOW_INVALID_GRAPH' ? t('editor.publishRefused') : t('editor.problems')}</h2>
          <ul>
            <li>
              {problemNode ? (
                <button type="button" className="link" onClick={() => select(problemNode.id, true)}>
                  {nodeName(problemNode.id)}: {problem.reason}
                </button>
              ) : (
                <span>{problem.reason}</span>
              )}
            </li>
          </ul>
        </section>
      )}
      <div className={`flow-workspace${simulating ? ' simulating' : ''}`}>
        <aside className="flow-side flow-left" aria-label={t('editor.tools')}>
          <section aria-labelledby="flow-palette-title">
            <h2 id="flow-palette-title">{t('editor.palette')}</h2>
            <ul className="flow-palette">
              {PALETTE_TYPES.map((type) => (
                <li key={type}>
                  <button type="button" className="small" onClick={() => add(type)} title={t(`typeHelp.${type}`)}>
                    {t('editor.add', { type: t(`types.${type}`) })}
                  </button>
                </li>
              ))}
            </ul>
          </section>
          <section aria-labelledby="flow-nodes-title">
            <h2 id="flow-nodes-title" tabIndex={-1}>
              {t('editor.nodes', { count: nodes.length })}
            </h2>
            <NodeList nodes={flowNodes} selectedId={selected?.id ?? null} problemId={problem?.nodeId ?? null} nodeName={nodeName} select={select} />
          </section>
        </aside>
        <section className="flow-canvas" aria-label={t('editor.canvas')}>
          <FlowCanvas
            nodes={nodes}
            edges={edges}
            problem={problem?.nodeId ?? null}
            onNodesChange={onNodesChange}
            onEdgesChange={onEdgesChange}
            onConnect={onConnect}
          />
        </section>
        <aside className="flow-side flow-right" aria-labelledby="flow-node-form-title">
          {selectedNode ? (
            <form className="form flow-node-form" onSubmit={(e) => e.preventDefault()} noValidate>
              <h2 id="flow-node-form-title" tabIndex={-1}>
                {t('editor.formTitle', { name: nodeName(selectedNode.id) })}
              </h2>
              <p className="muted small-text">{t(`typeHelp.${selectedNode.type}`)}</p>
              {problem && problem.nodeId === selectedNode.id && (
                <p className="form-error" role="alert">
                  {problem.reason}
                </p>
              )}
              <NodeForm key={selectedNode.id} node={selectedNode} flowId={flowId} onChange={(data) => updateData(selectedNode.id, data)} />
              {handlesOfNode(selectedNode).length > 0 && (
                <fieldset className="flow-rows">
                  <legend>{t('editor.ways')}</legend>
                  {handlesOfNode(selectedNode).map((h) => {
                    const edge = edges.find((e) => e.source === selectedNode.id && e.sourceHandle === h.handle);
                    return (
                      <label key={h.handle} className="field">
                        <span>{t('editor.wayTo', { handle: handleLabel(selectedNode, h.handle) })}</span>
                        <select value={edge?.target ?? ''} onChange={(e) => setWay(selectedNode.id, h.handle, e.target.value || null)}>
                          <option value="">{h.required ? t('editor.nowhereRequired') : t('editor.nowhere')}</option>
                          {flowNodes
                            .filter((n) => n.id !== selectedNode.id && n.type !== 'start')
                            .map((n) => (
                              <option key={n.id} value={n.id}>
                                {nodeName(n.id)}
                              </option>
                            ))}
                        </select>
                      </label>
                    );
                  })}
                </fieldset>
              )}
              {selectedNode.type !== 'start' && (
                <button type="button" className="danger small" onClick={() => remove(selectedNode.id)}>
                  {t('editor.removeNode')}
                </button>
              )}
            </form>
          ) : (
            <>
              <h2 id="flow-node-form-title" tabIndex={-1} className="visually-hidden">
                {t('editor.noSelectionTitle')}
              </h2>
              <p className="muted">{t('editor.noSelection')}</p>
            </>
          )}
        </aside>
        {simulating && (
          <aside className="flow-side flow-sim" aria-label={t('sim.title')}>
            <SimulatePanel
              flowId={flowId}
              versions={latest.versions}
              httpNodes={httpNodes}
              hasAi={flowNodes.some((n) => n.type === 'aiAgent')}
              ensureSaved={saveNow}
              nodeName={nodeName}
              onSelectNode={(id) => select(id, true)}
              onClose={() => setSimulating(false)}
            />
          </aside>
        )}
      </div>
      {executing && <ExecuteDialog flowId={flowId} onClose={() => setExecuting(false)} />}
      {editingTriggers && (
        <TriggersDialog
          flow={latest}
          onClose={(done) => {
            setEditingTriggers(false);
            if (done) setNotice(done);
          }}
        />
      )}
    </section>
  );
}

/** The nodes as a list of buttons: the keyboard's and screen reader's way to pick one. Not re-rendered by a drag. */
const NodeList = memo(function NodeList(props: {
  nodes: readonly FlowNode[];
  selectedId: string | null;
  problemId: string | null;
  nodeName: (id: string) => string;
  select: (id: string, focusForm: boolean) => void;
}) {
  return (
    <ul className="flow-node-list">
      {props.nodes.map((n) => (
        <li key={n.id}>
          <button
            type="button"
            className={`small${n.id === props.problemId ? ' problem' : ''}`}
            aria-pressed={n.id === props.selectedId}
            onClick={() => props.select(n.id, true)}
          >
            {props.nodeName(n.id)}
          </button>
        </li>
      ))}
    </ul>
  );
});
