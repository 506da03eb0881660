import { UniqueConstraintViolationException, type MikroORM } from '@mikro-orm/core';
import { ConflictError, type Page } from '@servicedesk/core';
import type { Flow, FlowVersion, NewFlow } from '@servicedesk/core/flows/flow';
import type { FlowGraph } from '@servicedesk/core/flows/flow-graph';
import type { FlowQuery, Flows } from '@servicedesk/core/flows/ports';
import { MikroOrmRepository } from '../shared/context.js';
import { foldedOrder, searchWhere } from '../shared/search.js';
import type { FlowRun, FlowRuns, FlowRunStep, NewFlowRun } from '@servicedesk/core/flows/flow-runs';
import { FlowRunSchema, FlowRunStepSchema, FlowSchema, FlowVersionSchema } from './schema.js';

const READ = { disableIdentityMap: true } as const;
/** A positive int4: anything else names no row (and must not reach an int4 parameter). */
const isId = (id: number) => Number.isSafeInteger(id) && id > 0 && id <= 2_147_483_647;

/** The unique constraint on (company_id, name) decides two writers taking one name. */
async function nameUnique<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (err instanceof UniqueConstraintViolationException && err.message.includes('flows_company_name_unique')) throw new ConflictError('ERR_FLOW_NAME_IN_USE');
    throw err;
  }
}

/** Graphs and triggers are jsonb; versions are rows of their own, never updated. */
export class MikroOrmFlows extends MikroOrmRepository implements Flows {
  async findById(companyId: number, id: number) {
    if (!isId(id)) return null;
    return this.em.findOne(FlowSchema, { id, companyId }, READ);
  }
  async lock(companyId: number, id: number) {
    if (!isId(id)) return null;
    const rows = await this.em.execute('select id from flows where id = ? and company_id = ? for update', [id, companyId]);
    return rows.length ? this.findById(companyId, id) : null;
  }
  async triggered(companyId: number) {
    return this.em.find(FlowSchema, { companyId, active: true, publishedVersion: { $ne: null } }, { ...READ, orderBy: { id: 'asc' } });
  }
  async list(q: FlowQuery): Promise<Page<Flow>> {
    const [rows, count] = await this.em.findAndCount(
      FlowSchema,
      { companyId: q.companyId, ...searchWhere(['name'], q.search) },
      {
        ...READ,
        orderBy: [foldedOrder('name'), { id: 'asc' }],
        offset: q.page.offset,
        limit: q.page.limit,
      },
    );
    return { rows, count };
  }
  async add(flow: NewFlow): Promise<Flow> {
    const id = (await nameUnique(() => this.em.insert(FlowSchema, { ...flow } as Flow))) as number;
    return { ...structuredClone(flow), id };
  }
  async update(flow: Flow) {
    const { name, active, triggers, publishedVersion, updatedAt } = flow;
    await nameUnique(() =>
      this.em.nativeUpdate(FlowSchema, { id: flow.id, companyId: flow.companyId }, { name, active, triggers, publishedVersion, updatedAt }),
    );
  }
  async saveDraft(companyId: number, id: number, expectedVersion: number, draft: FlowGraph, at: Date) {
    if (!isId(id) || !Number.isSafeInteger(expectedVersion)) return false;
    const changed = await this.em.nativeUpdate(
      FlowSchema,
      { id, companyId, draftVersion: expectedVersion },
      { draft, draftVersion: expectedVersion + 1, updatedAt: at },
    );
    return changed > 0;
  }
  async remove(companyId: number, id: number) {
    if (!isId(id)) return false;
    return (await this.em.nativeDelete(FlowSchema, { id, companyId })) > 0;
  }
  /** Containment (`@>`) finds a `goToFlow` node to the flow in a draft or in the latest published graph. */
  async referencing(companyId: number, flowId: number) {
    if (!isId(flowId)) return [];
    const node = JSON.stringify([{ type: 'goToFlow', data: { flowId } }]);
    const rows = await this.em.execute<Array<{ id: number }>>(
      `select f.id from flows f
        where f.company_id = ? and f.id <> ?
          and (f.draft -> 'nodes' @> cast(? as jsonb)
            or exists (select 1 from flow_versions v where v.flow_id = f.id and v.version = f.published_version and v.graph -> 'nodes' @> cast(? as jsonb)))
        order by f.id`,
      [companyId, flowId, node, node],
    );
    return rows.map((r) => r.id);
  }
  async existing(companyId: number, ids: readonly number[]) {
    const wanted = [...new Set(ids.filter(isId))];
    if (!wanted.length) return [];
    const rows = await this.em.find(FlowSchema, { companyId, id: { $in: wanted } }, { ...READ, fields: ['id'], orderBy: { id: 'asc' } });
    return rows.map((r) => r.id);
  }
  async addVersion(version: FlowVersion) {
    await this.em.insert(FlowVersionSchema, { ...version });
  }
  async findVersion(companyId: number, flowId: number, version: number) {
    if (!isId(flowId) || !isId(version)) return null;
    return this.em.findOne(FlowVersionSchema, { companyId, flowId, version }, READ);
  }
  async versionNumbers(companyId: number, flowId: number) {
    if (!isId(flowId)) return [];
    const rows = await this.em.execute<Array<{ version: number }>>('select version from flow_versions where company_id = ? and flow_id = ? order by version', [
      companyId,
      flowId,
    ]);
    return rows.map((r) => r.version);
  }
}

/** Runs: the partial unique index keeps one active run per ticket; `save` is one conditional update on `seq`. */
export class MikroOrmFlowRuns extends MikroOrmRepository implements FlowRuns {
  async add(run: NewFlowRun): Promise<FlowRun> {
    try {
      const id = (await this.em.insert(FlowRunSchema, { ...run } as FlowRun)) as number;
      return { ...structuredClone(run), id };
    } catch (err) {
      if (err instanceof UniqueConstraintViolationException && err.message.includes('flow_runs_active_ticket_idx'))
        throw new ConflictError('ERR_FLOW_RUN_ACTIVE');
      throw err;
    }
  }
  async findById(companyId: number, id: number) {
    if (!isId(id)) return null;
    return this.em.findOne(FlowRunSchema, { id, companyId }, READ);
  }
  async activeOfTicket(companyId: number, ticketId: number) {
    if (!isId(ticketId)) return null;
    return this.em.findOne(FlowRunSchema, { companyId, ticketId, status: { $in: ['running', 'waiting'] } }, READ);
  }
  async save(run: FlowRun, expectedSeq: number) {
    if (!isId(run.id) || !Number.isSafeInteger(expectedSeq)) return false;
    const { state, status, waitingUntil, lastMessageId, updatedAt, endedAt } = run;
    const changed = await this.em.nativeUpdate(
      FlowRunSchema,
      { id: run.id, companyId: run.companyId, seq: expectedSeq },
      {
        state,
        status,
        waitingUntil,
        lastMessageId,
        updatedAt,
        endedAt,
        seq: expectedSeq + 1,
      },
    );
    return changed > 0;
  }
  async addStep(step: FlowRunStep) {
    await this.em.insert(FlowRunStepSchema, { ...step });
  }
  async steps(companyId: number, runId: number) {
    if (!isId(runId)) return [];
    return this.em.find(FlowRunStepSchema, { companyId, runId }, { ...READ, orderBy: { seq: 'asc' } });
  }
}

/** The flows' tables on one database. */
export const flowsRepositories = (orm: MikroORM) => ({ flows: new MikroOrmFlows(orm), flowRuns: new MikroOrmFlowRuns(orm) });
