import { expect } from 'chai';
import type { BrowserContext, Page } from 'playwright-core';
import type { Browser } from 'playwright-core';
import { eventually } from '../../../backend/test/support/sandbox-conversations.js';
import { ADMIN, asSuper, startTestBackend, type TestBackend } from '../../../backend/test/support/test-backend.js';
import { expectAccessible, launchChromium, operator, prepareConsole, shot, signIn } from './support.js';

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n', 'latin1');
/** An MP4's header then padding: half a megabyte, recognised as video by its bytes. */
const MP4 = Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypisom', 'latin1'), Buffer.alloc(512 * 1024, 1)]);

/**
 * The file lists screen in Chromium against the real backend: a list created with three files,
 * each previewed before it is sent (the image shown, the PDF linked), the video's upload seen in
 * its progress bar on a slowed uplink, a text file refused at its own field while the list and its
 * other files are saved, then removed; a second admin following live; a duplicate name refused at
 * its field; an edit that renames and reorders; a delete after asking; Portuguese at a phone's width.
 */
describe('console: the file lists screen in Chromium (skipped when /usr/bin/chromium is absent)', function () {
  this.timeout(120_000);
  let b: TestBackend;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let other: Page;
  let listId: number;

  const row = (p: Page, name: string) => p.getByRole('row').filter({ has: p.getByRole('rowheader', { name, exact: true }) });

  before(async function () {
    prepareConsole(this);
    b = await startTestBackend();
    browser = await launchChromium();
    ({ context, page } = await operator(browser));
    other = (await operator(browser)).page;
  });
  after(async () => {
    await browser?.close();
    await b?.close();
  });

  it('creates a list: files previewed, the upload’s progress shown, a text file refused at its field; seen live by a second admin', async () => {
    await signIn(page, b.url, ADMIN.email, ADMIN.password, '/app/files');
    await signIn(other, b.url, ADMIN.email, ADMIN.password, '/app/files');
    await page.getByRole('heading', { name: 'File lists', level: 1 }).waitFor();
    await page.getByText('No file lists yet.').waitFor();
    await expectAccessible(page, 'the empty file lists screen');

    await page.getByRole('button', { name: 'New file list' }).click();
    await page.getByRole('dialog', { name: 'New file list' }).waitFor();
    // Once saved the dialog edits the list, under another title.
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Name').fill('Catalog');
    await dialog.getByLabel('Message sent before the files').fill('Here is our catalog:');
    const files: Array<[string, { name: string; mimeType: string; buffer: Buffer }]> = [
      ['Price table', { name: 'prices.pdf', mimeType: 'application/pdf', buffer: PDF }],
      ['Our shop', { name: 'shop.png', mimeType: 'image/png', buffer: PNG }],
      ['Tour', { name: 'tour.mp4', mimeType: 'video/mp4', buffer: MP4 }],
      ['Notes', { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('just a note') }],
    ];
    for (const [i, [caption, file]] of files.entries()) {
      await dialog.getByRole('button', { name: 'Add a file' }).click();
      await dialog.getByLabel(`Caption (File ${i + 1})`).fill(caption);
      await dialog.getByLabel(`File to upload (File ${i + 1})`).setInputFiles(file);
    }
    await dialog.getByRole('img', { name: 'Preview of shop.png' }).waitFor();
    await dialog.getByRole('link', { name: 'Open the PDF prices.pdf' }).waitFor();
    await dialog.getByText('Chosen: notes.txt (document, 11 byte)').waitFor();
    await expectAccessible(page, 'the new list with its previews');

    // A slow uplink (128 kB/s) so the video's upload lasts long enough to be seen.
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: 128 * 1024 });
    await dialog.getByRole('button', { name: 'Save' }).click();
    const progress = dialog.getByRole('progressbar', { name: 'Uploading tour.mp4' });
    await progress.waitFor();
    await eventually('some of the video’s upload to be reported', async () => Number(await progress.getAttribute('value', { timeout: 1000 })) > 0, 10_000);
    await shot(page, 'files', 'uploading');
    await dialog.getByRole('alert').filter({ hasText: 'This kind of file cannot be sent' }).waitFor();
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
    await cdp.detach();
    expect(await dialog.getByLabel('File to upload (File 4)').getAttribute('aria-invalid')).to.equal('true');
    await dialog.getByText('The list was saved, but a file was not: see below, then save again.').waitFor();
    await page.getByRole('dialog', { name: 'Edit the file list Catalog' }).waitFor();
    await dialog.getByText('Now: tour.mp4 (video, 512 kB)').waitFor();
    expect(await dialog.getByLabel('Replace the file (File 3)').inputValue(), 'the uploaded file no longer picked').to.equal('');
    await row(other, 'Catalog').getByText('prices.pdf (PDF').waitFor();

    await dialog.getByRole('button', { name: 'Remove file 4' }).click();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached' });
    await row(other, 'Catalog').getByText('Notes').waitFor({ state: 'detached' });
    const { api } = await asSuper(b);
    const saved = (await api.get('/files/list')).body as Array<{
      id: number;
      message: string;
      options: Array<{ name: string; path: string; mediaType: string }>;
    }>;
    expect(saved).to.have.length(1);
    listId = saved[0]!.id;
    expect(saved[0]!.message).to.equal('Here is our catalog:');
    expect(saved[0]!.options.map((o) => [o.name, o.path, o.mediaType])).to.deep.equal([
      ['Price table', 'prices.pdf', 'application/pdf'],
      ['Our shop', 'shop.png', 'image/png'],
      ['Tour', 'tour.mp4', 'video/mp4'],
    ]);
    await expectAccessible(page, 'the list of file lists');
    await shot(page, 'files', 'list');
  });

  it('refuses a name another list has at its field, keeping what was typed', async () => {
    await page.getByRole('button', { name: 'New file list' }).click();
    const dialog = page.getByRole('dialog', { name: 'New file list' });
    await dialog.getByLabel('Name').fill('Catalog');
    await dialog.getByLabel('Message sent before the files').fill('Another one');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByRole('alert').filter({ hasText: 'Another file list already has this name.' }).waitFor();
    expect(await dialog.getByLabel('Name').getAttribute('aria-invalid')).to.equal('true');
    expect(await dialog.getByLabel('Message sent before the files').inputValue()).to.equal('Another one');
    await expectAccessible(page, 'a refused list');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
  });

  it('renames and reorders a list; the other browser follows', async () => {
    await page.getByRole('button', { name: 'Edit Catalog' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit the file list Catalog' });
    await dialog.getByText('Now: shop.png (image,').waitFor();
    await dialog.getByLabel('Name').fill('Catalog 2026');
    await dialog.getByRole('button', { name: 'Move file 3 up' }).click();
    expect(await dialog.getByLabel('Caption (File 2)').inputValue()).to.equal('Tour');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached' });
    await row(other, 'Catalog 2026').waitFor();
    expect(await row(other, 'Catalog 2026').locator('.file-list-options li > span:first-child').allTextContents()).to.deep.equal([
      'Price table',
      'Tour',
      'Our shop',
    ]);
    const { api } = await asSuper(b);
    expect(((await api.get(`/files/${listId}`)).body.options as Array<{ path: string }>).map((o) => o.path)).to.deep.equal([
      'prices.pdf',
      'tour.mp4',
      'shop.png',
    ]);
  });

  it('speaks Portuguese at a phone’s width', async () => {
    const { page: phone } = await operator(browser, { locale: 'pt-BR', width: 390, height: 844 });
    await phone.goto(`${b.url}/app/files`);
    await phone.getByLabel('E-mail').fill(ADMIN.email);
    await phone.getByLabel('Senha').fill(ADMIN.password);
    await phone.getByRole('button', { name: 'Entrar' }).click();
    await phone.getByRole('heading', { name: 'Listas de arquivos', level: 1 }).waitFor();
    await row(phone, 'Catalog 2026').getByText('prices.pdf (PDF').waitFor();
    const width = await phone.evaluate(() => document.documentElement.scrollWidth);
    expect(width, 'no sideways scrolling').to.be.at.most(390);
    await expectAccessible(phone, 'the file lists in Portuguese at a phone’s width');
  });

  it('deletes a list after asking, and it leaves the other browser too', async () => {
    await row(page, 'Catalog 2026').getByRole('button', { name: 'Delete' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Delete the file list Catalog 2026?' });
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await other.getByText('No file lists yet.').waitFor();
    const { api } = await asSuper(b);
    expect((await api.get('/files')).body.count).to.equal(0);
  });

  it('deletes every list after asking', async () => {
    const { api } = await asSuper(b);
    for (const name of ['Menu', 'Forms']) expect((await api.post('/files', { name })).status).to.equal(200);
    await row(other, 'Forms').waitFor();
    await page.getByRole('button', { name: 'Delete every list' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Delete every file list?' });
    await confirm.getByRole('button', { name: 'Delete every list' }).click();
    await page.getByText('No file lists yet.').waitFor();
    await other.getByText('No file lists yet.').waitFor();
    expect((await api.get('/files')).body.count).to.equal(0);
  });
});
