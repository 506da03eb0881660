import { expect } from 'chai';
import { openNamespace } from '../support/namespace-client.js';
import { sandboxDesk } from '../support/sandbox-conversations.js';
import { asSuper, newCompanyWithAdmin, startTestBackend, type TestBackend } from '../support/test-backend.js';

const KEY = 'sk-proj-prompt-test-key-0001';

describe('HTTP: prompts', () => {
  let b: TestBackend;
  before(async () => {
    b = await startTestBackend({ PROMPT_MODELS: 'gpt-4o-mini,llama-3.1-8b' });
  });
  after(async () => {
    await b.close();
  });
  beforeEach(async () => {
    await b.reset();
  });

  /** What the lineage's prompt modal posts (numbers as the form fields hold them once edited). */
  const form = (queueId: number, fields: Record<string, unknown> = {}) => ({
    name: 'Atendente virtual',
    prompt: 'Você é o atendente da Loja Exemplo. Responda de forma breve e cordial, sempre em português.',
    voice: 'texto',
    voiceKey: '',
    voiceRegion: '',
    maxTokens: '300',
    temperature: '0.7',
    apiKey: KEY,
    queueId,
    maxMessages: 10,
    ...fields,
  });

  it('creates, lists, shows, edits and deletes a prompt: key write-only and sealed, frames to admins', async () => {
    const d = await sandboxDesk(b);
    const queue = (await d.admin.post('/queue', { name: 'Suporte', color: '#00aa55' })).body.id as number;
    const { token, user } = await asSuper(b);
    const ns = await openNamespace(b.url, user.companyId as number, token);
    try {
      const created = await d.admin.post('/prompt', form(queue));
      expect(created.status, JSON.stringify(created.body)).to.equal(200);
      expect(created.body).to.deep.include({
        name: 'Atendente virtual',
        queueId: queue,
        queue: { id: queue, name: 'Suporte', color: '#00aa55' },
        provider: 'openai',
        baseUrl: 'https://api.openai.com/v1',
        model: 'gpt-4o-mini',
        hasApiKey: true,
        apiKeyLast4: '0001',
        maxTokens: 300,
        temperature: 0.7,
        maxMessages: 10,
        voice: 'texto',
        totalTokens: 0,
      });
      expect(JSON.stringify(created.body)).to.not.include(KEY);
      const rows = await b.infra.db.orm.em.fork().getConnection().execute<Array<{ api_key_sealed: string }>>('select api_key_sealed from prompts');
      expect(rows[0]!.api_key_sealed).to.match(/^v1\./).and.not.include(KEY);
      const frame = await ns.waitFor((f) => f.event === `company-${user.companyId}-prompt` && f.data.action === 'create');
      expect(frame.data).to.deep.equal({ action: 'create', prompt: created.body });

      const list = await d.admin.get('/prompt');
      expect(list.status).to.equal(200);
      expect(list.body).to.deep.include({ count: 1, hasMore: false });
      expect(list.body.prompts[0]).to.deep.equal(created.body);
      expect((await d.admin.get('/prompt?searchParam=nada')).body).to.deep.equal({ prompts: [], count: 0, hasMore: false });

      // The modal sends back what it loaded, with the key field empty: the key is kept.
      const shown = await d.admin.get(`/prompt/${created.body.id}`);
      const edited = await d.admin.put(`/prompt/${created.body.id}`, { ...shown.body, apiKey: '', voiceKey: '', maxTokens: '500', model: 'llama-3.1-8b' });
      expect(edited.status, JSON.stringify(edited.body)).to.equal(200);
      expect(edited.body).to.deep.include({ maxTokens: 500, model: 'llama-3.1-8b', hasApiKey: true, apiKeyLast4: '0001' });
      expect((await ns.waitFor((f) => f.event === `company-${user.companyId}-prompt` && f.data.action === 'update')).data).to.deep.equal({
        action: 'update',
        prompt: edited.body,
      });

      const deleted = await d.admin.delete(`/prompt/${created.body.id}`);
      expect([deleted.status, deleted.body]).to.deep.equal([200, { message: 'Prompt deleted' }]);
      expect((await ns.waitFor((f) => f.event === `company-${user.companyId}-prompt` && f.data.action === 'delete')).data).to.deep.equal({
        action: 'delete',
        promptId: created.body.id,
      });
      expect((await d.admin.get(`/prompt/${created.body.id}`)).body).to.deep.equal({ error: 'ERR_NO_PROMPT_FOUND' });
    } finally {
      ns.close();
    }
  });

  it('answers bad input with a 4xx and its code, never a 500', async () => {
    const d = await sandboxDesk(b);
    const queue = (await d.admin.post('/queue', { name: 'Suporte', color: '#00aa55' })).body.id as number;
    const cases: Array<[Record<string, unknown>, number, string]> = [
      [{ name: '' }, 422, 'ERR_PROMPT_INVALID_NAME'],
      [{ prompt: '   ' }, 422, 'ERR_PROMPT_INVALID_INSTRUCTIONS'],
      [{ maxTokens: '0' }, 422, 'ERR_PROMPT_INVALID_MAX_TOKENS'],
      [{ maxMessages: 51 }, 422, 'ERR_PROMPT_INVALID_MAX_MESSAGES'],
      [{ temperature: '3' }, 422, 'ERR_PROMPT_INVALID_TEMPERATURE'],
      [{ temperature: 'hot' }, 422, 'ERR_VALIDATION'],
      [{ model: 'gpt-4o' }, 422, 'ERR_PROMPT_MODEL_NOT_ALLOWED'],
      [{ voice: 'pt-BR-FranciscaNeural' }, 422, 'ERR_PROMPT_VOICE_NOT_SUPPORTED'],
      [{ apiKey: '' }, 422, 'ERR_PROMPT_API_KEY_REQUIRED'],
      [{ provider: 'openai-compatible', baseUrl: 'javascript:alert(1)' }, 422, 'ERR_PROMPT_INVALID_BASE_URL'],
      [{ provider: 'gemini' }, 422, 'ERR_VALIDATION'],
      [{ queueId: null }, 422, 'ERR_PROMPT_QUEUE_REQUIRED'],
      [{ queueId: 999_999 }, 404, 'ERR_QUEUE_NOT_FOUND'],
      [{ queueId: 'x' }, 422, 'ERR_VALIDATION'],
      [{ name: 42 }, 422, 'ERR_VALIDATION'],
    ];
    for (const [fields, status, error] of cases) {
      const res = await d.admin.post('/prompt', form(queue, fields));
      expect([res.status, res.body.error], JSON.stringify(fields)).to.deep.equal([status, error]);
    }
    expect((await d.admin.post('/prompt', { prompt: 'no name' })).body).to.deep.include({ error: 'ERR_VALIDATION' });
    expect((await d.admin.get('/prompt/abc')).body).to.deep.include({ error: 'ERR_VALIDATION' });
    expect((await d.admin.get('/prompt/99999999999')).body).to.deep.include({ error: 'ERR_VALIDATION' });
    expect((await d.admin.get('/prompt?pageNumber=0')).body).to.deep.include({ error: 'ERR_VALIDATION' });
    expect((await d.admin.get('/prompt')).body.count).to.equal(0);
  });

  it("checks tenant and profile on every route: another company's prompt is not found, operators are refused", async () => {
    const d = await sandboxDesk(b);
    const other = await newCompanyWithAdmin(b);
    const theirQueue = (await other.api.post('/queue', { name: 'Deles', color: '#aa0000' })).body.id as number;
    const theirs = await other.api.post('/prompt', form(theirQueue));
    expect(theirs.status, JSON.stringify(theirs.body)).to.equal(200);
    const ourQueue = (await d.admin.post('/queue', { name: 'Suporte', color: '#00aa55' })).body.id as number;
    for (const [method, path, body] of [
      ['GET', `/prompt/${theirs.body.id}`, undefined],
      ['PUT', `/prompt/${theirs.body.id}`, { name: 'Nosso' }],
      ['DELETE', `/prompt/${theirs.body.id}`, undefined],
    ] as const) {
      const res = await d.admin.call(method, path, body);
      expect([res.status, res.body], `${method} ${path}`).to.deep.equal([404, { error: 'ERR_NO_PROMPT_FOUND' }]);
    }
    // Their queue is not ours to hand conversations to.
    expect((await d.admin.post('/prompt', form(theirQueue))).body).to.deep.equal({ error: 'ERR_QUEUE_NOT_FOUND' });
    const ours = await d.admin.post('/prompt', form(ourQueue));
    expect((await d.admin.get('/prompt')).body.prompts.map((p: { id: number }) => p.id)).to.deep.equal([ours.body.id]);
    for (const [method, path, body] of [
      ['GET', '/prompt', undefined],
      ['POST', '/prompt', form(ourQueue)],
      ['GET', `/prompt/${ours.body.id}`, undefined],
      ['PUT', `/prompt/${ours.body.id}`, { name: 'Meu' }],
      ['DELETE', `/prompt/${ours.body.id}`, undefined],
    ] as const) {
      const res = await d.ana.api.call(method, path, body);
      expect([res.status, res.body], `${method} ${path}`).to.deep.equal([403, { error: 'ERR_NO_PERMISSION' }]);
    }
    expect((await other.api.get(`/prompt/${theirs.body.id}`)).body.name).to.equal('Atendente virtual');
  });

  it('answers 403 on every route to a company whose plan lacks AI (useOpenAi)', async () => {
    const { api: root } = await asSuper(b);
    const plan = await root.post('/plans', { name: 'Sem IA', users: 5, connections: 2, queues: 3, amount: '10.00', useOpenAi: false });
    expect(plan.status, JSON.stringify(plan.body)).to.equal(201);
    const small = await newCompanyWithAdmin(b, { planId: plan.body.id });
    for (const [method, path, body] of [
      ['GET', '/prompt', undefined],
      ['POST', '/prompt', { name: 42 }],
      ['GET', '/prompt/1', undefined],
      ['PUT', '/prompt/1', {}],
      ['DELETE', '/prompt/1', undefined],
    ] as const) {
      const res = await small.api.call(method, path, body);
      expect([res.status, res.body], `${method} ${path}`).to.deep.equal([403, { error: 'ERR_PLAN_FEATURE_DISABLED' }]);
    }
  });
});
