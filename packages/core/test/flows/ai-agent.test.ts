import { expect } from 'chai';
import { OPTIMIZER_INSTRUCTIONS } from '../../src/flows/ai-agent.js';
import type { InMemoryLanguageModel } from '../../src/in-memory/prompts.js';
import { HANDOVER_PHRASE } from '../../src/prompts/prompt-answer.js';
import { companyFixture, planFixture, userFixture } from '../contracts/repositories-contract.js';
import { code, ticketWorld } from '../messaging/ticket-world.js';

const KEY = 'sk-proj-0123456789abcdef';

async function aiWorld() {
  const w = await ticketWorld();
  const noAi = await w.ports.plans.add(planFixture('No AI', { features: { ...planFixture('x').features, ai: false } }));
  const small = await w.ports.companies.add(companyFixture(noAi.id, 'Small'));
  const smallAdmin = await w.ports.users.add(userFixture(small.id, 'admin@small.test', { profile: 'admin' }));
  const prompt = await w.app.prompts.createPrompt.execute({
    actor: w.admin,
    name: 'Atendente',
    prompt: 'Você atende a Loja.',
    apiKey: KEY,
    queueId: 1,
    maxTokens: 200,
  });
  return {
    ...w,
    prompt,
    model: w.ports.languageModel as InMemoryLanguageModel,
    small: { userId: smallAdmin.id, companyId: small.id, profile: 'admin' as const },
  };
}

