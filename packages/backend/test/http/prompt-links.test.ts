import { expect } from 'chai';
import { asSuper, newCompanyWithAdmin, startTestBackend, type TestBackend } from '../support/test-backend.js';

type Api = Awaited<ReturnType<typeof asSuper>>['api'];

describe('HTTP: connections and queues point to a prompt (promptId)', () => {
  let b: TestBackend;
  before(async () => {
    b = await startTestBackend();
  });
  after(async () => {
    await b.close();
  });
  beforeEach(async () => {
    await b.reset();
  });

  /** A queue and a prompt handing over to it, as the prompt modal creates them. */
  async function promptOf(api: Api, queueName: string): Promise<number> {
    const queue = await api.post('/queue', { name: queueName, color: '#00aa55' });
    expect(queue.status, JSON.stringify(queue.body)).to.equal(201);
    const prompt = await api.post('/prompt', {
      name: 'Atendente virtual',
      prompt: 'Você é o atendente da Loja Exemplo. Responda de forma breve.',
      apiKey: 'sk-proj-prompt-links-0001',
      queueId: queue.body.id,
      maxTokens: '300',
      temperature: '0.7',
      maxMessages: 10,
      voice: 'texto',
    });
    expect(prompt.status, JSON.stringify(prompt.body)).to.equal(200);
    return prompt.body.id as number;
  }

  it("a connection points to a prompt of its company, never another's, and lets it go with null", async () => {
    const { api: admin } = await asSuper(b);
    const other = await newCompanyWithAdmin(b);
    const ours = await promptOf(admin, 'Suporte');
    const theirs = await promptOf(other.api, 'Deles');

    const created = await admin.post('/chatapp/', { name: 'Vendas', provider: 'sandbox', promptId: ours });
    expect([created.status, created.body.promptId], JSON.stringify(created.body)).to.deep.equal([201, ours]);
    expect((await admin.post('/chatapp/', { name: 'Alheia', provider: 'sandbox', promptId: theirs })).body).to.deep.equal({ error: 'ERR_NO_PROMPT_FOUND' });
    const id = created.body.id as number;

    // The lineage's modal reads `promptId` back and sends it (a number or null) with the whole form.
    const shown = await admin.get(`/chatapp/${id}?session=0`);
    expect(shown.body.promptId).to.equal(ours);
    const cleared = await admin.put(`/chatapp/${id}`, { ...shown.body, promptId: null });
    expect([cleared.status, cleared.body.promptId], JSON.stringify(cleared.body)).to.deep.equal([200, null]);
    expect((await admin.get(`/chatapp/${id}`)).body.promptId).to.equal(null);

    const set = await admin.put(`/chatapp/${id}`, { promptId: ours });
    expect([set.status, set.body.promptId]).to.deep.equal([200, ours]);
    expect((await admin.get('/chatapp/')).body.find((c: { id: number }) => c.id === id).promptId).to.equal(ours);
    const refused = await admin.put(`/chatapp/${id}`, { promptId: theirs });
    expect([refused.status, refused.body]).to.deep.equal([404, { error: 'ERR_NO_PROMPT_FOUND' }]);
    expect((await admin.get(`/chatapp/${id}`)).body.promptId).to.equal(ours);
    expect((await admin.put(`/chatapp/${id}`, { name: 'Vendas 2' })).body.promptId, 'absent keeps it').to.equal(ours);
    for (const promptId of ['abc', 0, -1, 1.5]) {
      const res = await admin.put(`/chatapp/${id}`, { promptId });
      expect([res.status, res.body.error], JSON.stringify(promptId)).to.deep.equal([422, 'ERR_VALIDATION']);
    }
  });

  it("a queue points to a prompt of its company on create and update, never another's, and lets it go with null", async () => {
    const { api: admin } = await asSuper(b);
    const other = await newCompanyWithAdmin(b);
    const ours = await promptOf(admin, 'Suporte');
    const theirs = await promptOf(other.api, 'Deles');

    const created = await admin.post('/queue', { name: 'Robô', color: '#112233', promptId: ours });
    expect([created.status, created.body.promptId], JSON.stringify(created.body)).to.deep.equal([201, ours]);
    expect((await admin.post('/queue', { name: 'Alheia', color: '#112233', promptId: theirs })).body).to.deep.equal({ error: 'ERR_NO_PROMPT_FOUND' });
    const id = created.body.id as number;
    expect((await admin.get(`/queue/${id}`)).body.promptId).to.equal(ours);
    expect((await admin.get('/queue')).body.find((q: { id: number }) => q.id === id).promptId).to.equal(ours);

    // The lineage's queue editor sends the queue back without `promptId`: it stays.
    const { promptId: _kept, ...edited } = (await admin.get(`/queue/${id}`)).body as Record<string, unknown>;
    expect((await admin.put(`/queue/${id}`, { ...edited, name: 'Robô de vendas' })).body).to.deep.include({ name: 'Robô de vendas', promptId: ours });
    const refused = await admin.put(`/queue/${id}`, { promptId: theirs });
    expect([refused.status, refused.body]).to.deep.equal([404, { error: 'ERR_NO_PROMPT_FOUND' }]);
    const cleared = await admin.put(`/queue/${id}`, { promptId: null });
    expect([cleared.status, cleared.body.promptId]).to.deep.equal([200, null]);
    expect((await admin.get(`/queue/${id}`)).body.promptId).to.equal(null);
    expect((await admin.put(`/queue/${id}`, { promptId: 'x' })).body).to.deep.include({ error: 'ERR_VALIDATION' });
  });

  it('a prompt a connection or a queue points to is not deleted (409 ERR_PROMPT_IN_USE) until both let it go', async () => {
    const { api: admin } = await asSuper(b);
    const prompt = await promptOf(admin, 'Suporte');
    const connection = (await admin.post('/chatapp/', { name: 'Vendas', provider: 'sandbox', promptId: prompt })).body.id as number;
    const queue = (await admin.post('/queue', { name: 'Robô', color: '#112233', promptId: prompt })).body.id as number;

    const inUse = await admin.delete(`/prompt/${prompt}`);
    expect([inUse.status, inUse.body]).to.deep.equal([409, { error: 'ERR_PROMPT_IN_USE' }]);
    expect((await admin.put(`/chatapp/${connection}`, { promptId: null })).status).to.equal(200);
    expect((await admin.delete(`/prompt/${prompt}`)).body).to.deep.equal({ error: 'ERR_PROMPT_IN_USE' });
    expect((await admin.put(`/queue/${queue}`, { promptId: null })).status).to.equal(200);
    const deleted = await admin.delete(`/prompt/${prompt}`);
    expect([deleted.status, deleted.body]).to.deep.equal([200, { message: 'Prompt deleted' }]);
    expect((await admin.get(`/prompt/${prompt}`)).body).to.deep.equal({ error: 'ERR_NO_PROMPT_FOUND' });
  });
});
