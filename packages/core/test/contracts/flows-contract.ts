import { expect } from 'chai';
import type { Companies, Plans, Users } from '../../src/index.js';
import type { NewFlow } from '../../src/flows/flow.js';
import type { FlowGraph } from '../../src/flows/flow-graph.js';
import type { Flows } from '../../src/flows/ports.js';
import { twoCompanies, userFixture } from './repositories-contract.js';

export interface FlowsFixture {
  readonly flows: Flows;
  readonly companies: Companies;
  readonly plans: Plans;
  readonly users: Users;
}

const T0 = new Date('2026-03-01T10:00:00.000Z');
const T1 = new Date('2026-03-02T10:00:00.000Z');

/** A small graph: start → welcome message, and optionally a go-to another flow. */
export function graphFixture(goTo?: number): FlowGraph {
  return {
    nodes: [
      { id: 'start', type: 'start', position: { x: 0, y: 0 }, data: {} },
      { id: 'hello', type: 'message', position: { x: 200, y: 0.5 }, data: { text: 'Olá, {{firstName}}! Ação: "já"', media: null, typingMs: 1200 } },
      ...(goTo === undefined ? [] : [{ id: 'jump', type: 'goToFlow' as const, position: { x: 400, y: 0 }, data: { flowId: goTo } }]),
    ],
    edges: [{ id: 'e1', source: 'start', sourceHandle: 'next', target: 'hello' }],
  };
}

export function flowFixture(companyId: number, name: string, overrides: Partial<NewFlow> = {}): NewFlow {
  return {
    companyId,
    name,
    active: false,
    triggers: [{ type: 'keyword', chatappIds: [], keywords: [{ text: 'oi', match: 'exact' }] }],
    draft: graphFixture(),
    draftVersion: 1,
    publishedVersion: null,
    createdAt: T0,
    updatedAt: T0,
    ...overrides,
  };
}

/** Plain data, whatever class the adapter builds its rows with. */
const plain = <T extends object>(row: T | null) => (row ? { ...row } : row);
const code = (p: Promise<unknown>) =>
  p.then(
    () => 'resolved',
    (e: { code?: string }) => e.code,
  );

