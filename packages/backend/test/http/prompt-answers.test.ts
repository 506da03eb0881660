import { expect } from 'chai';
import { startFakeChatModel, type FakeChatModel } from '@servicedesk/core/contracts/fake-chat-model';
import { HANDOVER_PHRASE } from '@servicedesk/core/prompts/prompt-answer';
import { eventually, sandboxDesk } from '../support/sandbox-conversations.js';
import { startTestBackend, type TestBackend } from '../support/test-backend.js';

const KEY = 'sk-local-model-key-0001';

/**
 * Assistants answering contacts on the real backend: the sandbox connection carries the messages,
 * an OpenAI-compatible fake on loopback is the model.
 */
describe('HTTP: prompts answer contacts', () => {
  let b: TestBackend;
  let model: FakeChatModel;
  before(async () => {
    model = await startFakeChatModel({ keys: [KEY] });
    b = await startTestBackend({ ALLOW_PRIVATE_URLS: 'true', PROMPT_MODELS: 'local-model', PROMPT_TIMEOUT_MS: '1500' });
  });
  after(async () => {
    await b.close();
    await model.close();
  });
  beforeEach(async () => {
    await b.reset();
    model.requests.length = 0;
    model.mode = 'ok';
    model.reply = (r) => `answer to ${[...(r.body.messages ?? [])].reverse().find((m) => m.role === 'user')?.content ?? ''}`;
  });

  /** The seeded company's sandbox desk, a Support queue, and an assistant on the connection that hands over to Support. */
  async function assistantDesk() {
    const d = await sandboxDesk(b);
    const queue = (await d.admin.post('/queue', { name: 'Suporte', color: '#00aa55' })).body.id as number;
    const prompt = await d.admin.post('/prompt', {
      name: 'Atendente',
      prompt: 'Você atende a Loja Exemplo.',
      provider: 'openai-compatible',
      baseUrl: model.baseUrl,
      model: 'local-model',
      apiKey: KEY,
      queueId: queue,
      maxMessages: 10,
      maxTokens: 200,
      temperature: 0.2,
    });
    expect(prompt.status, JSON.stringify(prompt.body)).to.equal(200);
    const linked = await d.admin.put(`/chatapp/${d.connectionId}`, { promptId: prompt.body.id });
    expect(linked.status, JSON.stringify(linked.body)).to.equal(200);
    expect(linked.body.promptId).to.equal(prompt.body.id);
    const bodies = () => d.sent().map((s) => s.content.body);
    return { ...d, queue, promptId: prompt.body.id as number, bodies };
  }

  it("answers each inbound message once with the model's answer, the conversation so far, and counts the tokens", async () => {
    const d = await assistantDesk();
    await d.inbound('5511955550001', 'Vocês abrem sábado?', { providerMessageId: 'wamid-p1' });
    await eventually('the answer', () => d.bodies().includes('answer to Vocês abrem sábado?'));
    // The provider repeats the message: it is stored once and answered once (the next answer comes after it).
    b.sandbox!.inject(d.connectionId, { from: '5511955550001', body: 'Vocês abrem sábado?', providerMessageId: 'wamid-p1' });
    await d.inbound('5511955550001', 'E domingo?');
    await eventually('the second answer', () => d.bodies().includes('answer to E domingo?'));
    expect(d.bodies()).to.deep.equal(['answer to Vocês abrem sábado?', 'answer to E domingo?']);
    expect(model.requests).to.have.length(2);
    expect(model.requests[1]!.authorization).to.equal(`Bearer ${KEY}`);
    expect(model.requests[1]!.body).to.include({ model: 'local-model', max_tokens: 200, temperature: 0.2 });
    expect(model.requests[1]!.body.messages!.slice(1)).to.deep.equal([
      { role: 'user', content: 'Vocês abrem sábado?' },
      { role: 'assistant', content: 'answer to Vocês abrem sábado?' },
      { role: 'user', content: 'E domingo?' },
    ]);
    const ticket = (await d.admin.get('/tickets?showAll=true&searchParam=5511955550001')).body.tickets[0];
    expect(ticket).to.include({ status: 'pending', queueId: null, lastMessage: 'answer to E domingo?' });
    const prompt = (await d.admin.get(`/prompt/${d.promptId}`)).body;
    expect(prompt.totalTokens).to.be.greaterThan(0);
    expect(prompt.totalTokens).to.equal(prompt.promptTokens + prompt.completionTokens);
  });

  it("the hand-over phrase moves the ticket to the prompt's queue and the assistant stops answering", async () => {
    const d = await assistantDesk();
    model.reply = () => `${HANDOVER_PHRASE}. Vou chamar um atendente.`;
    await d.inbound('5511955550002', 'Quero falar com uma pessoa');
    const ticket = await eventually('the hand-over', async () => {
      const t = (await d.admin.get('/tickets?showAll=true&searchParam=5511955550002')).body.tickets[0];
      return t?.queueId === d.queue && t;
    });
    expect(ticket).to.include({ status: 'pending', userId: null });
    await eventually('the rest of the answer', () => d.bodies().includes('Vou chamar um atendente.'));
    // The contact writes again before anyone took the ticket: the assistant has handed over, so the next words are a person's.
    await d.inbound('5511955550002', 'Oi?');
    expect((await d.admin.post(`/messages/${ticket.id}`, { body: 'Olá, sou o atendente.' })).status).to.equal(200);
    await eventually("the operator's reply", () => d.bodies().includes('Olá, sou o atendente.'));
    expect(model.requests).to.have.length(1);
    expect(d.bodies()).to.deep.equal(['Vou chamar um atendente.', 'Olá, sou o atendente.']);
  });

  it('with the model server failing or silent, the ticket is handed to a person and nothing is sent to the contact', async () => {
    const d = await assistantDesk();
    model.mode = 'server-error';
    await d.inbound('5511955550003', 'Oi');
    await eventually(
      'the hand-over after an error',
      async () => (await d.admin.get('/tickets?showAll=true&searchParam=5511955550003')).body.tickets[0]?.queueId === d.queue,
    );
    model.mode = 'slow';
    await d.inbound('5511955550004', 'Olá');
    await eventually(
      'the hand-over after the deadline',
      async () => (await d.admin.get('/tickets?showAll=true&searchParam=5511955550004')).body.tickets[0]?.queueId === d.queue,
      10_000,
    );
    expect(d.bodies()).to.deep.equal([]);
  });
});
