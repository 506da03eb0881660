import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import { asSuper, client, login, type TestBackend, startTestBackend, ADMIN } from '../../../backend/test/support/test-backend.js';
import { expectAccessible, launchChromium, operator, prepareConsole, shot, signIn } from './support.js';

/**
 * The tags screen in Chromium against the real backend: an admin creates, edits and deletes tags
 * while a second admin's browser follows live; a duplicate name is refused at its field with
 * nothing typed lost; an operator (`user` profile) reads them without the buttons; the screen in
 * Portuguese; no serious accessibility violation; the phone's width. The steps share one backend
 * and one browser, in order.
 */
describe('console: the tags screen in Chromium (skipped when /usr/bin/chromium is absent)', function () {
  this.timeout(120_000);
  let b: TestBackend;
  let browser: Browser;
  let page: Page;
  let other: Page;
  let billingId: number;

  const row = (p: Page, name: string) => p.getByRole('row').filter({ has: p.getByRole('rowheader', { name, exact: true }) });

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

  it('an admin creates a tag and a second admin sees it appear without a reload', async () => {
    await signIn(page, b.url, ADMIN.email, ADMIN.password, '/app/tags');
    await signIn(other, b.url, ADMIN.email, ADMIN.password, '/app/tags');
    await page.getByRole('heading', { name: 'Tags', level: 1 }).waitFor();
    await page.getByText('No tags yet.').waitFor();
    await expectAccessible(page, 'the empty tags screen');

    await page.getByRole('button', { name: 'New tag' }).click();
    const dialog = page.getByRole('dialog', { name: 'New tag' });
    await dialog.getByLabel('Name').fill('Billing');
    await dialog.getByLabel('Colour').fill('#3B82F6');
    await dialog.getByLabel('A lane of the kanban board').check();
    await expectAccessible(page, 'the new tag dialog');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached' });

    await row(page, 'Billing').getByText('Lane 0').waitFor();
    await row(other, 'Billing').getByText('Lane 0').waitFor();
    const { api } = await asSuper(b);
    const tags = (await api.get('/tags/list')).body as Array<{ id: number; name: string; color: string; kanban: boolean }>;
    expect(tags.map((t) => [t.name, t.color, t.kanban])).to.deep.equal([['Billing', '#3b82f6', true]]);
    billingId = tags[0]!.id;
  });

  it('refuses a duplicate name at its field, keeping what was typed, then saves once corrected', async () => {
    await page.getByRole('button', { name: 'New tag' }).click();
    const dialog = page.getByRole('dialog', { name: 'New tag' });
    await dialog.getByLabel('Name').fill('billing');
    await dialog.getByLabel('Colour').fill('#ef4444');
    await dialog.getByRole('button', { name: 'Save' }).click();
    const name = dialog.getByLabel('Name');
    await dialog.getByRole('alert').filter({ hasText: 'Another tag already has this name.' }).waitFor();
    expect(await name.getAttribute('aria-invalid')).to.equal('true');
    expect(await dialog.getByLabel('Colour').inputValue()).to.equal('#ef4444');
    await expectAccessible(page, 'a refused tag');
    await shot(page, 'tags', 'refused');

    await name.fill('Urgent');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached' });
    await row(other, 'Urgent').waitFor();
    await page.getByText('2 tags').waitFor();
  });

  it('edits a tag: the rename reaches the other browser live', async () => {
    await page.getByRole('button', { name: 'Edit Billing' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit the tag Billing' });
    expect(await dialog.getByLabel('Colour').inputValue()).to.equal('#3b82f6');
    await dialog.getByLabel('Name').fill('Billing disputes');
    await dialog.getByLabel('Place on the board').fill('3');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached' });
    await row(other, 'Billing disputes').getByText('Lane 3').waitFor();
    const { api } = await asSuper(b);
    expect((await api.get(`/tags/${billingId}`)).body).to.include({ name: 'Billing disputes', laneOrder: 3 });
  });

  it('searches by name', async () => {
    await page.getByLabel('Search tags').fill('urg');
    await page.getByText('1 tag', { exact: true }).waitFor();
    expect(await page.getByRole('rowheader').allTextContents()).to.deep.equal(['Urgent']);
    await page.getByLabel('Search tags').fill('nothing like it');
    await page.getByText('No tag matches this search.').waitFor();
    await page.getByLabel('Search tags').fill('');
    await page.getByText('2 tags').waitFor();
  });

  it('deletes a tag after asking, and it leaves the other browser too', async () => {
    await row(page, 'Urgent').getByRole('button', { name: 'Delete' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Delete the tag Urgent?' });
    await expectAccessible(page, 'the delete confirmation');
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await row(other, 'Urgent').waitFor({ state: 'detached' });
    await page.getByText('1 tag', { exact: true }).waitFor();
    const { api } = await asSuper(b);
    expect(((await api.get('/tags/list')).body as Array<{ name: string }>).map((t) => t.name)).to.deep.equal(['Billing disputes']);
  });

  it('an operator reads the tags without the buttons that would change them; the menu leads there', async () => {
    const { api } = await asSuper(b);
    const created = await api.post('/users', { name: 'Ana', email: 'ana@tags.test', password: 'operator-pass-1' });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    const ana = (await operator(browser)).page;
    await signIn(ana, b.url, 'ana@tags.test', 'operator-pass-1');
    await ana.getByRole('button', { name: 'Manage' }).click();
    await ana.getByRole('menuitem', { name: 'Tags' }).click();
    await row(ana, 'Billing disputes').waitFor();
    await ana.getByText('Only administrators change tags.').waitFor();
    expect(await ana.getByRole('button', { name: 'New tag' }).count()).to.equal(0);
    expect(await ana.getByRole('button', { name: 'Edit Billing disputes' }).count()).to.equal(0);
    // The server refuses an operator's change anyway: the screen only spares the attempt.
    const token = (await login(b.url, 'ana@tags.test', 'operator-pass-1')).token;
    expect((await client(b.url, token).post('/tags', { name: 'Mine' })).status).to.equal(403);
  });

  it('speaks Portuguese, and at a phone’s width each tag is a card', async () => {
    const { page: phone } = await operator(browser, { locale: 'pt-BR', width: 390, height: 844 });
    await phone.goto(`${b.url}/app/tags`);
    await phone.getByLabel('E-mail').fill(ADMIN.email);
    await phone.getByLabel('Senha').fill(ADMIN.password);
    await phone.getByRole('button', { name: 'Entrar' }).click();
    await phone.getByRole('heading', { name: 'Etiquetas', level: 1 }).waitFor();
    await row(phone, 'Billing disputes').getByText('Coluna 3').waitFor();
    await phone.getByRole('button', { name: 'Nova etiqueta' }).waitFor();
    const width = await phone.evaluate(() => document.documentElement.scrollWidth);
    expect(width, 'no sideways scrolling').to.be.at.most(390);
    await expectAccessible(phone, 'the tags screen in Portuguese at a phone’s width');
    await shot(phone, 'tags', 'phone-pt-BR');
  });
});
