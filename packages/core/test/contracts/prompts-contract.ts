import { expect } from 'chai';
import type { Companies, Connections, Contacts, Plans, Queues, Tickets } from '../../src/index.js';
import type { PromptAnswers } from '../../src/prompts/prompt-answer.js';
import type { Prompts } from '../../src/prompts/ports.js';
import type { NewPrompt } from '../../src/prompts/prompt.js';
import { connectionFixture, contactDraft, ticketDraft } from './messaging-contract.js';
import { queueFixture } from './queues-contract.js';
import { twoCompanies } from './repositories-contract.js';

export interface PromptsFixture {
  readonly prompts: Prompts;
  readonly companies: Companies;
  readonly plans: Plans;
  readonly queues: Queues;
  readonly connections: Connections;
  readonly promptAnswers: PromptAnswers;
  readonly contacts: Contacts;
  readonly tickets: Tickets;
}

const T0 = new Date('2026-03-01T10:00:00.000Z');

export function promptFixture(companyId: number, name: string, queueId: number | null, overrides: Partial<NewPrompt> = {}): NewPrompt {
  return {
    companyId,
    name,
    prompt: 'Answer politely.',
    queueId,
    provider: 'openai',
    baseUrl: 'https://api.openai.com/v1',
    model: 'gpt-4o-mini',
    apiKeySealed: 'sealed-key',
    apiKeyHint: 'abcd',
    maxMessages: 10,
    maxTokens: 100,
    temperature: 0.7,
    voice: 'texto',
    promptTokens: 0,
    completionTokens: 0,
    totalTokens: 0,
    createdAt: T0,
    updatedAt: T0,
    ...overrides,
  };
}

/** Plain data, whatever class the adapter builds its rows with. */
const plain = <T extends object>(row: T | null) => (row ? { ...row } : row);

