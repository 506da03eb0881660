import type { Page, PageRequest } from '../shared/paging.js';
import type { Flow, FlowVersion, NewFlow } from './flow.js';
import type { FlowGraph } from './flow-graph.js';

export interface FlowQuery {
  readonly companyId: number;
  readonly page: PageRequest;
  /** In the name, case- and accent-folded. */
  readonly search?: string;
}

/**
 * A company's flows and their published versions. Every method is scoped by `companyId`: another
 * company's flow is absent. Two flows of a company never share a name: `add` and `update` throw
 * ConflictError `ERR_FLOW_NAME_IN_USE`.
 */
export interface Flows {
  findById(companyId: number, id: number): Promise<Flow | null>;
  /**
   * The flow, its row locked until the transaction ends: changes to one flow's draft take turns,
   * each on the other's result.
   */
  lock(companyId: number, id: number): Promise<Flow | null>;
  /** The company's active flows with a published version (those whose triggers start runs), by id. */
  triggered(companyId: number): Promise<Flow[]>;
  /** By name (folded), then id. */
  list(query: FlowQuery): Promise<Page<Flow>>;
  add(flow: NewFlow): Promise<Flow>;
  /** Saves name, active, triggers, published version and `updatedAt` (the draft only through `saveDraft`). */
  update(flow: Flow): Promise<void>;
  /**
   * Replaces the draft and moves `draftVersion` to `expectedVersion + 1`, only if it still is
   * `expectedVersion` (one statement: of two editors saving the same version, one wins). False otherwise
   * or when the flow is absent.
   */
  saveDraft(companyId: number, id: number, expectedVersion: number, draft: FlowGraph, at: Date): Promise<boolean>;
  /** Removes the flow with its versions; false when it was not there. */
  remove(companyId: number, id: number): Promise<boolean>;
  /** Ids of the company's other flows whose draft or latest published version has a `goToFlow` node to this one, ascending. */
  referencing(companyId: number, flowId: number): Promise<number[]>;
  /** Which of these ids are flows of the company. */
  existing(companyId: number, ids: readonly number[]): Promise<number[]>;
  addVersion(version: FlowVersion): Promise<void>;
  findVersion(companyId: number, flowId: number, version: number): Promise<FlowVersion | null>;
  /** The numbers of the flow's published versions, ascending. */
  versionNumbers(companyId: number, flowId: number): Promise<number[]>;
}
