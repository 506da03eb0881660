import type { Flow, FlowVersion, NewFlow } from '../flows/flow.js';
import type { FlowGraph } from '../flows/flow-graph.js';
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

  async findById(companyId: number, id: number) { const f = this.table.get(id); return f?.companyId === companyId ? f : null; }
  async lock(companyId: number, id: number) { return this.findById(companyId, id); }
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
    return this.table.filter((f) => f.companyId === companyId && f.id !== flowId)
      .filter((f) => goesTo(f.draft, flowId) || goesTo(published(f) ?? { nodes: [], edges: [] }, flowId))
      .map((f) => f.id).sort((a, b) => a - b);
  }
  async existing(companyId: number, ids: readonly number[]) {
    const wanted = new Set(ids);
    return this.table.filter((f) => f.companyId === companyId && wanted.has(f.id)).map((f) => f.id).sort((a, b) => a - b);
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
    return this.versions.filter((v) => v.companyId === companyId && v.flowId === flowId).map((v) => v.version).sort((a, b) => a - b);
  }
}
