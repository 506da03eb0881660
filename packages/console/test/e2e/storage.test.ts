import { S3_TEST_CREDENTIALS, startS3Server, type TestS3Server } from '@servicedesk/adapters-persistence/testing/s3';
import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import { ADMIN, asSuper, client, login, type TestBackend, startTestBackend } from '../../../backend/test/support/test-backend.js';
import { expectAccessible, launchChromium, operator, prepareConsole, shot, signIn } from './support.js';

/** The secret the loopback S3 service wants: it must never appear in a page. */
const SECRET = 'storage-console-secret-7f2b9c41';
const PDF = new Blob([Buffer.from('%PDF-1.7\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n')], { type: 'application/pdf' });

/**
 * The object storage screen in Chromium against the real backend and an S3-compatible service on
 * loopback (s3rver behind a signature check): a bucket refused at its field with everything typed
 * kept, a test whose failed step the service's refusal names, then tested, saved and made active,
 * seen live by a second admin; a card's test with its steps; another bucket activated after the
 * explanation (the first one deactivated live); the delete of a bucket holding a file refused and
 * explained, another deleted; the secret in no page; an operator kept out; Spanish at a phone's width.
 */
describe('console: the object storage screen in Chromium (skipped when /usr/bin/chromium is absent)', function () {
  this.timeout(120_000);
  let s3: TestS3Server;
  let b: TestBackend;
  let browser: Browser;
  let page: Page;
  let other: Page;

  const card = (p: Page, name: string) => p.getByRole('listitem').filter({ has: p.getByRole('heading', { name, exact: true }) });

  before(async function () {
    prepareConsole(this);
    s3 = await startS3Server(['media'], SECRET);
    b = await startTestBackend({ ALLOW_PRIVATE_URLS: 'true', OUTBOX_RELAY_INTERVAL_MS: '100' });
    browser = await launchChromium();
    page = (await operator(browser)).page;
    other = (await operator(browser)).page;
    const { api } = await asSuper(b);
    for (const [email, profile] of [
      ['bia@storage.test', 'admin'],
      ['op@storage.test', 'user'],
    ] as const) {
      const created = await api.post('/users', { name: email.slice(0, 3), email, password: 'storage-pass-1', profile });
      expect(created.status, JSON.stringify(created.body)).to.equal(201);
    }
  });
  after(async () => {
    await browser?.close();
    await b?.close();
    await s3?.close();
  });

  it('refuses a bad bucket at its field, shows the failed step of a test, then saves the bucket active; a second admin sees it live', async () => {
    await signIn(page, b.url, ADMIN.email, ADMIN.password, '/app/storage');
    await signIn(other, b.url, 'bia@storage.test', 'storage-pass-1', '/app/storage');
    await page.getByRole('heading', { name: 'Object storage', level: 1 }).waitFor();
    await page.getByText("No bucket yet: uploads go to the server's own store.").waitFor();
    await expectAccessible(page, 'the empty storage screen');

    await page.getByRole('button', { name: 'New bucket' }).click();
    const dialog = page.getByRole('dialog', { name: 'New bucket' });
    await dialog.getByLabel('Name', { exact: true }).fill('MinIO da loja');
    await dialog.getByLabel('Service').selectOption({ label: 'MinIO' });
    await dialog.getByLabel('Endpoint').fill(s3.endpoint);
    await dialog.getByLabel('Bucket', { exact: true }).fill('x');
    await dialog.getByLabel('Folder in the bucket').fill('loja');
    await dialog.getByLabel('Access key id').fill(S3_TEST_CREDENTIALS.accessKeyId);
    await dialog.getByLabel('Secret access key').fill('wrong-secret-000000');
    await dialog.getByRole('button', { name: 'Save' }).click();
    const bucket = dialog.getByLabel('Bucket', { exact: true });
    await dialog.getByRole('alert').filter({ hasText: 'The bucket name must have 3 to 63 letters' }).waitFor();
    expect(await bucket.getAttribute('aria-invalid')).to.equal('true');
    expect(await dialog.getByLabel('Folder in the bucket').inputValue()).to.equal('loja');
    expect(await dialog.getByLabel('Secret access key').inputValue()).to.equal('wrong-secret-000000');
    expect(await dialog.getByLabel(/Path-style addresses/).isChecked(), 'MinIO wants path-style requests').to.equal(true);

    // The test of what is typed: the service is reached, then refuses the keys when writing.
    await bucket.fill('media');
    await dialog.getByRole('button', { name: 'Test these settings' }).click();
    const steps = dialog.getByTestId('objstore-test');
    await steps.getByText('The test stopped at “Write a test file”: The service refused these keys.').waitFor();
    expect(await steps.getByRole('listitem').allTextContents()).to.deep.equal([
      '✓ Reach the service: passed',
      '✗ Write a test file: failed',
      '– Read it back: not tried',
      '– Delete it: not tried',
    ]);
    await expectAccessible(page, 'a failed connection test in the dialog');
    await shot(page, 'storage', 'test-failed');

    await dialog.getByLabel('Secret access key').fill(SECRET);
    await dialog.getByRole('button', { name: 'Test these settings' }).click();
    await steps.getByText(/The bucket works: written, read back and deleted in \d+ ms\./).waitFor();
    await dialog.getByLabel('Use it for new uploads (it is tested first)').check();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached' });

    await card(page, 'MinIO da loja').getByText('Active: new uploads go here').waitFor();
    await card(other, 'MinIO da loja').getByText('Active: new uploads go here').waitFor();
    await card(other, 'MinIO da loja').getByText('secret ending in 9c41').waitFor();
    const { api } = await asSuper(b);
    const saved = (await api.get('/objstore-configs')).body as Array<{
      name: string;
      bucket: string;
      prefix: string;
      active: boolean;
      forcePathStyle: boolean;
    }>;
    expect(saved.map((c) => [c.name, c.bucket, c.prefix, c.active, c.forcePathStyle])).to.deep.equal([['MinIO da loja', 'media', 'loja', true, true]]);
    for (const p of [page, other]) expect(await p.content()).to.not.include(SECRET);
  });

  it('tests a saved bucket from its card, every step shown with its outcome', async () => {
    await card(page, 'MinIO da loja').getByRole('button', { name: 'Test connection: MinIO da loja' }).click();
    const result = card(page, 'MinIO da loja').getByTestId('objstore-test');
    await result.getByText(/The bucket works/).waitFor();
    expect(await result.getByRole('listitem').allTextContents()).to.deep.equal([
      '✓ Reach the service: passed',
      '✓ Write a test file: passed',
      '✓ Read it back: passed',
      '✓ Delete it: passed',
    ]);
    expect(await s3.objectKeys('media', 'loja/.healthcheck'), 'the probe was deleted').to.deep.equal([]);
  });

  it('edits a bucket keeping its secret, and the second admin sees the change live', async () => {
    await card(page, 'MinIO da loja').getByRole('button', { name: 'Edit MinIO da loja' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit MinIO da loja' });
    expect(await dialog.getByLabel('Secret access key').inputValue()).to.equal('');
    await dialog.getByText('Saved (ends in 9c41). Leave empty to keep it').waitFor();
    await dialog.getByLabel('Public address (CDN)').fill('https://cdn.loja.test/media');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached' });
    await card(other, 'MinIO da loja').getByText('Public files served from https://cdn.loja.test/media').waitFor();
    const { api } = await asSuper(b);
    const [saved] = (await api.get('/objstore-configs')).body as Array<{ publicBaseUrl: string; secretLast4: string; active: boolean }>;
    expect(saved).to.deep.include({ publicBaseUrl: 'https://cdn.loja.test/media', secretLast4: '9c41', active: true });
  });

  it('activates another bucket after explaining it; the first is deactivated in both browsers; a bucket holding a file is not deleted, and says why', async () => {
    const { api } = await asSuper(b);
    // A file stored while the first bucket is active: it now holds blobs.
    const list = await api.post('/files', { name: 'Catálogo', message: '', options: [] });
    expect(list.status, JSON.stringify(list.body)).to.equal(200);
    const form = new FormData();
    form.append('fileId', String(list.body.id));
    form.append('files', PDF, 'precos.pdf');
    form.append('mediaType', 'application/pdf');
    expect((await api.post(`/files/uploadList/${list.body.id}`, form)).status).to.equal(200);
    expect(await s3.objectKeys('media', 'loja/')).to.have.length(1);
    const second = await api.post('/objstore-configs', {
      name: 'Arquivo novo',
      provider: 'minio',
      endpoint: s3.endpoint,
      bucket: 'media',
      prefix: 'novo',
      accessKeyId: S3_TEST_CREDENTIALS.accessKeyId,
      secretAccessKey: SECRET,
    });
    expect(second.status, JSON.stringify(second.body)).to.equal(200);
    await card(other, 'Arquivo novo').getByText('Not in use').waitFor();

    await card(page, 'Arquivo novo').getByRole('button', { name: 'Activate' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Activate Arquivo novo?' });
    await confirm.getByText('The connection is tested first').waitFor();
    await confirm.getByRole('button', { name: 'Activate' }).click();
    await card(page, 'Arquivo novo').getByText('Active: new uploads go here').waitFor();
    await card(other, 'Arquivo novo').getByText('Active: new uploads go here').waitFor();
    await card(other, 'MinIO da loja').getByText('Not in use').waitFor();

    await card(page, 'MinIO da loja').getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('alertdialog', { name: 'Delete MinIO da loja?' }).getByRole('button', { name: 'Delete' }).click();
    await card(page, 'MinIO da loja').getByText('Files are stored through this bucket, so it cannot be removed').waitFor();
    await expectAccessible(page, 'a refused delete');
    await shot(page, 'storage', 'delete-refused');

    await card(page, 'Arquivo novo').getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('alertdialog', { name: 'Delete Arquivo novo?' }).getByRole('button', { name: 'Delete' }).click();
    await card(other, 'Arquivo novo').waitFor({ state: 'detached' });
    await page.getByText("1 bucket · No bucket is active: new uploads go to the server's own store.").waitFor();
    const left = (await api.get('/objstore-configs')).body as Array<{ name: string }>;
    expect(left.map((c) => c.name)).to.deep.equal(['MinIO da loja']);
  });

  it('keeps an operator out (the server refuses them too)', async () => {
    const op = (await operator(browser)).page;
    await signIn(op, b.url, 'op@storage.test', 'storage-pass-1', '/app/storage');
    await op.getByText('This screen is for administrators.').waitFor();
    const token = (await login(b.url, 'op@storage.test', 'storage-pass-1')).token;
    expect((await client(b.url, token).get('/objstore-configs')).status).to.equal(403);
  });

  it('speaks Spanish at a phone’s width, without sideways scrolling', async () => {
    const { page: phone } = await operator(browser, { locale: 'es', width: 390, height: 844 });
    await phone.goto(`${b.url}/app/storage`);
    await phone.getByLabel('Correo electrónico').fill(ADMIN.email);
    await phone.getByLabel('Contraseña').fill(ADMIN.password);
    await phone.getByRole('button', { name: 'Entrar' }).click();
    await phone.getByRole('heading', { name: 'Almacenamiento de archivos', level: 1 }).waitFor();
    await card(phone, 'MinIO da loja').getByText('Sin uso').waitFor();
    await card(phone, 'MinIO da loja').getByRole('button', { name: 'Probar conexión: MinIO da loja' }).click();
    await card(phone, 'MinIO da loja').getByText('Escribir un archivo de prueba: bien').waitFor();
    const width = await phone.evaluate(() => document.documentElement.scrollWidth);
    expect(width, 'no sideways scrolling').to.be.at.most(390);
    await expectAccessible(phone, 'the storage screen in Spanish at a phone’s width');
    await shot(phone, 'storage', 'phone-es');
  });
});