/** One suite for every adapter of the Flows port. */
export function describeFlowsContract(name: string, make: () => Promise<FlowsFixture>) {
  describe(`Flows repository contract: ${name}`, () => {
    let r: FlowsFixture;
    let c1: number;
    let c2: number;
    beforeEach(async () => {
      r = await make();
    });

    /** Two companies. Called by each test body (database adapters run bodies in a unit of work). */
    async function given() {
      [c1, c2] = await twoCompanies(r);
    }

    it('stores a flow with its graph and triggers as given, and finds (or locks) it only within its company', async () => {
      await given();
      const added = await r.flows.add(flowFixture(c1, 'Boas-vindas'));
      expect(plain(await r.flows.findById(c1, added.id))).to.deep.equal(added);
      expect(plain(await r.flows.lock(c1, added.id))).to.deep.equal(added);
      expect(await r.flows.findById(c2, added.id)).to.equal(null);
      expect(await r.flows.lock(c2, added.id)).to.equal(null);
      expect(await r.flows.findById(c1, 2_147_483_648)).to.equal(null);
      expect(await r.flows.remove(c2, added.id)).to.equal(false);
      expect(await r.flows.remove(c1, added.id)).to.equal(true);
      expect(await r.flows.findById(c1, added.id)).to.equal(null);
    });

    it('keeps a name unique per company (ERR_FLOW_NAME_IN_USE on add and update), not across companies', async () => {
      await given();
      await r.flows.add(flowFixture(c1, 'Vendas'));
      const other = await r.flows.add(flowFixture(c1, 'Suporte'));
      expect(await code(r.flows.add(flowFixture(c1, 'Vendas')))).to.equal('ERR_FLOW_NAME_IN_USE');
      expect(await code(r.flows.update({ ...other, name: 'Vendas' }))).to.equal('ERR_FLOW_NAME_IN_USE');
      expect(await code(r.flows.add(flowFixture(c2, 'Vendas')))).to.equal('resolved');
    });

    it("lists a company's flows by name (accents and case folded), searched and paged", async () => {
      await given();
      for (const n of ['Vendas', 'átendimento', 'Suporte', 'Boas-vindas']) await r.flows.add(flowFixture(c1, n));
      await r.flows.add(flowFixture(c2, 'Alheio'));
      const all = await r.flows.list({ companyId: c1, page: { offset: 0, limit: 20 } });
      expect(all.rows.map((f) => f.name)).to.deep.equal(['átendimento', 'Boas-vindas', 'Suporte', 'Vendas']);
      expect(all.count).to.equal(4);
      const page = await r.flows.list({ companyId: c1, page: { offset: 1, limit: 2 } });
      expect([page.rows.map((f) => f.name), page.count]).to.deep.equal([['Boas-vindas', 'Suporte'], 4]);
      expect((await r.flows.list({ companyId: c1, page: { offset: 0, limit: 20 }, search: 'ATEN' })).rows.map((f) => f.name)).to.deep.equal(['átendimento']);
    });

    it('an update saves name, activity, triggers, published version and updatedAt; never the draft', async () => {
      await given();
      const added = await r.flows.add(flowFixture(c1, 'Vendas'));
      const triggers = [{ type: 'welcome' as const, chatappIds: [3, 4], keywords: [] }];
      await r.flows.update({
        ...added,
        name: 'Vendas 2',
        active: true,
        triggers,
        publishedVersion: 2,
        updatedAt: T1,
        draft: { nodes: [], edges: [] },
        draftVersion: 9,
        createdAt: T1,
      });
      expect(plain(await r.flows.findById(c1, added.id))).to.deep.equal({
        ...added,
        name: 'Vendas 2',
        active: true,
        triggers,
        publishedVersion: 2,
        updatedAt: T1,
      });
      await r.flows.update({ ...added, companyId: c2, name: 'Hijack' });
      expect((await r.flows.findById(c1, added.id))!.name).to.equal('Vendas 2');
    });

    it('saves a draft only over the version it was read at, moving the version on by one', async () => {
      await given();
      const added = await r.flows.add(flowFixture(c1, 'Vendas'));
      const next = graphFixture(77);
      expect(await r.flows.saveDraft(c1, added.id, 1, next, T1)).to.equal(true);
      expect(plain(await r.flows.findById(c1, added.id))).to.deep.equal({ ...added, draft: next, draftVersion: 2, updatedAt: T1 });
      expect(await r.flows.saveDraft(c1, added.id, 1, graphFixture(), T1)).to.equal(false);
      expect(await r.flows.saveDraft(c2, added.id, 2, graphFixture(), T1)).to.equal(false);
      expect(await r.flows.saveDraft(c1, 2_147_483_648, 1, graphFixture(), T1)).to.equal(false);
      expect((await r.flows.findById(c1, added.id))!.draft).to.deep.equal(next);
    });

    it('keeps published versions per flow, found only within the company, gone with their flow', async () => {
      await given();
      const user = await r.users.add(userFixture(c1, 'pub@one.test'));
      const flow = await r.flows.add(flowFixture(c1, 'Vendas'));
      const v1 = { flowId: flow.id, companyId: c1, version: 1, graph: graphFixture(), publishedBy: user.id, publishedAt: T0 };
      const v2 = { ...v1, version: 2, graph: graphFixture(5), publishedBy: null, publishedAt: T1 };
      await r.flows.addVersion(v2);
      await r.flows.addVersion(v1);
      expect(plain(await r.flows.findVersion(c1, flow.id, 2))).to.deep.equal(v2);
      expect(await r.flows.findVersion(c2, flow.id, 2)).to.equal(null);
      expect(await r.flows.findVersion(c1, flow.id, 3)).to.equal(null);
      expect(await r.flows.versionNumbers(c1, flow.id)).to.deep.equal([1, 2]);
      expect(await r.flows.versionNumbers(c2, flow.id)).to.deep.equal([]);
      await r.flows.remove(c1, flow.id);
      expect(await r.flows.versionNumbers(c1, flow.id)).to.deep.equal([]);
    });

    it('names the other flows of the company that go to a flow, from their draft or latest published version; and which ids are flows', async () => {
      await given();
      const target = await r.flows.add(flowFixture(c1, 'Alvo'));
      const byDraft = await r.flows.add(flowFixture(c1, 'Rascunho', { draft: graphFixture(target.id) }));
      const byVersion = await r.flows.add(flowFixture(c1, 'Publicado', { publishedVersion: 2 }));
      await r.flows.addVersion({ flowId: byVersion.id, companyId: c1, version: 2, graph: graphFixture(target.id), publishedBy: null, publishedAt: T0 });
      const byOldVersion = await r.flows.add(flowFixture(c1, 'Antigo', { publishedVersion: 2 }));
      await r.flows.addVersion({ flowId: byOldVersion.id, companyId: c1, version: 1, graph: graphFixture(target.id), publishedBy: null, publishedAt: T0 });
      await r.flows.addVersion({ flowId: byOldVersion.id, companyId: c1, version: 2, graph: graphFixture(), publishedBy: null, publishedAt: T0 });
      await r.flows.add(flowFixture(c1, 'Outro', { draft: graphFixture(target.id + 1000) }));
      await r.flows.add(flowFixture(c2, 'Alheio', { draft: graphFixture(target.id) }));
      await r.flows.saveDraft(c1, target.id, 1, graphFixture(target.id), T1);
      expect(await r.flows.referencing(c1, target.id)).to.deep.equal([byDraft.id, byVersion.id]);
      expect(await r.flows.existing(c1, [byDraft.id, target.id, 999_999, target.id])).to.deep.equal([target.id, byDraft.id]);
      expect(await r.flows.existing(c2, [target.id])).to.deep.equal([]);
    });
  });
}
