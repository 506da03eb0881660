import { type FakeChatModel, startFakeChatModel } from '@servicedesk/core/contracts/fake-chat-model';
import { HANDOVER_PHRASE } from '@servicedesk/core/prompts/prompt-answer';
import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import { ADMIN, asSuper, client, login, startTestBackend, type TestBackend } from '../../../backend/test/support/test-backend.js';
import { expectAccessible, launchChromium, operator, prepareConsole, shot, signIn } from './support.js';

const KEY = 'sk-local-console-prompt-0001';
const PROPOSAL = 'You are the virtual attendant of Example Store. Answer briefly and kindly.';

/**
 * The AI assistants screen in Chromium against the real backend, whose model calls go to a fake
 * OpenAI-compatible server on loopback: an assistant created after a temperature refused at its
 * field (nothing typed lost) and seen live by a second admin, the key never in the page; its
 * instructions rewritten by the model and the suggestion used; a test conversation answered by the
 * fake model, the tokens counted, a hand-over said with its queue; a delete seen live; Spanish at a
 * phone's width. The steps share one backend and one browser, in order.
 */
describe('console: the AI assistants screen in Chromium (skipped when /usr/bin/chromium is absent)', function () {
  this.timeout(120_000);
  let b: TestBackend;
  let model: FakeChatModel;
  let browser: Browser;
  let page: Page;
  let other: Page;
  let promptId: number;

  const row = (p: Page, name: string) => p.getByRole('row').filter({ has: p.getByRole('rowheader', { name, exact: true }) });

  before(async function () {
    prepareConsole(this);
    model = await startFakeChatModel({ keys: [KEY] });
    model.reply = (r) => {
      const messages = r.body.messages ?? [];
      if (messages[0]?.content.includes('You rewrite system prompts')) return PROPOSAL;
      return `answer to ${[...messages].reverse().find((m) => m.role === 'user')?.content ?? ''}`;
    };
    b = await startTestBackend({ ALLOW_PRIVATE_URLS: 'true', PROMPT_MODELS: 'local-model,other-model' });
    const { api } = await asSuper(b);
    expect((await api.post('/queue', { name: 'Support', color: '#00aa55' })).status).to.be.oneOf([200, 201]);
    browser = await launchChromium();
    page = (await operator(browser)).page;
    other = (await operator(browser)).page;
  });
  after(async () => {
    await browser?.close();
    await b?.close();
    await model?.close();
  });

  it('creates an assistant after a temperature refused at its field; a second admin sees it live, the key never shown', async () => {
    await signIn(page, b.url, ADMIN.email, ADMIN.password, '/app/prompts');
    await signIn(other, b.url, ADMIN.email, ADMIN.password, '/app/prompts');
    await page.getByRole('heading', { name: 'AI assistants', level: 1 }).waitFor();
    await page.getByText('No assistants yet.').waitFor();
    await expectAccessible(page, 'the empty assistants screen');

    await page.getByRole('button', { name: 'New assistant' }).click();
    const dialog = page.getByRole('dialog', { name: 'New AI assistant' });
    await dialog.getByLabel('Name').fill('Store attendant');
    await dialog.getByLabel('Hand-over queue').selectOption({ label: 'Support' });
    await dialog.getByLabel('Service', { exact: true }).selectOption('openai-compatible');
    await dialog.getByLabel('Service address').fill(model.baseUrl);
    await dialog.getByLabel('Model').selectOption('other-model');
    await dialog.getByLabel('API key').fill(KEY);
    await dialog.getByLabel('Temperature').fill('3');
    await dialog.getByLabel('Instructions').fill('You answer for Example Store.');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByRole('alert').filter({ hasText: 'A number from 0 to 2.' }).waitFor();
    expect(await dialog.getByLabel('Temperature').getAttribute('aria-invalid')).to.equal('true');
    expect(await dialog.getByLabel('Service address').inputValue()).to.equal(model.baseUrl);
    expect(await dialog.getByLabel('API key').inputValue()).to.equal(KEY);
    await expectAccessible(page, 'a refused assistant');

    await dialog.getByLabel('Temperature').fill('0.5');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached' });
    await row(page, 'Store attendant').getByText('Set (ends in 0001)').waitFor();
    await row(other, 'Store attendant').getByText('other-model').waitFor();
    expect(await row(other, 'Store attendant').getByRole('cell').nth(1).textContent()).to.equal('Support');
    const { api } = await asSuper(b);
    const saved = (await api.get('/prompt')).body.prompts[0];
    expect(saved).to.deep.include({ name: 'Store attendant', provider: 'openai-compatible', model: 'other-model', temperature: 0.5, hasApiKey: true });
    promptId = saved.id;
    expect(await page.content()).to.not.include(KEY);
  });

  it('suggests better instructions with the model, and the suggestion is used and saved', async () => {
    await page.getByRole('button', { name: 'Edit Store attendant' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit the assistant Store attendant' });
    expect(await dialog.getByLabel('API key').inputValue()).to.equal('');
    await dialog.getByText('Saved (ends in 0001): type a new one to replace it, or leave empty to keep it.').waitFor();
    await dialog.getByLabel('What the assistant is for (optional)').fill('Answer questions on orders');
    await dialog.getByRole('button', { name: 'Suggest better instructions' }).click();
    const proposal = dialog.getByRole('region', { name: 'Suggested instructions' });
    await proposal.getByTestId('proposal').filter({ hasText: PROPOSAL }).waitFor();
    const asked = model.requests.at(-1)!;
    expect(asked.authorization).to.equal(`Bearer ${KEY}`);
    expect(asked.body.messages![1]!.content).to.include('Answer questions on orders').and.include('You answer for Example Store.');
    await expectAccessible(page, 'the suggested instructions');
    await proposal.getByRole('button', { name: 'Use the suggestion' }).click();
    expect(await dialog.getByLabel('Instructions').inputValue()).to.equal(PROPOSAL);
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached' });
    const { api } = await asSuper(b);
    expect((await api.get(`/prompt/${promptId}`)).body).to.include({ prompt: PROPOSAL, hasApiKey: true, apiKeyLast4: '0001' });
  });

  it('tries the assistant: the fake model answers, the tokens count, and a hand-over names its queue', async () => {
    await page.getByRole('button', { name: 'Try Store attendant' }).click();
    const chat = page.getByRole('dialog', { name: 'Try Store attendant' });
    await chat.getByLabel('Message').fill('Where is my order?');
    await chat.getByLabel('Message').press('Enter');
    const log = chat.getByRole('list', { name: 'Test conversation' });
    await log.getByText('answer to Where is my order?').waitFor();
    expect(model.requests.at(-1)!.body.messages![0]!.content).to.include(PROPOSAL).and.include(HANDOVER_PHRASE);
    await expectAccessible(page, 'the test conversation');
    await shot(page, 'prompts', 'test-chat');

    model.reply = () => `${HANDOVER_PHRASE}. A person will answer you.`;
    await chat.getByLabel('Message').fill('I want a person');
    await chat.getByRole('button', { name: 'Send' }).click();
    await log.getByText('The assistant asked for a person: the conversation would go to Support.').waitFor();
    await log.getByText('A person will answer you.').waitFor();
    expect(model.requests.at(-1)!.body.messages!.map((m) => m.role)).to.deep.equal(['system', 'user', 'assistant', 'user']);
    await chat.getByRole('button', { name: 'Cancel' }).click();

    const { api } = await asSuper(b);
    const used = (await api.get(`/prompt/${promptId}`)).body.totalTokens as number;
    expect(used).to.be.greaterThan(0);
    await row(page, 'Store attendant')
      .getByTestId('tokens')
      .filter({ hasText: new Intl.NumberFormat('en').format(used) })
      .waitFor();
    await shot(page, 'prompts', 'list');
  });

  it('removes the saved key, seen live, and the test conversation then explains the service’s refusal', async () => {
    await page.getByRole('button', { name: 'Edit Store attendant' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit the assistant Store attendant' });
    await dialog.getByLabel('Remove the saved key').check();
    expect(await dialog.getByLabel('API key').isDisabled()).to.equal(true);
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached' });
    await row(other, 'Store attendant').getByText('Not set').waitFor();
    await page.getByRole('button', { name: 'Try Store attendant' }).click();
    const chat = page.getByRole('dialog', { name: 'Try Store attendant' });
    await chat.getByLabel('Message').fill('Hello?');
    await chat.getByRole('button', { name: 'Send' }).click();
    await chat.getByRole('alert').filter({ hasText: 'The model’s service refused the request (check the key and the model).' }).waitFor();
    expect(await chat.getByLabel('Message').inputValue(), 'the message kept to send again').to.equal('Hello?');
    await chat.getByRole('button', { name: 'Cancel' }).click();
  });

  it('deletes after asking, and the assistant leaves the other browser too', async () => {
    await row(page, 'Store attendant').getByRole('button', { name: 'Delete' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Delete the assistant Store attendant?' });
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await row(other, 'Store attendant').waitFor({ state: 'detached' });
    await other.getByText('No assistants yet.').waitFor();
  });

  it('tells an operator the screen is for administrators (the server refuses them too)', async () => {
    const { api } = await asSuper(b);
    expect((await api.post('/users', { name: 'Ana', email: 'ana@prompts.test', password: 'operator-pass-1' })).status).to.equal(201);
    const ana = (await operator(browser)).page;
    await signIn(ana, b.url, 'ana@prompts.test', 'operator-pass-1', '/app/prompts');
    await ana.getByText('Only administrators manage AI assistants.').waitFor();
    expect(await ana.getByRole('button', { name: 'New assistant' }).count()).to.equal(0);
    const token = (await login(b.url, 'ana@prompts.test', 'operator-pass-1')).token;
    expect((await client(b.url, token).get('/prompt')).status).to.equal(403);
    await ana.context().close();
  });

  it('speaks Spanish at a phone’s width', async () => {
    const { page: phone } = await operator(browser, { locale: 'es', width: 390, height: 844 });
    await phone.goto(`${b.url}/app/prompts`);
    await phone.getByLabel('Correo electrónico').fill(ADMIN.email);
    await phone.getByLabel('Contraseña').fill(ADMIN.password);
    await phone.getByRole('button', { name: 'Entrar' }).click();
    await phone.getByRole('heading', { name: 'Asistentes de IA', level: 1 }).waitFor();
    await phone.getByRole('button', { name: 'Nuevo asistente' }).click();
    await phone.getByRole('dialog', { name: 'Nuevo asistente de IA' }).getByLabel('Instrucciones').waitFor();
    const width = await phone.evaluate(() => document.documentElement.scrollWidth);
    expect(width, 'no sideways scrolling').to.be.at.most(390);
    await expectAccessible(phone, 'the assistant form in Spanish at a phone’s width');
  });
});
