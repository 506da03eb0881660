import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import { eventually, sandboxDesk } from '../../../backend/test/support/sandbox-conversations.js';
import { ADMIN, type TestBackend, startTestBackend } from '../../../backend/test/support/test-backend.js';
import { expectAccessible, launchChromium, operator, prepareConsole, shot, signIn } from './support.js';

/**
 * The contacts screen in Chromium against the real backend: an admin creates a contact with other
 * fields (its number's profile looked up at the sandbox) while a second admin's browser follows
 * live; a taken and an invalid number refused at the number field with nothing typed lost; an edit
 * with the block, bot, responsible and linked user; a CSV import with one bad row, its progress to
 * the end and the refused row listed; a phone's address book brought in through a chosen connection; the tag filter; the export as CSV; a conversation started;
 * a delete after asking; 10,000 contacts scrolled to the last one with few rows in the page; the
 * screen in Portuguese at a phone's width. One backend and one browser, steps in order.
 */
describe('console: the contacts screen in Chromium (skipped when /usr/bin/chromium is absent)', function () {
  this.timeout(240_000);
  let b: TestBackend;
  let browser: Browser;
  let page: Page;
  let other: Page;
  let desk: Awaited<ReturnType<typeof sandboxDesk>>;
  let mariaId: number;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'contacts-e2e-'));

  const row = (p: Page, name: string) => p.getByRole('row').filter({ has: p.getByRole('rowheader', { name, exact: true }) });
  const find = async (search: string) =>
    ((await desk.admin.get(`/contacts?searchParam=${encodeURIComponent(search)}`)).body.contacts as Array<Record<string, any>>)[0];

  before(async function () {
    prepareConsole(this);
    b = await startTestBackend();
    desk = await sandboxDesk(b);
    browser = await launchChromium();
    page = (await operator(browser)).page;
    other = (await operator(browser)).page;
  });
  after(async () => {
    await browser?.close();
    await b?.close();
  });

  it('an admin creates a contact with other fields and its looked-up name; a second admin sees it without a reload', async () => {
    await signIn(page, b.url, ADMIN.email, ADMIN.password, '/app/contacts');
    await signIn(other, b.url, ADMIN.email, ADMIN.password, '/app/contacts');
    await page.getByRole('heading', { name: 'Contacts', level: 1 }).waitFor();
    await page.getByText('No contacts yet.').waitFor();
    await expectAccessible(page, 'the empty contacts screen');

    await page.getByRole('button', { name: 'New contact' }).click();
    const dialog = page.getByRole('dialog', { name: 'New contact' });
    await dialog.getByLabel('Number').fill('+55 11 98888-7777');
    await dialog.getByRole('button', { name: 'Look up the number’s profile' }).click();
    await dialog.getByText('The channel knows this number as Sandbox 7777.').waitFor();
    await dialog.getByRole('button', { name: 'Use this name' }).click();
    expect(await dialog.getByLabel('Name', { exact: true }).inputValue()).to.equal('Sandbox 7777');
    await dialog.getByLabel('Name', { exact: true }).fill('Maria Souza');
    await dialog.getByLabel('E-mail').fill('Maria@Example.com');
    await dialog.getByRole('button', { name: 'Add a field' }).click();
    await dialog.getByLabel('Label of field 1').fill('CPF');
    await dialog.getByLabel('Value of field 1').fill('123.456.789-09');
    await dialog.getByLabel('Chatbots leave this contact alone').check();
    await expectAccessible(page, 'the new contact dialog');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached' });

    await row(page, 'Maria Souza').getByText('5511988887777').waitFor();
    await row(other, 'Maria Souza').getByText('Bot off').waitFor();
    const maria = await find('Maria');
    expect(maria).to.deep.include({ name: 'Maria Souza', number: '5511988887777', email: 'maria@example.com', disableBot: true, acceptAudioMessage: true });
    expect(maria!.extraInfo).to.deep.equal([{ name: 'CPF', value: '123.456.789-09' }]);
    mariaId = maria!.id;
  });

  it('refuses a number already taken, then an invalid one, at the number field, keeping what was typed', async () => {
    await page.getByRole('button', { name: 'New contact' }).click();
    const dialog = page.getByRole('dialog', { name: 'New contact' });
    await dialog.getByLabel('Name', { exact: true }).fill('Maria again');
    await dialog.getByLabel('Number').fill('5511988887777');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByRole('alert').filter({ hasText: 'Another contact already has this number.' }).waitFor();
    expect(await dialog.getByLabel('Number').getAttribute('aria-invalid')).to.equal('true');
    expect(await dialog.getByLabel('Name', { exact: true }).inputValue()).to.equal('Maria again');
    await expectAccessible(page, 'a refused contact');
    await shot(page, 'contacts', 'refused');

    await dialog.getByLabel('Number').fill('123');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByRole('alert').filter({ hasText: 'The number must have 8 to 15 digits' }).waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect((await desk.admin.get('/contacts')).body.count).to.equal(1);
  });

  it('edits a contact: the rename, the block, the responsible and the linked user, the other browser following live', async () => {
    await page.getByRole('button', { name: 'Edit Maria Souza' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit the contact Maria Souza' });
    expect(await dialog.getByLabel('Value of field 1').inputValue()).to.equal('123.456.789-09');
    await dialog.getByLabel('Blocked: messages from this contact open no conversation').check();
    await row(other, 'Maria Souza').getByText('Blocked · Bot off').waitFor();
    await dialog.getByLabel('Responsible').selectOption({ label: 'Ana' });
    await dialog.getByText(/^Since .*, set by /).waitFor();
    await dialog.getByLabel('This contact is the user').selectOption({ label: 'Bia' });
    await dialog.getByRole('button', { name: 'Link' }).click();
    await dialog.getByText('Linked to Bia.').waitFor();
    await expectAccessible(page, 'the contact dialog with its settings');
    await shot(page, 'contacts', 'edit');
    await dialog.getByLabel('Name', { exact: true }).fill('Maria S. Souza');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached' });
    await row(other, 'Maria S. Souza').waitFor();

    const maria = (await desk.admin.get(`/contacts/${mariaId}`)).body;
    expect(maria).to.deep.include({ name: 'Maria S. Souza', blocked: true, disableBot: true, walletUserId: desk.ana.id, linkedUserId: desk.bia.id });
    const responsible = (await desk.admin.get(`/contact-sellers/responsible/${mariaId}`)).body;
    expect(responsible.seller).to.deep.equal({ id: desk.ana.id, name: 'Ana' });
  });

  it('imports a CSV with one bad row: the progress reaches the end and the refused row is listed; the list follows', async () => {
    const file = path.join(dir, 'contacts.csv');
    writeFileSync(file, 'name,number,email\nJoão Lima,5511977770001,joao@example.com\nBad Number,12,\n=HYPERLINK("http://x"),5511977770003,\n');
    await page.getByRole('button', { name: 'Import' }).click();
    const dialog = page.getByRole('dialog', { name: 'Import contacts' });
    await dialog.getByLabel('File').setInputFiles(file);
    await dialog.getByRole('button', { name: 'Import' }).click();
    await dialog.getByText('Import finished: 2 created, 0 merged, 1 refused.').waitFor();
    await dialog.getByText('3 of 3 rows').waitFor();
    const progress = dialog.getByRole('progressbar', { name: 'Import progress' });
    expect(await progress.evaluate((e) => [(e as HTMLProgressElement).value, (e as HTMLProgressElement).max])).to.deep.equal([3, 3]);
    const refused = dialog.getByRole('table', { name: 'Refused rows' });
    expect(await refused.getByRole('rowheader').allTextContents()).to.deep.equal(['3']);
    await refused.getByText('The number must have 8 to 15 digits').waitFor();
    await expectAccessible(page, 'an import with a refused row');
    await shot(page, 'contacts', 'import');
    await dialog.getByRole('button', { name: 'Close' }).first().click();
    await row(other, 'João Lima').waitFor();
    await other.getByText('3 contacts').waitFor();
    expect((await desk.admin.get('/contacts')).body.count).to.equal(3);
  });

  it('refuses a file that is not a table at the file field', async () => {
    const file = path.join(dir, 'notes.txt');
    writeFileSync(file, 'just some words');
    await page.getByRole('button', { name: 'Import' }).click();
    const dialog = page.getByRole('dialog', { name: 'Import contacts' });
    await dialog.getByLabel('File').setInputFiles(file);
    await dialog.getByRole('button', { name: 'Import' }).click();
    await dialog.getByRole('alert').waitFor();
    expect(await dialog.getByLabel('File').getAttribute('aria-invalid')).to.equal('true');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
  });

  it('filters by tag and by search', async () => {
    const tag = (await desk.admin.post('/tags', { name: 'VIP', color: '#aa8800' })).body;
    const joao = await find('João');
    expect((await desk.admin.post('/tags/sync', { contactId: joao!.id, tagIds: [tag.id] })).status).to.equal(200);
    await row(page, 'João Lima').getByText('VIP').waitFor();
    await page.getByLabel('Tag').selectOption({ label: 'VIP' });
    await page.getByText('1 contact', { exact: true }).waitFor();
    expect(await page.getByRole('rowheader').allTextContents()).to.deep.equal(['João Lima']);
    await page.getByLabel('Tag').selectOption({ label: 'Any tag' });
    await page.getByLabel('Search by name, e-mail or number').fill('7770003');
    await page.getByText('1 contact', { exact: true }).waitFor();
    await page.getByLabel('Search by name, e-mail or number').fill('');
    await page.getByText('3 contacts').waitFor();
  });

  it('exports the filter as a CSV that spreadsheets open as text', async () => {
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
    const csv = readFileSync((await download.path())!, 'utf8');
    expect(csv.charCodeAt(0)).to.equal(0xfeff);
    const lines = csv.slice(1).split('\r\n');
    expect(lines[0]).to.equal('"Name","Number","E-mail","Tags","Blocked","Accepts audio","Bot disabled","Other fields","Created"');
    expect(lines.filter(Boolean)).to.have.length(4);
    expect(lines.find((l) => l.includes('5511977770003'))).to.match(/^"'=HYPERLINK\(""http:\/\/x""\)","5511977770003"/);
    expect(lines.find((l) => l.includes('5511988887777'))).to.include('"CPF: 123.456.789-09"');
    await page.getByText('3 contacts exported.').waitFor();
  });

  it('starts a conversation with a contact and opens it', async () => {
    await row(page, 'João Lima').getByRole('button', { name: 'Conversation with João Lima' }).click();
    // The conversation opens, or the refusal says why not.
    await page.waitForFunction(() => /\/tickets\/\d+$/.test(location.pathname) || document.querySelector('[role="alert"]'));
    expect(await page.getByRole('alert').allTextContents(), 'no refusal').to.deep.equal([]);
    const ticketId = Number(page.url().split('/').pop());
    const ticket = (await desk.admin.get(`/tickets/${ticketId}`)).body;
    expect(ticket.contact.name).to.equal('João Lima');
    await page.goto(`${b.url}/app/contacts`);
    await row(page, 'João Lima').waitFor();
  });

  it('deletes a contact after asking, and it leaves the other browser too', async () => {
    await row(page, 'Maria S. Souza').getByRole('button', { name: 'Delete' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Delete the contact Maria S. Souza?' });
    await expectAccessible(page, 'the delete confirmation');
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await row(other, 'Maria S. Souza').waitFor({ state: 'detached' });
    expect((await desk.admin.get(`/contacts/${mariaId}`)).status).to.equal(404);
  });

  it('scrolls 10,000 contacts to the last one with only the rows in view in the page', async () => {
    const contacts = Array.from({ length: 10_000 }, (_, i) => ({
      name: `Zz Bulk ${String(i).padStart(5, '0')}`,
      number: `55119${String(i).padStart(8, '0')}`,
    }));
    const started = await desk.admin.post('/contactsImport', { contacts });
    expect(started.status, JSON.stringify(started.body)).to.equal(200);
    await eventually(
      'the bulk import to end',
      async () => (await desk.admin.post('/contactsImport', { importId: started.body.importId })).body.status === 'done',
      // Ten thousand rows: a few seconds alone, more on a shared machine.
      60_000,
    );
    await page.getByText('10,002 contacts').waitFor();
    const scroller = page.getByTestId('contacts-scroll');
    await scroller.evaluate((e) => e.scrollTo(0, e.scrollHeight));
    await row(page, 'Zz Bulk 09999').waitFor();
    await scroller.evaluate((e) => e.scrollTo(0, e.scrollHeight / 2));
    await page
      .getByRole('rowheader', { name: /^Zz Bulk 04/ })
      .first()
      .waitFor();
    const rows = await page.locator('[data-testid="contacts-scroll"] tbody tr').count();
    expect(rows, 'rows in the page').to.be.below(80);
    // The list places its rows by a fixed height without measuring them: every row must be that high.
    const heights = await page
      .locator('[data-testid="contacts-scroll"] tbody tr[data-testid^="contact-"]')
      .evaluateAll((trs) => trs.map((tr) => tr.getBoundingClientRect().height));
    expect(heights.length, 'contact rows shown').to.be.above(5);
    expect([...new Set(heights.map((h) => Math.round(h)))], 'row heights').to.deep.equal([56]);
  });

  it('brings in a connected phone’s address book after asking which connection; a disconnected one is refused at its field', async () => {
    const idle = await desk.admin.post('/chatapp/', { name: 'Old phone', provider: 'baileys' });
    expect(idle.status, JSON.stringify(idle.body)).to.equal(201);
    await page.getByRole('button', { name: 'From a phone' }).click();
    const dialog = page.getByRole('dialog', { name: 'Bring in a phone’s address book' });
    const connection = dialog.getByLabel('Connection');
    await connection.selectOption(String(idle.body.id));
    await dialog.getByRole('button', { name: 'Bring them in' }).click();
    await dialog.getByText('session is not connected, so its phone cannot be asked', { exact: false }).waitFor();
    expect(await connection.getAttribute('aria-invalid')).to.equal('true');
    await connection.selectOption(String(desk.connectionId));
    await dialog.getByRole('button', { name: 'Bring them in' }).click();
    await dialog
      .getByTestId('import-state')
      .filter({ hasText: /^Import finished: \d+ created, \d+ merged, 0 refused\.$/ })
      .waitFor();
    await expectAccessible(page, 'the address book import from a phone');
    await dialog.getByRole('button', { name: 'Close' }).click();
    // The list follows the import's contacts (among the 10,000 of the step before: searched).
    const search = page.getByRole('searchbox', { name: 'Search' });
    await search.fill('Bruno Sandbox');
    await row(page, 'Bruno Sandbox').waitFor();
    await search.fill('');
  });

  it('speaks Portuguese, and at a phone’s width each contact is a card', async () => {
    const { page: phone } = await operator(browser, { locale: 'pt-BR', width: 390, height: 844 });
    await phone.goto(`${b.url}/app/contacts`);
    await phone.getByLabel('E-mail').fill(ADMIN.email);
    await phone.getByLabel('Senha').fill(ADMIN.password);
    await phone.getByRole('button', { name: 'Entrar' }).click();
    await phone.getByRole('heading', { name: 'Contatos', level: 1 }).waitFor();
    await row(phone, 'João Lima').waitFor();
    await phone.getByRole('button', { name: 'Novo contato' }).waitFor();
    const width = await phone.evaluate(() => document.documentElement.scrollWidth);
    expect(width, 'no sideways scrolling').to.be.at.most(390);
    await expectAccessible(phone, 'the contacts screen in Portuguese at a phone’s width');
    await shot(phone, 'contacts', 'phone-pt-BR');
  });
});