/** One suite for every adapter of the Prompts port. */
export function describePromptsContract(name: string, make: () => Promise<PromptsFixture>) {
  describe(`Prompts repository contract: ${name}`, () => {
    let r: PromptsFixture;
    let c1: number;
    let c2: number;
    let q1: number;
    beforeEach(async () => {
      r = await make();
    });

    /** Two companies and a queue of the first. Called by each test body (database adapters run bodies in a unit of work). */
    async function given() {
      [c1, c2] = await twoCompanies(r);
      q1 = (await r.queues.add(queueFixture(c1, 'Suporte'))).id;
    }

    it('stores every field as given and finds it only within its company', async () => {
      await given();
      const added = await r.prompts.add(
        promptFixture(c1, 'Atendente', q1, { temperature: 0.35, baseUrl: 'http://llm.lan:8080/v1', provider: 'openai-compatible' }),
      );
      expect(plain(await r.prompts.findById(c1, added.id))).to.deep.equal(added);
      expect(added.temperature).to.equal(0.35);
      expect(await r.prompts.findById(c2, added.id)).to.equal(null);
      expect(await r.prompts.remove(c2, added.id)).to.equal(false);
      expect(await r.prompts.findById(c1, added.id)).to.not.equal(null);
    });

    it("lists a company's prompts by name (accents and case folded), searched and paged", async () => {
      await given();
      for (const n of ['Vendas', 'átendente', 'Suporte', 'Beta']) await r.prompts.add(promptFixture(c1, n, q1));
      await r.prompts.add(promptFixture(c2, 'Other', null));
      const all = await r.prompts.list({ companyId: c1, page: { offset: 0, limit: 20 } });
      expect(all.rows.map((p) => p.name)).to.deep.equal(['átendente', 'Beta', 'Suporte', 'Vendas']);
      expect(all.count).to.equal(4);
      const page = await r.prompts.list({ companyId: c1, page: { offset: 1, limit: 2 } });
      expect(page.rows.map((p) => p.name)).to.deep.equal(['Beta', 'Suporte']);
      expect(page.count).to.equal(4);
      const found = await r.prompts.list({ companyId: c1, page: { offset: 0, limit: 20 }, search: 'ATEN' });
      expect(found.rows.map((p) => p.name)).to.deep.equal(['átendente']);
    });

    it('an update saves the fields but the company, the creation and the counters; usage adds up', async () => {
      await given();
      const added = await r.prompts.add(promptFixture(c1, 'Atendente', q1));
      await r.prompts.addUsage(c1, added.id, { promptTokens: 10, completionTokens: 4, totalTokens: 14 });
      await r.prompts.addUsage(c1, added.id, { promptTokens: 1, completionTokens: 2, totalTokens: 3 });
      await r.prompts.addUsage(c2, added.id, { promptTokens: 100, completionTokens: 100, totalTokens: 200 });
      const later = new Date(T0.getTime() + 60_000);
      await r.prompts.update({
        ...added,
        companyId: c2,
        name: 'Novo',
        prompt: 'Be brief.',
        queueId: null,
        model: 'gpt-4o',
        apiKeySealed: null,
        apiKeyHint: null,
        maxMessages: 3,
        maxTokens: 50,
        temperature: 1.5,
        promptTokens: 0,
        createdAt: later,
        updatedAt: later,
      });
      expect(await r.prompts.findById(c2, added.id)).to.equal(null);
      await r.prompts.update({
        ...added,
        name: 'Novo',
        prompt: 'Be brief.',
        queueId: null,
        model: 'gpt-4o',
        apiKeySealed: null,
        apiKeyHint: null,
        maxMessages: 3,
        maxTokens: 50,
        temperature: 1.5,
        promptTokens: 0,
        createdAt: later,
        updatedAt: later,
      });
      expect(plain(await r.prompts.findById(c1, added.id))).to.deep.equal({
        ...added,
        name: 'Novo',
        prompt: 'Be brief.',
        queueId: null,
        model: 'gpt-4o',
        apiKeySealed: null,
        apiKeyHint: null,
        maxMessages: 3,
        maxTokens: 50,
        temperature: 1.5,
        promptTokens: 11,
        completionTokens: 6,
        totalTokens: 17,
        updatedAt: later,
      });
    });

    it('counts the connections and queues of its company that point to a prompt', async () => {
      await given();
      const added = await r.prompts.add(promptFixture(c1, 'Atendente', q1));
      const other = await r.prompts.add(promptFixture(c1, 'Outro', q1));
      expect(await r.prompts.links(c1, added.id)).to.deep.equal({ connections: 0, queues: 0 });
      await r.connections.add(connectionFixture(c1, 'Main', { promptId: added.id }));
      await r.connections.add(connectionFixture(c1, 'Second', { promptId: added.id }));
      await r.connections.add(connectionFixture(c1, 'Third', { promptId: other.id }));
      await r.queues.update({ ...(await r.queues.findById(c1, q1))!, promptId: added.id });
      await r.queues.add(queueFixture(c1, 'Vendas', { promptId: other.id }));
      // Another company's rows never count, whatever id they hold.
      await r.connections.add(connectionFixture(c2, 'Theirs', { promptId: added.id }));
      await r.queues.add(queueFixture(c2, 'Deles', { promptId: added.id }));
      expect(await r.prompts.links(c1, added.id)).to.deep.equal({ connections: 2, queues: 1 });
      expect(await r.prompts.links(c1, other.id)).to.deep.equal({ connections: 1, queues: 1 });
      expect(await r.prompts.links(c2, added.id)).to.deep.equal({ connections: 1, queues: 1 });
      expect(await r.prompts.links(c1, 999_999)).to.deep.equal({ connections: 0, queues: 0 });
    });

    it('removing answers whether it was there', async () => {
      await given();
      const added = await r.prompts.add(promptFixture(c1, 'Atendente', q1));
      expect(await r.prompts.remove(c1, added.id)).to.equal(true);
      expect(await r.prompts.remove(c1, added.id)).to.equal(false);
      expect(await r.prompts.findById(c1, added.id)).to.equal(null);
    });

    it('records an inbound message once: a second claim of it is refused, in any company, and the records read by ticket', async () => {
      await given();
      const connection = await r.connections.add(connectionFixture(c1, 'Main'));
      const contact = await r.contacts.add(contactDraft(c1, '5511999990001'));
      const ticket = (
        await r.tickets.getOrCreateActive(
          ticketDraft({ companyId: c1, contactId: contact.id, connectionId: connection.id, uuid: '0b6f3d0e-7a52-4a8c-9a51-000000000001' }),
        )
      ).ticket;
      const record = (messageId: string, at: Date, extra: Partial<Parameters<PromptAnswers['claim']>[0]> = {}) => ({
        companyId: c1,
        messageId,
        ticketId: ticket.id,
        promptId: 7,
        outcome: 'answered' as const,
        reason: null,
        at,
        ...extra,
      });
      const m1 = '6a1f9c7e-2b1d-4f0a-8c3e-000000000001';
      const m2 = '6a1f9c7e-2b1d-4f0a-8c3e-000000000002';
      expect(await r.promptAnswers.has(c1, m1)).to.equal(false);
      expect(await r.promptAnswers.claim(record(m1, T0))).to.equal(true);
      expect(await r.promptAnswers.claim(record(m1, T0, { outcome: 'handed-over' }))).to.equal(false);
      expect(await r.promptAnswers.claim(record(m1, T0, { companyId: c2 }))).to.equal(false);
      expect(await r.promptAnswers.has(c1, m1)).to.equal(true);
      expect(await r.promptAnswers.has(c2, m1)).to.equal(false);
      const later = new Date(T0.getTime() + 1000);
      expect(await r.promptAnswers.claim(record(m2, later, { outcome: 'handed-over', reason: 'ERR_LANGUAGE_MODEL_TIMEOUT' }))).to.equal(true);
      expect((await r.promptAnswers.ofTicket(c1, ticket.id)).map(plain)).to.deep.equal([
        record(m1, T0),
        record(m2, later, { outcome: 'handed-over', reason: 'ERR_LANGUAGE_MODEL_TIMEOUT' }),
      ]);
      expect(await r.promptAnswers.ofTicket(c2, ticket.id)).to.deep.equal([]);
    });
  });
}
