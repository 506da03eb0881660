import { expect } from 'chai';
import type { Companies, Plans, Queues } from '../../src/index.js';
import type { Prompts } from '../../src/prompts/ports.js';
import type { NewPrompt } from '../../src/prompts/prompt.js';
import { queueFixture } from './queues-contract.js';
import { twoCompanies } from './repositories-contract.js';

export interface PromptsFixture {
  readonly prompts: Prompts;
  readonly companies: Companies;
  readonly plans: Plans;
  readonly queues: Queues;
}

const T0 = new Date('2026-03-01T10:00:00.000Z');

export function promptFixture(companyId: number, name: string, queueId: number | null, overrides: Partial<NewPrompt> = {}): NewPrompt {
  return {
    companyId, name, prompt: 'Answer politely.', queueId, provider: 'openai', baseUrl: 'https://api.openai.com/v1', model: 'gpt-4o-mini',
    apiKeySealed: 'sealed-key', apiKeyHint: 'abcd', maxMessages: 10, maxTokens: 100, temperature: 0.7, voice: 'texto',
    promptTokens: 0, completionTokens: 0, totalTokens: 0, createdAt: T0, updatedAt: T0, ...overrides,
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
    beforeEach(async () => { r = await make(); });

    /** Two companies and a queue of the first. Called by each test body (database adapters run bodies in a unit of work). */
    async function given() {
      [c1, c2] = await twoCompanies(r);
      q1 = (await r.queues.add(queueFixture(c1, 'Suporte'))).id;
    }

    it('stores every field as given and finds it only within its company', async () => {
      await given();
      const added = await r.prompts.add(promptFixture(c1, 'Atendente', q1, { temperature: 0.35, baseUrl: 'http://llm.lan:8080/v1', provider: 'openai-compatible' }));
      expect(plain(await r.prompts.findById(c1, added.id))).to.deep.equal(added);
      expect(added.temperature).to.equal(0.35);
      expect(await r.prompts.findById(c2, added.id)).to.equal(null);
      expect(await r.prompts.remove(c2, added.id)).to.equal(false);
      expect(await r.prompts.findById(c1, added.id)).to.not.equal(null);
    });

    it('lists a company\'s prompts by name (accents and case folded), searched and paged', async () => {
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
        ...added, companyId: c2, name: 'Novo', prompt: 'Be brief.', queueId: null, model: 'gpt-4o', apiKeySealed: null, apiKeyHint: null,
        maxMessages: 3, maxTokens: 50, temperature: 1.5, promptTokens: 0, createdAt: later, updatedAt: later,
      });
      expect(await r.prompts.findById(c2, added.id)).to.equal(null);
      await r.prompts.update({
        ...added, name: 'Novo', prompt: 'Be brief.', queueId: null, model: 'gpt-4o', apiKeySealed: null, apiKeyHint: null,
        maxMessages: 3, maxTokens: 50, temperature: 1.5, promptTokens: 0, createdAt: later, updatedAt: later,
      });
      expect(plain(await r.prompts.findById(c1, added.id))).to.deep.equal({
        ...added, name: 'Novo', prompt: 'Be brief.', queueId: null, model: 'gpt-4o', apiKeySealed: null, apiKeyHint: null,
        maxMessages: 3, maxTokens: 50, temperature: 1.5, promptTokens: 11, completionTokens: 6, totalTokens: 17, updatedAt: later,
      });
    });

    it('removing answers whether it was there', async () => {
      await given();
      const added = await r.prompts.add(promptFixture(c1, 'Atendente', q1));
      expect(await r.prompts.remove(c1, added.id)).to.equal(true);
      expect(await r.prompts.remove(c1, added.id)).to.equal(false);
      expect(await r.prompts.findById(c1, added.id)).to.equal(null);
    });
  });
}
