import { ValidationError } from '../shared/errors.js';
import type { FlowGraph } from './flow-graph.js';

/**
 * A company's flow: a graph a conversation is walked through (the lineage's flow builder). The
 * draft is what editors change, `draftVersion` moving on with each change (editors send the version
 * they read: a stale one is refused). Publishing copies the draft into an immutable numbered
 * version; runs always follow a published version, so an edit never breaks a live conversation.
 */
export interface Flow {
  id: number;
  companyId: number;
  name: string;
  /** Whether its triggers start runs (needs a published version). */
  active: boolean;
  triggers: FlowTrigger[];
  draft: FlowGraph;
  draftVersion: number;
  /** The latest published version; null before the first publish. */
  publishedVersion: number | null;
  createdAt: Date;
  updatedAt: Date;
}

export type NewFlow = Omit<Flow, 'id'>;

/** One published snapshot of a flow's graph, never changed after it is written. */
export interface FlowVersion {
  flowId: number;
  companyId: number;
  version: number;
  graph: FlowGraph;
  /** The user who published it (null once that user is deleted). */
  publishedBy: number | null;
  publishedAt: Date;
}

export const TRIGGER_TYPES = ['welcome', 'keyword', 'noMatch', 'manual'] as const;
export type FlowTriggerType = (typeof TRIGGER_TYPES)[number];
export const KEYWORD_MATCHES = ['exact', 'contains'] as const;
export type KeywordMatch = (typeof KEYWORD_MATCHES)[number];

/**
 * When a run starts: a contact's first conversation on a connection (`welcome`), an inbound text
 * matching a keyword (`keyword`), an inbound text no keyword matched (`noMatch`), or only when asked
 * (`manual`). `chatappIds` limits it to those connections (empty: all of the company's).
 */
export interface FlowTrigger {
  type: FlowTriggerType;
  chatappIds: number[];
  keywords: Array<{ text: string; match: KeywordMatch }>;
}

export const FLOW_NAME_MAX = 100;
export const TRIGGER_LIMITS = { triggers: 20, keywords: 20, keyword: 100, chatapps: 50 } as const;

export function cleanFlowName(raw: string): string {
  const name = raw.trim().replace(/\s+/g, ' ');
  if (!name || name.length > FLOW_NAME_MAX) throw new ValidationError('ERR_FLOW_INVALID_NAME');
  return name;
}

/** Triggers as stored: types and matches known, keywords trimmed (only `keyword` triggers keep them), connection ids once. */
export function cleanTriggers(raw: readonly FlowTrigger[]): FlowTrigger[] {
  const invalid = () => new ValidationError('ERR_FLOW_INVALID_TRIGGERS');
  if (raw.length > TRIGGER_LIMITS.triggers) throw invalid();
  return raw.map((t) => {
    if (!(TRIGGER_TYPES as readonly string[]).includes(t.type)) throw invalid();
    const chatappIds = [...new Set(t.chatappIds)];
    if (chatappIds.length > TRIGGER_LIMITS.chatapps || chatappIds.some((id) => !Number.isInteger(id) || id < 1 || id > 2_147_483_647)) throw invalid();
    if (t.type !== 'keyword') return { type: t.type, chatappIds, keywords: [] };
    const keywords = t.keywords.map((k) => ({ text: k.text.trim(), match: k.match }));
    const bad = keywords.some((k) => !k.text || k.text.length > TRIGGER_LIMITS.keyword || !(KEYWORD_MATCHES as readonly string[]).includes(k.match));
    if (keywords.length < 1 || keywords.length > TRIGGER_LIMITS.keywords || bad) throw invalid();
    return { type: t.type, chatappIds, keywords };
  });
}

/** A flow in lists: everything but its graph. */
export interface FlowSummary {
  id: number;
  companyId: number;
  name: string;
  active: boolean;
  triggers: FlowTrigger[];
  /** The draft's version: send it back with `PUT /flows/:flowId/graph`. */
  version: number;
  publishedVersion: number | null;
  nodeCount: number;
  createdAt: string;
  updatedAt: string;
}

/** One flow with its draft and the numbers of its published versions. */
export interface FlowDetails extends FlowSummary {
  draft: FlowGraph;
  versions: number[];
}

export function toFlowSummary(f: Flow): FlowSummary {
  return {
    id: f.id,
    companyId: f.companyId,
    name: f.name,
    active: f.active,
    triggers: structuredClone(f.triggers),
    version: f.draftVersion,
    publishedVersion: f.publishedVersion,
    nodeCount: f.draft.nodes.length,
    createdAt: f.createdAt.toISOString(),
    updatedAt: f.updatedAt.toISOString(),
  };
}

export function toFlowDetails(f: Flow, versions: readonly number[]): FlowDetails {
  return { ...toFlowSummary(f), draft: structuredClone(f.draft), versions: [...versions] };
}

/** A published version as answered by `POST /flows/:flowId/publish`. */
export interface FlowVersionView {
  flowId: number;
  version: number;
  graph: FlowGraph;
  publishedBy: number | null;
  publishedAt: string;
}

export function toFlowVersionView(v: FlowVersion): FlowVersionView {
  return { flowId: v.flowId, version: v.version, graph: structuredClone(v.graph), publishedBy: v.publishedBy, publishedAt: v.publishedAt.toISOString() };
}
