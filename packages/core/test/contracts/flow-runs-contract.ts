import { expect } from 'chai';
import type { Companies, Connections, Contacts, Plans, Tickets } from '../../src/index.js';
import type { FlowRuns, NewFlowRun } from '../../src/flows/flow-runs.js';
import type { Flows } from '../../src/flows/ports.js';
import { initialState } from '../../src/flows/flow-run.js';
import { flowFixture } from './flows-contract.js';
import { connectionFixture, contactDraft, ticketDraft } from './messaging-contract.js';
import { twoCompanies } from './repositories-contract.js';

export interface FlowRunsFixture {
  readonly flowRuns: FlowRuns;
  readonly flows: Flows;
  readonly companies: Companies;
  readonly plans: Plans;
  readonly connections: Connections;
  readonly contacts: Contacts;
  readonly tickets: Tickets;
}

const T0 = new Date('2026-03-01T10:00:00.000Z');
const code = (p: Promise<unknown>) =>
  p.then(
    () => 'resolved',
    (e: { code?: string }) => e.code,
  );

/** The runs repository's contract: one active run per ticket, compare-and-set saves, steps by `seq`, company scoping. */
export function describeFlowRunsContract(name: string, make: () => Promise<FlowRunsFixture>): void {
  describe(`FlowRuns contract on ${name}`, () => {
    let f: FlowRunsFixture;
    let one: number;
    let two: number;
    beforeEach(async () => {
      f = await make();
    });

    /** Two companies. Called by each test body (database adapters run bodies in a unit of work). */
    async function given() {
      [one, two] = await twoCompanies(f);
    }

    async function runFixture(overrides: Partial<NewFlowRun> = {}): Promise<NewFlowRun> {
      const flow = await f.flows.add(flowFixture(one, `Flow ${Math.random()}`, { active: true, publishedVersion: 1 }));
      const connection = await f.connections.add(connectionFixture(one, `Line ${Math.random()}`));
      const contact = await f.contacts.getOrCreate(contactDraft(one, `55119${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}`));
      const { ticket } = await f.tickets.getOrCreateActive(
        ticketDraft({ companyId: one, contactId: contact.id, connectionId: connection.id, uuid: crypto.randomUUID() }),
      );
      return {
        companyId: one,
        flowId: flow.id,
        version: 1,
        ticketId: ticket.id,
        contactId: contact.id,
        connectionId: connection.id,
        state: {
          ...initialState({ name: 'Ana "Ação"' }),
          nodeId: 'ask',
          status: 'waiting',
          waiting: { kind: 'answer', until: '2026-03-01T10:05:00.000Z', retries: 0 },
        },
        status: 'waiting',
        waitingUntil: new Date('2026-03-01T10:05:00.000Z'),
        trigger: 'welcome',
        lastMessageId: null,
        seq: 1,
        createdAt: T0,
        updatedAt: T0,
        endedAt: null,
        ...overrides,
      };
    }

    it('adds and finds a run with its state; another company sees nothing', async () => {
      await given();
      const draft = await runFixture();
      const run = await f.flowRuns.add(draft);
      expect({ ...(await f.flowRuns.findById(one, run.id)) }).to.deep.equal({ ...draft, id: run.id });
      expect({ ...(await f.flowRuns.activeOfTicket(one, draft.ticketId)) }).to.deep.include({ id: run.id });
      expect(await f.flowRuns.findById(two, run.id)).to.equal(null);
      expect(await f.flowRuns.activeOfTicket(two, draft.ticketId)).to.equal(null);
    });

    it('keeps one active run per ticket; an ended one does not count', async () => {
      await given();
      const draft = await runFixture();
      const run = await f.flowRuns.add(draft);
      expect(await code(f.flowRuns.add(draft))).to.equal('ERR_FLOW_RUN_ACTIVE');
      expect(await f.flowRuns.save({ ...run, status: 'done', endedAt: T0 }, 1)).to.equal(true);
      expect(await f.flowRuns.activeOfTicket(one, draft.ticketId)).to.equal(null);
      const again = await f.flowRuns.add({ ...draft, status: 'running' });
      expect(again.id).to.not.equal(run.id);
      expect((await f.flowRuns.activeOfTicket(one, draft.ticketId))!.id).to.equal(again.id);
    });

    it('saves by compare-and-set on seq: of two writers from the same seq, one wins', async () => {
      await given();
      const run = await f.flowRuns.add(await runFixture());
      const next = { ...run, state: { ...run.state, variables: { name: 'Bia' } }, lastMessageId: 'm-1', updatedAt: new Date('2026-03-01T10:01:00.000Z') };
      expect(await f.flowRuns.save(next, 1)).to.equal(true);
      expect(await f.flowRuns.save({ ...run, lastMessageId: 'm-2' }, 1)).to.equal(false);
      expect(await f.flowRuns.save({ ...next, companyId: two }, 2)).to.equal(false);
      const stored = (await f.flowRuns.findById(one, run.id))!;
      expect(stored).to.include({ seq: 2, lastMessageId: 'm-1' });
      expect(stored.state.variables).to.deep.equal({ name: 'Bia' });
    });

    it('records steps, answered by seq and only to their company', async () => {
      await given();
      const run = await f.flowRuns.add(await runFixture());
      await f.flowRuns.addStep({ runId: run.id, companyId: one, seq: 2, nodeId: 'b', input: 'answer', actions: ['sendText@b', 'end@b'], at: T0 });
      await f.flowRuns.addStep({ runId: run.id, companyId: one, seq: 1, nodeId: 'a', input: 'start', actions: [], at: T0 });
      expect((await f.flowRuns.steps(one, run.id)).map((s) => ({ ...s }))).to.deep.equal([
        { runId: run.id, companyId: one, seq: 1, nodeId: 'a', input: 'start', actions: [], at: T0 },
        { runId: run.id, companyId: one, seq: 2, nodeId: 'b', input: 'answer', actions: ['sendText@b', 'end@b'], at: T0 },
      ]);
      expect(await f.flowRuns.steps(two, run.id)).to.deep.equal([]);
    });

    it('lists the flows whose triggers run: active with a published version, by id', async () => {
      await given();
      const a = await f.flows.add(flowFixture(one, 'A', { active: true, publishedVersion: 2 }));
      await f.flows.add(flowFixture(one, 'B', { active: false, publishedVersion: 1 }));
      await f.flows.add(flowFixture(one, 'C', { active: true, publishedVersion: null }));
      await f.flows.add(flowFixture(two, 'D', { active: true, publishedVersion: 1 }));
      expect((await f.flows.triggered(one)).map((x) => x.id)).to.deep.equal([a.id]);
    });
  });
}
