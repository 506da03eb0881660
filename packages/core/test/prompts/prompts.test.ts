import { expect } from 'chai';
import { companyFixture, planFixture, userFixture } from '../contracts/repositories-contract.js';
import { code, ticketWorld } from '../messaging/ticket-world.js';

const KEY = 'sk-proj-0123456789abcdef';

/** Acme (every plan feature, queues 1 and 2) from the ticket world, and a company whose plan lacks AI. */
async function promptWorld() {
  const w = await ticketWorld();
  const noAi = await w.ports.plans.add(planFixture('No AI', { features: { ...planFixture('x').features, ai: false } }));
  const small = await w.ports.companies.add(companyFixture(noAi.id, 'Small'));
  const smallAdmin = await w.ports.users.add(userFixture(small.id, 'admin@small.test', { profile: 'admin' }));
  const other = await w.ports.companies.add(companyFixture(w.acme.planId, 'Other'));
  const otherAdmin = await w.ports.users.add(userFixture(other.id, 'admin@other.test', { profile: 'admin' }));
  const create = (overrides: Record<string, unknown> = {}) =>
    w.app.prompts.createPrompt.execute({ actor: w.admin, name: 'Atendente', prompt: 'Answer politely.', apiKey: KEY, queueId: 1, ...overrides });
  const events = () => w.ports.realtime.events.filter((e) => e.entity === 'prompt');
  return {
    ...w,
    create,
    events,
    small: { userId: smallAdmin.id, companyId: small.id, profile: 'admin' as const },
    other: { userId: otherAdmin.id, companyId: other.id, profile: 'admin' as const },
  };
}

