import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import { asSuper, client, login, type TestBackend, startTestBackend } from '../../../backend/test/support/test-backend.js';
import { expectAccessible, launchChromium, operator, prepareConsole, shot, signIn } from './support.js';

const PASSWORD = 'operator-pass-1';

/**
 * The internal chats in Chromium against the real backend, with two members in two browsers: Ana
 * creates a chat with Bia and writes (a double Enter sends once); Bia sees the nav's badge and the
 * message arrive live, opens it (read: the badge and the unread count go) and answers over two
 * lines, which Ana sees live; Bia's read mark reaching Ana live; a file sent from the composer
 * and seen live; Ana renames the chat, seen live by Bia, who is offered
 * no edit; Caio, of the same company but not a member, neither sees it nor is let in by the API;
 * older messages come on scrolling up, in Portuguese at a phone's width with the back link; Ana
 * deletes it after the warning and Bia is told it is gone. The steps share one backend, in order.
 */
describe('console: the internal chats in Chromium (skipped when /usr/bin/chromium is absent)', function () {
  this.timeout(180_000);
  let b: TestBackend;
  let browser: Browser;
  let ana: Page;
  let bia: Page;
  let chatId: number;
  const users: Record<string, { id: number; token: string }> = {};

  const chatLink = (p: Page, title: string) => p.getByRole('list', { name: /chats/i }).getByRole('link').filter({ hasText: title });
  const log = (p: Page) => p.getByRole('log');
  const asUser = (name: string) => client(b.url, users[name]!.token);

  before(async function () {
    prepareConsole(this);
    b = await startTestBackend();
    const { api } = await asSuper(b);
    for (const name of ['Ana', 'Bia', 'Caio']) {
      const email = `${name.toLowerCase()}@chats.test`;
      const res = await api.post('/users', { name, email, password: PASSWORD, profile: 'user' });
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      users[name] = { id: res.body.id as number, token: (await login(b.url, email, PASSWORD)).token };
    }
    browser = await launchChromium();
    ana = (await operator(browser)).page;
    bia = (await operator(browser)).page;
  });
  after(async () => {
    await browser?.close();
    await b?.close();
  });

  it('Ana creates a chat with Bia and writes; Bia sees the badge and the message live, and reading clears them', async () => {
    await signIn(ana, b.url, 'ana@chats.test', PASSWORD, '/app/chats');
    await signIn(bia, b.url, 'bia@chats.test', PASSWORD, '/app/tickets');
    await ana.getByRole('heading', { name: 'Chats', level: 1 }).waitFor();
    await ana.getByText('No chats yet.').waitFor();
    await expectAccessible(ana, 'the empty chats screen');

    await ana.getByRole('button', { name: 'New chat' }).click();
    const dialog = ana.getByRole('dialog', { name: 'New chat' });
    await dialog.getByLabel('Title').fill('Weekend shift');
    await dialog.getByRole('checkbox', { name: 'Bia' }).check();
    await expectAccessible(ana, 'the new chat dialog');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached' });
    await ana.getByRole('heading', { name: 'Weekend shift', level: 2 }).waitFor();
    chatId = Number(/\/chats\/(\d+)/.exec(ana.url())![1]);
    const created = await asUser('Ana').get(`/chats/${chatId}`);
    expect(created.body.users.map((u: { userId: number }) => u.userId).sort()).to.deep.equal([users.Ana!.id, users.Bia!.id].sort());

    // A double Enter sends once.
    const composer = ana.getByRole('textbox', { name: 'Message' });
    await composer.fill('Hello Bia, are you on call?');
    await composer.press('Enter');
    await composer.press('Enter');
    await log(ana).getByText('Hello Bia, are you on call?').waitFor();
    expect(await composer.inputValue()).to.equal('');
    expect((await asUser('Ana').get(`/chats/${chatId}/messages`)).body.count).to.equal(1);
    await ana.getByTestId('chat-read-mark').filter({ hasText: 'Not read yet' }).waitFor();

    // Bia, elsewhere in the console, gets the badge live.
    await bia.getByTestId('chats-badge').filter({ hasText: '1' }).waitFor();
    await expectAccessible(bia, 'the nav with the chats badge');
    await bia.getByRole('link', { name: /^Chats/ }).click();
    const row = chatLink(bia, 'Weekend shift');
    await row.filter({ hasText: 'Ana: Hello Bia, are you on call?' }).getByText('1 unread message').waitFor();
    await shot(bia, 'chats', 'unread');
    await row.click();
    await log(bia).getByText('Hello Bia, are you on call?').waitFor();
    await log(bia).getByText('Ana', { exact: true }).waitFor();
    // Opening it read it: the count and the badge go, here and for the server.
    await bia.getByTestId('chats-badge').waitFor({ state: 'detached' });
    await row.getByText('1 unread message').waitFor({ state: 'detached' });
    const seen = await asUser('Bia').get(`/chats/${chatId}`);
    expect(seen.body.users.find((u: { userId: number }) => u.userId === users.Bia!.id).unreads).to.equal(0);
    await expectAccessible(bia, 'a chat open');
  });

  it('Bia answers over two lines and Ana sees it live; Ana reads the read mark', async () => {
    const composer = bia.getByRole('textbox', { name: 'Message' });
    await composer.fill('Yes, until 6 pm.');
    await composer.press('Shift+Enter');
    await composer.pressSequentially('Call me if needed.');
    expect(await composer.inputValue()).to.equal('Yes, until 6 pm.\nCall me if needed.');
    await composer.press('Enter');
    await log(bia).getByText('Call me if needed.').waitFor();

    await log(ana).getByText('Call me if needed.').waitFor();
    await log(ana).getByText('Bia', { exact: true }).waitFor();
    // Ana has the chat open: it is read at once, and no badge shows for her.
    await chatLink(ana, 'Weekend shift').filter({ hasText: 'Bia: Yes, until 6 pm.' }).waitFor();
    await ana.getByTestId('chats-badge').waitFor({ state: 'detached' });
    const mine = await asUser('Ana').get(`/chats/${chatId}`);
    expect(mine.body.users.map((u: { unreads: number }) => u.unreads)).to.deep.equal([0, 0]);

    // Ana writes again while Bia looks at another screen: Bia's unread count, then her read, show in Ana's read mark.
    await bia.getByRole('link', { name: 'Inbox' }).click();
    await ana.getByRole('textbox', { name: 'Message' }).fill('Thanks!');
    await ana.getByRole('textbox', { name: 'Message' }).press('Enter');
    await ana.getByTestId('chat-read-mark').filter({ hasText: 'Not read yet' }).waitFor();
    await bia.getByTestId('chats-badge').filter({ hasText: '1' }).waitFor();
    await bia.getByRole('link', { name: /^Chats/ }).click();
    await chatLink(bia, 'Weekend shift').getByText('1 unread message').waitFor();
    await chatLink(bia, 'Weekend shift').click();
    await log(bia).getByText('Thanks!').waitFor();
    await bia.getByTestId('chats-badge').waitFor({ state: 'detached' });
    // Bia's read mark reaches Ana live, without a reload.
    await ana.getByTestId('chat-read-mark').filter({ hasText: 'Read by everyone' }).waitFor();
  });

  it('Ana sends a file with a caption from the composer; Bia sees it live as a link', async () => {
    const [chooser] = await Promise.all([ana.waitForEvent('filechooser'), ana.getByRole('button', { name: 'Attach files' }).click()]);
    await chooser.setFiles({ name: 'roster.txt', mimeType: 'text/plain', buffer: Buffer.from('Saturday: Ana, Bia\n') });
    const files = ana.getByRole('list', { name: 'Files to send' });
    await files.getByText('roster.txt').waitFor();
    await ana.getByRole('textbox', { name: 'Message' }).fill('The roster');
    await expectAccessible(ana, 'the composer with a file');
    await ana.getByRole('button', { name: 'Send', exact: true }).click();
    await files.waitFor({ state: 'detached' });
    await log(ana).getByRole('link', { name: 'roster.txt' }).waitFor();
    const link = log(bia).getByRole('link', { name: 'roster.txt' });
    await link.waitFor();
    await log(bia).getByText('The roster', { exact: true }).waitFor();
    const sent = (await asUser('Bia').get(`/chats/${chatId}/messages`)).body.records.at(-1);
    expect(sent).to.include({ message: 'The roster', mediaName: 'roster.txt', mediaType: 'document' });
    expect(await link.getAttribute('href')).to.match(new RegExp(`/chats/${chatId}/[0-9a-f-]{36}-roster\\.txt$`));
  });

  it('the owner renames the chat, seen live by Bia, who is offered no edit or delete', async () => {
    expect(await bia.getByRole('button', { name: 'Edit' }).count()).to.equal(0);
    expect(await bia.getByRole('button', { name: 'Delete' }).count()).to.equal(0);
    await ana.getByRole('button', { name: 'Edit' }).click();
    const dialog = ana.getByRole('dialog', { name: 'Edit the chat Weekend shift' });
    await dialog.getByLabel('Title').fill('');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByRole('alert').first().waitFor();
    await dialog.getByLabel('Title').fill('Saturday shift');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached' });
    await ana.getByRole('heading', { name: 'Saturday shift', level: 2 }).waitFor();
    await bia.getByRole('heading', { name: 'Saturday shift', level: 2 }).waitFor();
    await chatLink(bia, 'Saturday shift').waitFor();
    // The server's own rule: only the owner edits.
    const refused = await asUser('Bia').put(`/chats/${chatId}`, { title: 'Mine' });
    expect([refused.status, refused.body]).to.deep.equal([403, { error: 'ERR_NO_PERMISSION' }]);
  });

  it('Caio, of the same company but no member, neither sees the chat nor is let in', async () => {
    const { page: caio, context } = await operator(browser);
    await signIn(caio, b.url, 'caio@chats.test', PASSWORD, '/app/chats');
    await caio.getByText('No chats yet.').waitFor();
    expect(await caio.getByTestId('chats-badge').count()).to.equal(0);
    await caio.goto(`${b.url}/app/chats/${chatId}`);
    await caio.getByRole('alert').filter({ hasText: 'This chat was deleted, or you are no longer one of its members.' }).waitFor();
    expect(await caio.getByText('Hello Bia').count()).to.equal(0);
    for (const res of [
      await asUser('Caio').get(`/chats/${chatId}`),
      await asUser('Caio').get(`/chats/${chatId}/messages`),
      await asUser('Caio').post(`/chats/${chatId}/messages`, { message: 'let me in' }),
      await asUser('Caio').delete(`/chats/${chatId}`),
    ]) {
      expect([res.status, res.body]).to.deep.equal([404, { error: 'ERR_NO_CHAT_FOUND' }]);
    }
    await context.close();
  });

  it('in Portuguese at a phone’s width: the list or the chat, a back link, older messages on scrolling up', async () => {
    // Bia's other browser leaves the chat, which it would otherwise read as the messages arrive.
    await bia.getByRole('link', { name: 'Inbox' }).click();
    for (let i = 1; i <= 30; i++) {
      const res = await asUser('Ana').post(`/chats/${chatId}/messages`, { message: `Mensagem ${i}` });
      expect(res.status).to.equal(200);
    }
    const { page: phone, context } = await operator(browser, { locale: 'pt-BR', width: 390, height: 844 });
    await phone.goto(`${b.url}/app/chats`);
    await phone.getByLabel('E-mail').fill('bia@chats.test');
    await phone.getByLabel('Senha').fill(PASSWORD);
    await phone.getByRole('button', { name: 'Entrar' }).click();
    await phone.getByRole('heading', { name: 'Chats', level: 1 }).waitFor();
    await chatLink(phone, 'Saturday shift').getByText('30 mensagens não lidas').waitFor();
    await expectAccessible(phone, 'the chats list on a phone, in Portuguese');
    await chatLink(phone, 'Saturday shift').click();
    const messages = phone.getByRole('log', { name: 'Mensagens de Saturday shift' });
    await messages.getByText('Mensagem 30', { exact: true }).waitFor();
    // The list is hidden while a chat is open; the newest 20 first, the rest on scrolling up.
    expect(await phone.getByRole('heading', { name: 'Chats', level: 1 }).isVisible()).to.equal(false);
    expect(await messages.getByText('Mensagem 1', { exact: true }).count()).to.equal(0);
    await phone.locator('.chats-messages').evaluate((el) => {
      el.scrollTop = 0;
    });
    await messages.getByText('Mensagem 1', { exact: true }).waitFor();
    await messages.getByText('Hello Bia, are you on call?').waitFor();
    await phone.getByRole('textbox', { name: 'Mensagem' }).waitFor();
    await expectAccessible(phone, 'a chat on a phone, in Portuguese');
    await shot(phone, 'chats', 'phone');
    await phone.getByRole('link', { name: 'Voltar aos chats' }).click();
    await chatLink(phone, 'Saturday shift').waitFor();
    await context.close();
    await bia.getByRole('link', { name: /^Chats/ }).click();
    await chatLink(bia, 'Saturday shift').click();
    await log(bia).getByText('Mensagem 30', { exact: true }).waitFor();
  });

  it('the owner deletes the chat after the warning; Bia is told it is gone, live', async () => {
    await ana.getByRole('button', { name: 'Delete' }).click();
    const confirm = ana.getByRole('alertdialog', { name: 'Delete the chat Saturday shift?' });
    await confirm.getByText('Its messages and files are deleted for every member.').waitFor();
    await expectAccessible(ana, 'the delete warning');
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await ana.getByText('No chats yet.').waitFor();
    await bia.getByRole('alert').filter({ hasText: 'This chat was deleted, or you are no longer one of its members.' }).waitFor();
    await bia.getByText('No chats yet.').waitFor();
    const gone = await asUser('Ana').get(`/chats/${chatId}`);
    expect([gone.status, gone.body]).to.deep.equal([404, { error: 'ERR_NO_CHAT_FOUND' }]);
  });
});
