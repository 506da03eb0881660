import type { Connections } from '../connections/ports.js';
import type { RealtimeEvents } from '../realtime/ports.js';
import { assertAdmin, type Actor } from '../shared/actor.js';
import { ConflictError, NotFoundError } from '../shared/errors.js';
import { hasMore, pageFromNumber } from '../shared/paging.js';
import type { Clock, Transaction } from '../shared/ports.js';
import { cleanFlowName, cleanTriggers, toFlowDetails, toFlowSummary, type Flow, type FlowDetails, type FlowSummary, type FlowTrigger } from './flow.js';
import type { FlowEvent } from './flow-events.js';
import type { FlowGraph } from './flow-graph.js';
import type { Flows } from './ports.js';

/** A new flow's draft: only its start node, where the editor begins. */
export const NEW_FLOW_DRAFT: FlowGraph = Object.freeze({ nodes: [{ id: 'start', type: 'start', position: { x: 0, y: 0 }, data: {} }], edges: [] }) as FlowGraph;

export interface FlowDeps {
  readonly flows: Flows;
  readonly connections: Pick<Connections, 'findById'>;
  readonly realtime: RealtimeEvents<FlowEvent>;
  readonly tx: Transaction;
  readonly clock: Clock;
}

/** The company's flow, or 404 `ERR_NO_FLOW_FOUND` (also for another company's). */
export async function findFlow(flows: Flows, companyId: number, id: number): Promise<Flow> {
  const found = await flows.findById(companyId, id);
  if (!found) throw new NotFoundError('ERR_NO_FLOW_FOUND');
  return found;
}

export async function flowDetails(flows: Flows, flow: Flow): Promise<FlowDetails> {
  return toFlowDetails(flow, await flows.versionNumbers(flow.companyId, flow.id));
}

/** Triggers cleaned, every connection they name one of the company's (404 `ERR_NO_CONNECTION_FOUND`). */
async function triggersOf(connections: FlowDeps['connections'], companyId: number, raw: readonly FlowTrigger[]): Promise<FlowTrigger[]> {
  const triggers = cleanTriggers(raw);
  for (const id of new Set(triggers.flatMap((t) => t.chatappIds))) {
    if (!(await connections.findById(companyId, id))) throw new NotFoundError('ERR_NO_CONNECTION_FOUND');
  }
  return triggers;
}

/** `GET /flows`: a page (20) of the company's flows by name, `searchParam` in the name, without their graphs. */
export class ListFlows {
  constructor(private readonly deps: Pick<FlowDeps, 'flows'>) {}

  async execute(input: { readonly actor: Actor; readonly searchParam?: string; readonly pageNumber?: number }) {
    assertAdmin(input.actor);
    const page = pageFromNumber(input.pageNumber);
    const found = await this.deps.flows.list({ companyId: input.actor.companyId, page, ...(input.searchParam?.trim() ? { search: input.searchParam } : {}) });
    return { flows: found.rows.map(toFlowSummary), count: found.count, hasMore: hasMore(page, found.count) };
  }
}

/** One flow with its draft graph and the numbers of its published versions. */
export class ShowFlow {
  constructor(private readonly deps: Pick<FlowDeps, 'flows'>) {}

  async execute(input: { readonly actor: Actor; readonly flowId: number }): Promise<FlowDetails> {
    assertAdmin(input.actor);
    return flowDetails(this.deps.flows, await findFlow(this.deps.flows, input.actor.companyId, input.flowId));
  }
}

export interface FlowFields {
  readonly name?: string;
  readonly active?: boolean;
  readonly triggers?: readonly FlowTrigger[];
}

/**
 * Admins create a flow: a name unique in the company (409 `ERR_FLOW_NAME_IN_USE`), its triggers,
 * and a draft holding only a start node. It cannot be active before it is published (409
 * `ERR_FLOW_NOT_PUBLISHED`). `flow` event, action `create`.
 */
export class CreateFlow {
  constructor(private readonly deps: FlowDeps) {}

  async execute(input: FlowFields & { readonly actor: Actor; readonly name: string }): Promise<FlowDetails> {
    const { flows, connections, realtime, clock } = this.deps;
    assertAdmin(input.actor);
    const { companyId } = input.actor;
    const name = cleanFlowName(input.name);
    if (input.active) throw new ConflictError('ERR_FLOW_NOT_PUBLISHED');
    const triggers = await triggersOf(connections, companyId, input.triggers ?? []);
    const now = clock.now();
    const flow = await flows.add({
      companyId,
      name,
      active: false,
      triggers,
      draft: structuredClone(NEW_FLOW_DRAFT),
      draftVersion: 1,
      publishedVersion: null,
      createdAt: now,
      updatedAt: now,
    });
    await realtime.publish(companyId, { entity: 'flow', data: { action: 'create', flow: toFlowSummary(flow) } });
    return toFlowDetails(flow, []);
  }
}

/** Admins rename a flow, switch it on or off (on needs a published version) or change its triggers. `flow` event, action `update`. */
export class UpdateFlow {
  constructor(private readonly deps: FlowDeps) {}

  async execute(input: FlowFields & { readonly actor: Actor; readonly flowId: number }): Promise<FlowDetails> {
    const { flows, connections, realtime, tx, clock } = this.deps;
    assertAdmin(input.actor);
    const { companyId } = input.actor;
    const name = input.name === undefined ? undefined : cleanFlowName(input.name);
    const triggers = input.triggers === undefined ? undefined : await triggersOf(connections, companyId, input.triggers);
    const saved = await tx.run(async () => {
      const flow = await flows.lock(companyId, input.flowId);
      if (!flow) throw new NotFoundError('ERR_NO_FLOW_FOUND');
      const next: Flow = { ...flow, name: name ?? flow.name, triggers: triggers ?? flow.triggers, active: input.active ?? flow.active, updatedAt: clock.now() };
      if (next.active && next.publishedVersion === null) throw new ConflictError('ERR_FLOW_NOT_PUBLISHED');
      await flows.update(next);
      return next;
    });
    await realtime.publish(companyId, { entity: 'flow', data: { action: 'update', flow: toFlowSummary(saved) } });
    return flowDetails(flows, saved);
  }
}

/**
 * Admins remove a flow with its versions, unless another flow goes to it (a `goToFlow` node of
 * their draft or latest version: 409 `ERR_FLOW_IN_USE`, their runs would end there). `flow` event,
 * action `delete`.
 */
export class DeleteFlow {
  constructor(private readonly deps: FlowDeps) {}

  async execute(input: { readonly actor: Actor; readonly flowId: number }): Promise<void> {
    const { flows, realtime, tx } = this.deps;
    assertAdmin(input.actor);
    const { companyId } = input.actor;
    await tx.run(async () => {
      if (!(await flows.lock(companyId, input.flowId))) throw new NotFoundError('ERR_NO_FLOW_FOUND');
      if ((await flows.referencing(companyId, input.flowId)).length > 0) throw new ConflictError('ERR_FLOW_IN_USE');
      if (!(await flows.remove(companyId, input.flowId))) throw new NotFoundError('ERR_NO_FLOW_FOUND');
    });
    await realtime.publish(companyId, { entity: 'flow', data: { action: 'delete', flowId: input.flowId } });
  }
}

/** Publishes the `update` frame of a flow whose draft moved on. */
export async function announceDraft(deps: Pick<FlowDeps, 'realtime'>, flow: Flow): Promise<FlowSummary> {
  const summary = toFlowSummary(flow);
  await deps.realtime.publish(flow.companyId, { entity: 'flow', data: { action: 'update', flow: summary } });
  return summary;
}