describe('Prompts: management', () => {
  it('creates a prompt with defaults, the key sealed and write-only, the queue named, and a create frame', async () => {
    const w = await promptWorld();
    const p = await w.create({ name: '  Atendente  ' });
    expect(p).to.include({
      name: 'Atendente',
      prompt: 'Answer politely.',
      queueId: 1,
      provider: 'openai',
      baseUrl: 'https://api.openai.com/v1',
      model: 'gpt-4o-mini',
      hasApiKey: true,
      apiKeyLast4: 'cdef',
      maxMessages: 10,
      maxTokens: 100,
      temperature: 1,
      voice: 'texto',
      promptTokens: 0,
      totalTokens: 0,
    });
    expect(p.queue).to.deep.equal({ id: 1, name: 'Sales', color: '#336699' });
    expect(p).to.not.have.any.keys('apiKey', 'apiKeySealed', 'apiKeyHint');
    const stored = (await w.ports.prompts.findById(w.acme.id, p.id))!;
    expect(stored.apiKeySealed).to.be.a('string').and.not.include(KEY);
    expect(w.ports.secretCipher.open(stored.apiKeySealed!, `prompt:${w.acme.id}`)).to.equal(KEY);
    expect(w.events().map((e) => e.data)).to.deep.equal([{ action: 'create', prompt: p }]);
  });

  it("refuses bad fields with their codes, a model off the allow-list, a voice, a missing key or queue, and another company's queue", async () => {
    const w = await promptWorld();
    expect(await code(w.create({ name: ' ' }))).to.equal('ERR_PROMPT_INVALID_NAME');
    expect(await code(w.create({ prompt: '' }))).to.equal('ERR_PROMPT_INVALID_INSTRUCTIONS');
    expect(await code(w.create({ maxMessages: 0 }))).to.equal('ERR_PROMPT_INVALID_MAX_MESSAGES');
    expect(await code(w.create({ maxMessages: 2.5 }))).to.equal('ERR_PROMPT_INVALID_MAX_MESSAGES');
    expect(await code(w.create({ maxTokens: 16_001 }))).to.equal('ERR_PROMPT_INVALID_MAX_TOKENS');
    expect(await code(w.create({ temperature: 2.1 }))).to.equal('ERR_PROMPT_INVALID_TEMPERATURE');
    expect(await code(w.create({ temperature: Number.NaN }))).to.equal('ERR_PROMPT_INVALID_TEMPERATURE');
    expect(await code(w.create({ model: 'gpt-5-super' }))).to.equal('ERR_PROMPT_MODEL_NOT_ALLOWED');
    expect(await code(w.create({ voice: 'pt-BR-FranciscaNeural' }))).to.equal('ERR_PROMPT_VOICE_NOT_SUPPORTED');
    expect(await code(w.create({ apiKey: '' }))).to.equal('ERR_PROMPT_API_KEY_REQUIRED');
    expect(await code(w.create({ apiKey: 'has space' }))).to.equal('ERR_PROMPT_INVALID_API_KEY');
    expect(await code(w.create({ provider: 'openai-compatible', apiKey: null }))).to.equal('ERR_PROMPT_INVALID_BASE_URL');
    expect(await code(w.create({ provider: 'openai-compatible', baseUrl: 'ftp://llm.lan/v1' }))).to.equal('ERR_PROMPT_INVALID_BASE_URL');
    expect(await code(w.create({ queueId: undefined }))).to.equal('ERR_PROMPT_QUEUE_REQUIRED');
    expect(await code(w.create({ queueId: 999 }))).to.equal('ERR_QUEUE_NOT_FOUND');
    const otherQueue = await w.ports.queues.add({ ...(await w.ports.queues.findById(w.acme.id, 1))!, companyId: w.other.companyId, name: 'Theirs' });
    expect(await code(w.create({ queueId: otherQueue.id }))).to.equal('ERR_QUEUE_NOT_FOUND');
    expect(w.events()).to.deep.equal([]);
    const local = await w.create({ provider: 'openai-compatible', baseUrl: 'http://llm.lan:8080/v1/', apiKey: null, model: 'gpt-4o', temperature: 0.25 });
    expect(local).to.include({ baseUrl: 'http://llm.lan:8080/v1', hasApiKey: false, apiKeyLast4: null, model: 'gpt-4o', temperature: 0.25 });
  });

  it('an edit changes only what is sent; an empty key keeps the stored one, a new one replaces it, null removes it where allowed', async () => {
    const w = await promptWorld();
    const p = await w.create();
    const before = (await w.ports.prompts.findById(w.acme.id, p.id))!;
    w.ports.clock.advance(60_000);
    // What the lineage's modal sends back: the loaded prompt, its read-only fields, and the key field left empty.
    const edited = await w.app.prompts.updatePrompt.execute({ actor: w.admin, promptId: p.id, maxTokens: 300, apiKey: '', queueId: 2 });
    expect(edited).to.include({ maxTokens: 300, queueId: 2, hasApiKey: true, apiKeyLast4: 'cdef', name: 'Atendente' });
    expect((await w.ports.prompts.findById(w.acme.id, p.id))!.apiKeySealed).to.equal(before.apiKeySealed);
    expect(edited.updatedAt).to.not.equal(p.updatedAt);
    const rekeyed = await w.app.prompts.updatePrompt.execute({ actor: w.admin, promptId: p.id, apiKey: 'sk-new-key-0000009999' });
    expect(rekeyed.apiKeyLast4).to.equal('9999');
    expect(await code(w.app.prompts.updatePrompt.execute({ actor: w.admin, promptId: p.id, apiKey: null }))).to.equal('ERR_PROMPT_API_KEY_REQUIRED');
    const local = await w.app.prompts.updatePrompt.execute({
      actor: w.admin,
      promptId: p.id,
      provider: 'openai-compatible',
      baseUrl: 'http://llm.lan/v1',
      apiKey: null,
    });
    expect(local).to.include({ provider: 'openai-compatible', baseUrl: 'http://llm.lan/v1', hasApiKey: false });
    expect(w.events().map((e) => e.data.action)).to.deep.equal(['create', 'update', 'update', 'update']);
  });

  it('lists by name, 20 a page, searched; shows one; deletes with a frame', async () => {
    const w = await promptWorld();
    for (let i = 1; i <= 21; i++) await w.create({ name: `Prompt ${String(i).padStart(2, '0')}` });
    const first = await w.app.prompts.listPrompts.execute({ actor: w.admin });
    expect(first.prompts).to.have.length(20);
    expect(first).to.include({ count: 21, hasMore: true });
    const second = await w.app.prompts.listPrompts.execute({ actor: w.admin, pageNumber: 2 });
    expect(second.prompts.map((p) => p.name)).to.deep.equal(['Prompt 21']);
    expect(second.hasMore).to.equal(false);
    expect((await w.app.prompts.listPrompts.execute({ actor: w.admin, searchParam: 'pt 07' })).prompts.map((p) => p.name)).to.deep.equal(['Prompt 07']);
    const id = first.prompts[0]!.id;
    expect((await w.app.prompts.showPrompt.execute({ actor: w.admin, promptId: id })).name).to.equal('Prompt 01');
    await w.app.prompts.deletePrompt.execute({ actor: w.admin, promptId: id });
    expect(w.events().at(-1)!.data).to.deep.equal({ action: 'delete', promptId: id });
    expect(await code(w.app.prompts.showPrompt.execute({ actor: w.admin, promptId: id }))).to.equal('ERR_NO_PROMPT_FOUND');
    expect(await code(w.app.prompts.deletePrompt.execute({ actor: w.admin, promptId: id }))).to.equal('ERR_NO_PROMPT_FOUND');
  });

  it("another company's prompt is not found; operators are refused; a plan without AI is refused", async () => {
    const w = await promptWorld();
    const p = await w.create();
    const before = w.events().length;
    expect(await code(w.app.prompts.showPrompt.execute({ actor: w.other, promptId: p.id }))).to.equal('ERR_NO_PROMPT_FOUND');
    expect(await code(w.app.prompts.updatePrompt.execute({ actor: w.other, promptId: p.id, name: 'Mine' }))).to.equal('ERR_NO_PROMPT_FOUND');
    expect(await code(w.app.prompts.deletePrompt.execute({ actor: w.other, promptId: p.id }))).to.equal('ERR_NO_PROMPT_FOUND');
    expect((await w.app.prompts.listPrompts.execute({ actor: w.other })).count).to.equal(0);
    expect(await code(w.app.prompts.listPrompts.execute({ actor: w.ana }))).to.equal('ERR_NO_PERMISSION');
    expect(await code(w.app.prompts.createPrompt.execute({ actor: w.small, name: 'X', prompt: 'Y', apiKey: KEY, queueId: 1 }))).to.equal(
      'ERR_PLAN_FEATURE_DISABLED',
    );
    expect(await code(w.app.prompts.listPrompts.execute({ actor: w.small }))).to.equal('ERR_PLAN_FEATURE_DISABLED');
    expect((await w.ports.prompts.findById(w.acme.id, p.id))!.name).to.equal('Atendente');
    expect(w.events()).to.have.length(before);
  });
});