describe('Flows: the AI-agent helpers', () => {
  it("offers the providers, the server's models, text voice, defaults and the company's prompts; only to admins on a plan with AI", async () => {
    const w = await aiWorld();
    const options = await w.app.flows.aiAgentOptions.execute({ actor: w.admin });
    expect(options).to.deep.equal({
      providers: [
        { id: 'openai', name: 'OpenAI', models: ['gpt-4o-mini', 'gpt-4o', 'gpt-4.1-mini', 'gpt-4.1'] },
        { id: 'openai-compatible', name: 'OpenAI-compatible', models: ['gpt-4o-mini', 'gpt-4o', 'gpt-4.1-mini', 'gpt-4.1'] },
      ],
      models: ['gpt-4o-mini', 'gpt-4o', 'gpt-4.1-mini', 'gpt-4.1'],
      voices: ['texto'],
      defaults: { provider: 'openai', model: 'gpt-4o-mini', temperature: 1, maxTokens: 100, maxMessages: 10, voice: 'texto' },
      prompts: [{ id: w.prompt.id, name: 'Atendente', model: 'gpt-4o-mini', queueId: 1 }],
    });
    expect(await code(w.app.flows.aiAgentOptions.execute({ actor: w.ana }))).to.equal('ERR_NO_PERMISSION');
    expect(await code(w.app.flows.aiAgentOptions.execute({ actor: w.small }))).to.equal('ERR_PLAN_FEATURE_DISABLED');
    expect(await code(w.app.flows.aiAgentConfigChat.execute({ actor: w.small, promptId: w.prompt.id, messages: [] }))).to.equal('ERR_PLAN_FEATURE_DISABLED');
    expect(await code(w.app.flows.optimizePrompt.execute({ actor: w.small, promptId: w.prompt.id, prompt: 'x' }))).to.equal('ERR_PLAN_FEATURE_DISABLED');
  });

  it('chats with a prompt: its endpoint, key and instructions with the hand-over rule; tokens counted; the hand-over phrase detected', async () => {
    const w = await aiWorld();
    const chat = await w.app.flows.aiAgentConfigChat.execute({ actor: w.admin, promptId: w.prompt.id, messages: [{ role: 'user', content: 'Oi' }] });
    expect(chat).to.deep.equal({ reply: 'echo: Oi', usage: { promptTokens: 10, completionTokens: 5, totalTokens: 15 }, handoff: false, latencyMs: 0 });
    const call = w.model.calls[0]!;
    expect(call.endpoint).to.deep.equal({ baseUrl: 'https://api.openai.com/v1', model: 'gpt-4o-mini', apiKey: KEY });
    expect(call.request).to.deep.include({ maxTokens: 200, temperature: 1 });
    expect(call.request.messages[0]!.role).to.equal('system');
    expect(call.request.messages[0]!.content).to.include('Você atende a Loja.').and.include(HANDOVER_PHRASE);
    expect(call.request.messages.slice(1)).to.deep.equal([{ role: 'user', content: 'Oi' }]);
    expect((await w.ports.prompts.findById(w.acme.id, w.prompt.id))!.totalTokens).to.equal(15);
    w.model.answer = () => `${HANDOVER_PHRASE}: vou chamar alguém.`;
    expect(
      await w.app.flows.aiAgentConfigChat.execute({ actor: w.admin, promptId: w.prompt.id, messages: [{ role: 'user', content: 'Quero um humano' }] }),
    ).to.deep.include({ reply: 'vou chamar alguém.', handoff: true });
  });

  it("chats with an inline configuration, cleaned as a prompt's fields are; never both or neither", async () => {
    const w = await aiWorld();
    const config = {
      provider: 'openai-compatible' as const,
      baseUrl: 'http://llm.lan:8080/v1/',
      model: 'gpt-4o',
      instructions: 'Seja breve.',
      temperature: 0.2,
      maxTokens: 50,
    };
    await w.app.flows.aiAgentConfigChat.execute({
      actor: w.admin,
      config,
      messages: [
        { role: 'user', content: 'Oi' },
        { role: 'assistant', content: 'Olá' },
        { role: 'user', content: 'Tchau' },
      ],
    });
    expect(w.model.calls[0]!.endpoint).to.deep.equal({ baseUrl: 'http://llm.lan:8080/v1', model: 'gpt-4o', apiKey: null });
    expect(w.model.calls[0]!.request).to.deep.include({ maxTokens: 50, temperature: 0.2 });
    expect(w.model.calls[0]!.request.messages).to.have.length(4);
    const chat = (over: Record<string, unknown>) => w.app.flows.aiAgentConfigChat.execute({ actor: w.admin, messages: [], ...over });
    expect(await code(chat({}))).to.equal('ERR_FLOW_AI_CONFIG_REQUIRED');
    expect(await code(chat({ promptId: w.prompt.id, config }))).to.equal('ERR_FLOW_AI_CONFIG_REQUIRED');
    expect(await code(chat({ promptId: 999 }))).to.equal('ERR_NO_PROMPT_FOUND');
    expect(await code(chat({ config: { ...config, provider: 'openai', baseUrl: null } }))).to.equal('ERR_PROMPT_API_KEY_REQUIRED');
    expect(await code(chat({ config: { ...config, model: 'gpt-9' } }))).to.equal('ERR_PROMPT_MODEL_NOT_ALLOWED');
    expect(await code(chat({ config: { ...config, instructions: '' } }))).to.equal('ERR_PROMPT_INVALID_INSTRUCTIONS');
    expect(await code(chat({ config: { ...config, baseUrl: 'file:///etc' } }))).to.equal('ERR_PROMPT_INVALID_BASE_URL');
    w.model.down = true;
    expect(await code(chat({ config }))).to.equal('ERR_LANGUAGE_MODEL_UNAVAILABLE');
  });

  it('optimizes a prompt with a fixed instruction, toward a goal, language and tone; an empty answer is 503', async () => {
    const w = await aiWorld();
    w.model.answer = () => '  Você é o atendente da Loja. Seja cordial.  ';
    const result = await w.app.flows.optimizePrompt.execute({
      actor: w.admin,
      promptId: w.prompt.id,
      prompt: 'atende loja',
      goal: 'vender mais',
      language: 'pt-BR',
      tone: 'cordial',
    });
    expect(result).to.deep.equal({ optimizedPrompt: 'Você é o atendente da Loja. Seja cordial.' });
    const { request, endpoint } = w.model.calls[0]!;
    expect(endpoint.apiKey).to.equal(KEY);
    expect(request.messages).to.deep.equal([
      { role: 'system', content: OPTIMIZER_INSTRUCTIONS },
      { role: 'user', content: 'Goal: vender mais\n\nWrite it in: pt-BR\n\nTone: cordial\n\nThe prompt to rewrite:\n\natende loja' },
    ]);
    expect(await code(w.app.flows.optimizePrompt.execute({ actor: w.admin, promptId: w.prompt.id, prompt: '  ' }))).to.equal('ERR_PROMPT_INVALID_INSTRUCTIONS');
    expect(await code(w.app.flows.optimizePrompt.execute({ actor: w.admin, config: { baseUrl: null, apiKey: KEY }, prompt: 'x' }))).to.equal('resolved');
    w.model.answer = () => '   ';
    expect(await code(w.app.flows.optimizePrompt.execute({ actor: w.admin, promptId: w.prompt.id, prompt: 'x' }))).to.equal('ERR_LANGUAGE_MODEL_UNAVAILABLE');
  });
});
