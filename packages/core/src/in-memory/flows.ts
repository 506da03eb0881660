import type { Flow, FlowVersion, NewFlow } from '../flows/flow.js';
import type { FlowGraph } from '../flows/flow-graph.js';
import type { FlowHttpRequest, FlowHttpResult } from '../flows/flow-run.js';
import type { FlowHttp, FlowRun, FlowRuns, FlowRunStep, NewFlowRun } from '../flows/flow-runs.js';
import { ACTIVE_RUN_STATUSES } from '../flows/flow-runs.js';
import type { FlowQuery, Flows } from '../flows/ports.js';
import { ConflictError } from '../shared/errors.js';
import { foldForSearch } from '../shared/text.js';
import { compareFolded, InMemoryTable, slice } from './table.js';

const byName = (a: Flow, b: Flow) => compareFolded(a.name, b.name) || a.id - b.id;
const goesTo = (graph: FlowGraph, flowId: number) => graph.nodes.some((n) => n.type === 'goToFlow' && n.data.flowId === flowId);

/** Flows and their versions in memory; a name appears once per company, as the unique constraint keeps it. */
export class InMemoryFlows implements Flows {
  readonly table = new InMemoryTable<Flow>();
  readonly versions: FlowVersion[] = [];

  private named(companyId: number, name: string, exceptId?: number) {
    return this.table.find((f) => f.companyId === companyId && f.name === name && f.id !== exceptId);
  }

  async findById(companyId: number, id: number) {
    const f = this.table.get(id);
    return f?.companyId === companyId ? f : null;
  }
  async lock(companyId: number, id: number) {
    return this.findById(companyId, id);
  }
  async triggered(companyId: number) {
    return this.table.filter((f) => f.companyId === companyId && f.active && f.publishedVersion !== null).sort((a, b) => a.id - b.id);
  }
  async list(q: FlowQuery) {
    const term = q.search?.trim() ? foldForSearch(q.search) : '';
    return slice(this.table.filter((f) => f.companyId === q.companyId && (!term || foldForSearch(f.name).includes(term))).sort(byName), q.page);
  }
  async add(flow: NewFlow) {
    if (this.named(flow.companyId, flow.name)) throw new ConflictError('ERR_FLOW_NAME_IN_USE');
    return this.table.insert(flow);
  }
  async update(flow: Flow) {
    const stored = await this.findById(flow.companyId, flow.id);
    if (!stored) return;
    if (this.named(flow.companyId, flow.name, flow.id)) throw new ConflictError('ERR_FLOW_NAME_IN_USE');
    const { name, active, triggers, publishedVersion, updatedAt } = flow;
    this.table.replace({ ...stored, name, active, triggers, publishedVersion, updatedAt });
  }
  async saveDraft(companyId: number, id: number, expectedVersion: number, draft: FlowGraph, at: Date) {
    const stored = await this.findById(companyId, id);
    if (!stored || stored.draftVersion !== expectedVersion) return false;
    this.table.replace({ ...stored, draft, draftVersion: expectedVersion + 1, updatedAt: at });
    return true;
  }
  async remove(companyId: number, id: number) {
    if (!(await this.findById(companyId, id))) return false;
    this.table.delete(id);
    this.versions.splice(0, this.versions.length, ...this.versions.filter((v) => v.flowId !== id));
    return true;
  }
  async referencing(companyId: number, flowId: number) {
    const published = (f: Flow) => this.versions.find((v) => v.flowId === f.id && v.version === f.publishedVersion)?.graph;
    return this.table
      .filter((f) => f.companyId === companyId && f.id !== flowId)
      .filter((f) => goesTo(f.draft, flowId) || goesTo(published(f) ?? { nodes: [], edges: [] }, flowId))
      .map((f) => f.id)
      .sort((a, b) => a - b);
  }
  async existing(companyId: number, ids: readonly number[]) {
    const wanted = new Set(ids);
    return this.table
      .filter((f) => f.companyId === companyId && wanted.has(f.id))
      .map((f) => f.id)
      .sort((a, b) => a - b);
  }
  async addVersion(version: FlowVersion) {
    if (this.versions.some((v) => v.flowId === version.flowId && v.version === version.version)) throw new Error('flow version already published');
    this.versions.push(structuredClone(version));
  }
  async findVersion(companyId: number, flowId: number, version: number) {
    const found = this.versions.find((v) => v.companyId === companyId && v.flowId === flowId && v.version === version);
    return found ? structuredClone(found) : null;
  }
  async versionNumbers(companyId: number, flowId: number) {
    return this.versions
      .filter((v) => v.companyId === companyId && v.flowId === flowId)
      .map((v) => v.version)
      .sort((a, b) => a - b);
  }
}

/** Runs in memory: one active run per ticket, as the partial unique index keeps it; `save` is compare-and-set on `seq`. */
export class InMemoryFlowRuns implements FlowRuns {
  readonly table = new InMemoryTable<FlowRun>();
  readonly stepRows: FlowRunStep[] = [];

  async add(run: NewFlowRun) {
    if (ACTIVE_RUN_STATUSES.includes(run.status) && (await this.activeOfTicket(run.companyId, run.ticketId))) throw new ConflictError('ERR_FLOW_RUN_ACTIVE');
    return structuredClone(this.table.insert(structuredClone(run)));
  }
  async findById(companyId: number, id: number) {
    const r = this.table.get(id);
    return r?.companyId === companyId ? structuredClone(r) : null;
  }
  async activeOfTicket(companyId: number, ticketId: number) {
    const r = this.table.find((x) => x.companyId === companyId && x.ticketId === ticketId && ACTIVE_RUN_STATUSES.includes(x.status));
    return r ? structuredClone(r) : null;
  }
  async save(run: FlowRun, expectedSeq: number) {
    const stored = this.table.get(run.id);
    if (!stored || stored.companyId !== run.companyId || stored.seq !== expectedSeq) return false;
    const { state, status, waitingUntil, lastMessageId, updatedAt, endedAt } = structuredClone(run);
    this.table.replace({ ...stored, state, status, waitingUntil, lastMessageId, updatedAt, endedAt, seq: expectedSeq + 1 });
    return true;
  }
  async addStep(step: FlowRunStep) {
    this.stepRows.push(structuredClone(step));
  }
  async steps(companyId: number, runId: number) {
    return this.stepRows
      .filter((s) => s.companyId === companyId && s.runId === runId)
      .sort((a, b) => a.seq - b.seq)
      .map((s) => structuredClone(s));
  }
}

/** HTTP nodes' calls answered from `answers` by URL (else a 200 with `{}`), each call recorded. */
export class InMemoryFlowHttp implements FlowHttp {
  readonly calls: FlowHttpRequest[] = [];
  readonly answers = new Map<string, FlowHttpResult>();

  async call(request: FlowHttpRequest): Promise<FlowHttpResult> {
    this.calls.push(structuredClone(request));
    return this.answers.get(request.url) ?? { status: 200, body: {} };
  }
}
