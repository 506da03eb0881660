import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import { ADMIN, asSuper, type TestBackend, startTestBackend } from '../../../backend/test/support/test-backend.js';
import { expectAccessible, launchChromium, operator, prepareConsole, shot, signIn } from './support.js';

interface QueueBody {
  id: number;
  name: string;
  color: string;
  greetingMessage: string | null;
  outOfHoursMessage: string | null;
  schedules: Array<{ weekdayEn: string; startTimeA: string; endTimeA: string; startTimeB: string; endTimeB: string }>;
  users: Array<{ id: number; name: string }>;
}
interface OptionBody {
  id: number;
  parentId: number | null;
  kind: string;
  title: string;
  option: string;
  forwardQueueId: number | null;
  forwardUserId: number | null;
}

/**
 * The queues screen in Chromium against the real backend: an admin creates, edits and deletes
 * queues while a second admin's browser follows live; a duplicate name is refused at its field
 * with nothing typed lost; a queue's options and chatbots are built, reordered and refused by
 * keyboard alone, and the preview shows the menu the router sends; the screen in Portuguese at a
 * phone's width; no serious accessibility violation. The steps share one backend and one browser.
 */
describe('console: the queues screen in Chromium (skipped when /usr/bin/chromium is absent)', function () {
  this.timeout(180_000);
  let b: TestBackend;
  let browser: Browser;
  let page: Page;
  let other: Page;
  let supportId: number;
  let salesId: number;

  const row = (p: Page, name: string) => p.getByRole('row').filter({ has: p.getByRole('rowheader', { name, exact: true }) });
  const queues = async () => {
    const { api } = await asSuper(b);
    return (await api.get('/queue')).body as QueueBody[];
  };
  const options = async (queueId: number) => {
    const { api } = await asSuper(b);
    const all = [
      ...((await api.get(`/queue-options?queueId=${queueId}`)).body as OptionBody[]),
      ...(
        (await api.get(`/chatbot?queueId=${queueId}`)).body as { chatbots: Array<{ id: number; name: string; option: string; optUserId: number | null }> }
      ).chatbots.map((c) => ({ id: c.id, parentId: null, kind: 'chatbot', title: c.name, option: c.option, forwardQueueId: null, forwardUserId: c.optUserId })),
    ];
    return all;
  };
  /** Presses a button by keyboard: focus, then Enter. */
  const press = async (p: Page, name: string) => {
    await p.getByRole('button', { name, exact: true }).focus();
    await p.keyboard.press('Enter');
  };

  before(async function () {
    prepareConsole(this);
    b = await startTestBackend();
    browser = await launchChromium();
    page = (await operator(browser)).page;
    other = (await operator(browser)).page;
  });
  after(async () => {
    await browser?.close();
    await b?.close();
  });

  it('an admin creates a queue with hours and operators, and a second admin sees it appear without a reload', async () => {
    await signIn(page, b.url, ADMIN.email, ADMIN.password, '/app/queues');
    await signIn(other, b.url, ADMIN.email, ADMIN.password, '/app/queues');
    await page.getByRole('heading', { name: 'Queues', level: 1 }).waitFor();
    await page.getByText('No queues yet.').waitFor();
    await expectAccessible(page, 'the empty queues screen');

    await page.getByRole('button', { name: 'New queue' }).click();
    const dialog = page.getByRole('dialog', { name: 'New queue' });
    await dialog.getByLabel('Name').fill('Support');
    await dialog.getByLabel('Colour').fill('#3B82F6');
    await dialog.getByLabel('Greeting').fill('Welcome to support!');
    await dialog.getByLabel('Monday, First range: from').fill('08:00');
    await dialog.getByLabel('Monday, First range: to').fill('12:00');
    await dialog.getByLabel('Monday, Second range: from').fill('13:00');
    await dialog.getByLabel('Monday, Second range: to').fill('18:00');
    await dialog.getByLabel('Out-of-hours message').fill('We are closed now.');
    const admin = ((await (await asSuper(b)).api.get('/users/list')).body as Array<{ id: number; name: string }>)[0]!;
    await dialog.getByRole('checkbox', { name: admin.name }).check();
    await expectAccessible(page, 'the new queue dialog');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached' });

    await row(page, 'Support').waitFor();
    await row(other, 'Support').getByText('Welcome to support!').waitFor();
    const [support] = await queues();
    expect(support).to.include({ name: 'Support', color: '#3b82f6', greetingMessage: 'Welcome to support!', outOfHoursMessage: 'We are closed now.' });
    expect(support!.users.map((u) => u.id)).to.deep.equal([admin.id]);
    expect(support!.schedules.find((d) => d.weekdayEn === 'monday')).to.include({
      startTimeA: '08:00',
      endTimeA: '12:00',
      startTimeB: '13:00',
      endTimeB: '18:00',
    });
    expect(support!.schedules.find((d) => d.weekdayEn === 'sunday')).to.include({ startTimeA: '', endTimeA: '' });
    supportId = support!.id;
  });

  it('refuses a duplicate name at its field, keeping what was typed, then saves once corrected', async () => {
    await page.getByRole('button', { name: 'New queue' }).click();
    const dialog = page.getByRole('dialog', { name: 'New queue' });
    await dialog.getByLabel('Name').fill('support');
    await dialog.getByLabel('Greeting').fill('Hi from sales');
    await dialog.getByRole('button', { name: 'Save' }).click();
    const name = dialog.getByLabel('Name');
    await dialog.getByRole('alert').filter({ hasText: 'Another queue already has this name.' }).waitFor();
    expect(await name.getAttribute('aria-invalid')).to.equal('true');
    expect(await dialog.getByLabel('Greeting').inputValue()).to.equal('Hi from sales');
    await expectAccessible(page, 'a refused queue');
    await shot(page, 'queues', 'refused');

    await name.fill('Sales');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached' });
    await row(other, 'Sales').waitFor();
    await page.getByText('2 queues').waitFor();
    salesId = (await queues()).find((q) => q.name === 'Sales')!.id;
  });

  it('edits a queue: the rename reaches the other browser live', async () => {
    await page.getByRole('button', { name: 'Edit Support' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit the queue Support' });
    expect(await dialog.getByLabel('Monday, First range: from').inputValue()).to.equal('08:00');
    await dialog.getByLabel('Name').fill('Support desk');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached' });
    await row(other, 'Support desk').waitFor();
    expect((await queues()).find((q) => q.id === supportId)).to.include({ name: 'Support desk', greetingMessage: 'Welcome to support!' });
  });

  it('builds the menu tree by keyboard: options with a child, a chatbot, a move, a refused key; the preview is the menu the router sends', async () => {
    await press(page, 'Menus of Support desk');
    await page.getByRole('heading', { name: 'Menus of Support desk', level: 2 }).waitFor();
    const tree = page.getByRole('region', { name: 'Options' });

    for (const title of ['Billing', 'Sales line']) {
      await press(page, 'New option');
      const dialog = page.getByRole('dialog', { name: 'New option' });
      await dialog.getByLabel('Menu line').waitFor();
      await page.keyboard.type(title);
      await page.keyboard.press('Enter');
      await dialog.waitFor({ state: 'detached' });
      await tree.getByRole('listitem').filter({ hasText: title }).waitFor();
    }

    // A child of Billing that moves the conversation to the Sales queue.
    await press(page, 'Add under Billing');
    const child = page.getByRole('dialog', { name: 'New entry under Billing' });
    await child.getByLabel('Menu line').waitFor();
    await page.keyboard.type('Invoices');
    await child.getByLabel('When picked').selectOption('queue');
    await child.getByLabel('Queue', { exact: true }).selectOption({ label: 'Sales' });
    await child.getByRole('button', { name: 'Save' }).focus();
    await page.keyboard.press('Enter');
    await child.waitFor({ state: 'detached' });
    const billing = tree.getByRole('listitem').filter({ hasText: 'Billing' }).first();
    await billing.getByRole('list').getByRole('listitem').filter({ hasText: 'Invoices' }).getByText('→ queue Sales').waitFor();

    // A chatbot of the same menu that hands the conversation to an operator.
    await press(page, 'New chatbot');
    const bot = page.getByRole('dialog', { name: 'New chatbot' });
    await bot.getByLabel('Menu line').waitFor();
    await page.keyboard.type('Talk to a person');
    await bot.getByLabel('When picked').selectOption('user');
    await bot.getByLabel('Operator').selectOption({ index: 1 });
    await bot.getByRole('button', { name: 'Save' }).focus();
    await page.keyboard.press('Enter');
    await bot.waitFor({ state: 'detached' });
    await page.getByRole('region', { name: 'Chatbots' }).getByRole('listitem').filter({ hasText: 'Talk to a person' }).waitFor();
    await expectAccessible(page, 'the menu trees and preview');

    // Move "Sales line" above Billing by keyboard: the focus stays on the moved entry's button.
    await press(page, 'Move Sales line up');
    await page.getByRole('status').filter({ hasText: 'Sales line moved up.' }).waitFor({ state: 'attached' });
    const topLevel = tree.getByRole('list').first().locator(':scope > li > .menu-node .menu-node-label');
    await page.waitForFunction(() => document.activeElement?.getAttribute('aria-label') === 'Move Sales line down');
    expect(await topLevel.allTextContents()).to.deep.equal(['1 Sales line', '2 Billing']);

    const stored = await options(supportId);
    const byTitle = (t: string) => stored.find((o) => o.title === t)!;
    expect([byTitle('Sales line').option, byTitle('Billing').option, byTitle('Talk to a person').option]).to.deep.equal(['1', '2', '3']);
    expect(byTitle('Invoices')).to.include({ parentId: byTitle('Billing').id, forwardQueueId: salesId, option: '1' });
    expect(byTitle('Talk to a person').forwardUserId).to.be.a('number');

    const preview = page.getByRole('region', { name: 'What a contact sees' });
    const entering = preview.getByRole('figure').filter({ hasText: 'On entering the queue' }).locator('pre');
    expect(await entering.textContent()).to.equal('Welcome to support!\n\n*1* - Sales line\n*2* - Billing\n*3* - Talk to a person');
    await preview.getByText('Then the conversation moves to the queue Sales.').waitFor();
    await shot(page, 'queues', 'menus');

    // A key another entry of the same menu has is refused at the key, the line kept.
    await press(page, 'Edit Billing');
    const edit = page.getByRole('dialog', { name: 'Edit Billing' });
    await edit.getByLabel('Key').fill('1');
    await edit.getByLabel('Key').press('Enter');
    await edit.getByRole('alert').filter({ hasText: 'Another entry of this menu already has this key.' }).waitFor();
    expect(await edit.getByLabel('Key').getAttribute('aria-invalid')).to.equal('true');
    expect(await edit.getByLabel('Menu line').inputValue()).to.equal('Billing');
    await expectAccessible(page, 'a refused menu key');
    await page.keyboard.press('Escape');
    await edit.waitFor({ state: 'detached' });
  });

  it('deletes a queue after asking, and it leaves the other browser too', async () => {
    await row(page, 'Support desk').getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('alertdialog', { name: 'Delete the queue Support desk?' }).waitFor();
    await expectAccessible(page, 'the delete confirmation');
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
    await row(other, 'Support desk').waitFor({ state: 'detached' });
    await page.getByText('1 queue', { exact: true }).waitFor();
    expect((await queues()).map((q) => q.name)).to.deep.equal(['Sales']);
  });

  it('speaks Portuguese, and at a phone’s width each queue is a card and its menus fit', async () => {
    const { page: phone } = await operator(browser, { locale: 'pt-BR', width: 390, height: 844 });
    await phone.goto(`${b.url}/app/queues`);
    await phone.getByLabel('E-mail').fill(ADMIN.email);
    await phone.getByLabel('Senha').fill(ADMIN.password);
    await phone.getByRole('button', { name: 'Entrar' }).click();
    await phone.getByRole('heading', { name: 'Filas', level: 1 }).waitFor();
    await row(phone, 'Sales').waitFor();
    await phone.getByRole('button', { name: 'Menus de Sales' }).click();
    await phone.getByRole('heading', { name: 'O que o contato vê' }).waitFor();
    const width = await phone.evaluate(() => document.documentElement.scrollWidth);
    expect(width, 'no sideways scrolling').to.be.at.most(390);
    await expectAccessible(phone, 'the queues screen in Portuguese at a phone’s width');
    await shot(phone, 'queues', 'phone-pt-BR');
    await phone.getByRole('button', { name: 'Nova fila' }).click();
    await phone.getByRole('dialog', { name: 'Nova fila' }).getByLabel('Segunda-feira, Primeiro intervalo: das').waitFor();
    await expectAccessible(phone, 'the queue dialog in Portuguese at a phone’s width');
    await shot(phone, 'queues', 'phone-dialog-pt-BR');
  });
});
