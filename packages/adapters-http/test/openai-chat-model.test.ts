import { expect } from 'chai';
import { startFakeChatModel, type FakeChatModel } from '@servicedesk/core/contracts/fake-chat-model';
import { OpenAiChatModel } from '../src/index.js';

const code = (p: Promise<unknown>) =>
  p.then(
    () => 'resolved',
    (e: { code?: string }) => e.code,
  );
const KEY = 'sk-good-0123456789';
const request = {
  messages: [
    { role: 'system' as const, content: 'Answer briefly.' },
    { role: 'user' as const, content: 'Oi' },
    { role: 'assistant' as const, content: 'Olá! Como posso ajudar?' },
    { role: 'user' as const, content: 'Qual o horário?' },
  ],
  maxTokens: 200,
  temperature: 0.7,
};

describe('OpenAiChatModel against a fake OpenAI-compatible service on loopback', () => {
  let fake: FakeChatModel;
  const model = new OpenAiChatModel({ allowPrivate: true, timeoutMs: 1_000 });
  const endpoint = (apiKey: string | null = KEY) => ({ baseUrl: fake.baseUrl, model: 'gpt-4o-mini', apiKey });

  before(async () => {
    fake = await startFakeChatModel({ keys: [KEY] });
  });
  after(() => fake.close());
  beforeEach(() => {
    fake.requests.length = 0;
    fake.mode = 'ok';
  });

  it('posts the conversation as OpenAI documents it, with the key as a Bearer token, and answers the first choice and the usage', async () => {
    const answer = await model.complete(endpoint(), request);
    expect(answer.text).to.equal('answer to Qual o horário?');
    const [req] = fake.requests;
    expect(req).to.deep.include({ path: '/v1/chat/completions', authorization: `Bearer ${KEY}` });
    expect(req!.body).to.deep.equal({
      model: 'gpt-4o-mini',
      max_tokens: 200,
      temperature: 0.7,
      messages: request.messages.map((m) => ({ role: m.role, content: m.content })),
    });
    const sent = JSON.stringify(request.messages.map((m) => ({ role: m.role, content: m.content }))).length;
    expect(answer.usage).to.deep.equal({ promptTokens: sent, completionTokens: answer.text.length, totalTokens: sent + answer.text.length });
  });

  it('sends no Authorization header without a key (a local server)', async () => {
    fake.keys.clear();
    try {
      await model.complete(endpoint(null), request);
      expect(fake.requests[0]!.authorization).to.equal(null);
    } finally {
      fake.keys.add(KEY);
    }
  });

  it('tells a refusal (a wrong key) from a service that is unavailable, overloaded, slow or not answering a completion', async () => {
    expect(await code(model.complete(endpoint('sk-wrong-000000000'), request))).to.equal('ERR_LANGUAGE_MODEL_REFUSED');
    fake.mode = 'server-error';
    expect(await code(model.complete(endpoint(), request))).to.equal('ERR_LANGUAGE_MODEL_UNAVAILABLE');
    fake.mode = 'rate-limited';
    expect(await code(model.complete(endpoint(), request))).to.equal('ERR_LANGUAGE_MODEL_UNAVAILABLE');
    fake.mode = 'not-completion';
    expect(await code(model.complete(endpoint(), request))).to.equal('ERR_LANGUAGE_MODEL_UNAVAILABLE');
    fake.mode = 'slow';
    expect(await code(model.complete(endpoint(), request))).to.equal('ERR_LANGUAGE_MODEL_TIMEOUT');
    expect(await code(model.complete({ ...endpoint(), baseUrl: 'http://127.0.0.1:1/v1' }, request))).to.equal('ERR_LANGUAGE_MODEL_UNAVAILABLE');
  });

  it('refuses loopback and private addresses unless the deployment allows them', async () => {
    const strict = new OpenAiChatModel({ timeoutMs: 1_000 });
    expect(await code(strict.complete(endpoint(), request))).to.equal('ERR_URL_NOT_ALLOWED');
    expect(await code(strict.complete({ ...endpoint(), baseUrl: 'http://10.0.0.8/v1' }, request))).to.equal('ERR_URL_NOT_ALLOWED');
    expect(fake.requests).to.have.length(0);
  });
});
