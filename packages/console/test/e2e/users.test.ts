import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import { asSuper, client, login, newCompanyWithAdmin, type TestBackend, startTestBackend } from '../../../backend/test/support/test-backend.js';
import { expectAccessible, launchChromium, operator, prepareConsole, shot, signIn } from './support.js';

/** A 1×1 PNG: the server sniffs the content, so a picture must be a real image. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

/**
 * The users screen in Chromium against the real backend, as the admin of a company whose plan
 * allows 3 users: the plan's limit shown; a duplicate e-mail refused at its field, then the user
 * created with queues, a default connection and permissions while a second admin's browser follows
 * live; the fourth user refused by the plan, explained at the form with nothing typed lost; an
 * edit, a picture (and a file that is not one), no delete of oneself, a delete after asking;
 * search; an operator neither offered the screen nor let in; Spanish at a phone's width; no
 * serious accessibility violation. The steps share one backend and one browser, in order.
 */
describe('console: the users screen in Chromium (skipped when /usr/bin/chromium is absent)', function () {
  this.timeout(180_000);
  let b: TestBackend;
  let browser: Browser;
  let page: Page;
  let other: Page;
  let adminApi: ReturnType<typeof client>;
  let companyId: number;
  let selfId: number;
  let salesId: number;
  let connectionId: number;
  let brunoId: number;

  const ALICE = { email: 'alice@small.test', password: 'admin-password-1' };
  const BEA = { email: 'bea@small.test', password: 'admin-password-2' };
  const row = (p: Page, name: string) => p.getByRole('row').filter({ has: p.getByRole('rowheader', { name }) });

  before(async function () {
    prepareConsole(this);
    b = await startTestBackend();
    const { api: root } = await asSuper(b);
    const plan = await root.post('/plans', { name: 'Small', users: 3, connections: 1, queues: 2, amount: 10 });
    expect(plan.status, JSON.stringify(plan.body)).to.equal(201);
    const company = await newCompanyWithAdmin(b, { planId: plan.body.id, adminEmail: ALICE.email, adminName: 'Alice Admin' });
    adminApi = company.api;
    companyId = company.company.id;
    selfId = company.admin.id;
    const bea = await adminApi.post('/users', { name: 'Bea Second', ...BEA, profile: 'admin' });
    expect(bea.status, JSON.stringify(bea.body)).to.equal(201);
    const sales = await adminApi.post('/queue', { name: 'Sales', color: '#22aa55', greetingMessage: '' });
    expect(sales.status, JSON.stringify(sales.body)).to.be.oneOf([200, 201]);
    salesId = sales.body.id;
    const connection = await adminApi.post('/chatapp/', { name: 'Phone desk', provider: 'sandbox' });
    expect(connection.status, JSON.stringify(connection.body)).to.be.oneOf([200, 201]);
    connectionId = connection.body.id;
    browser = await launchChromium();
    page = (await operator(browser)).page;
    other = (await operator(browser)).page;
  });
  after(async () => {
    await browser?.close();
    await b?.close();
  });

  it('an admin reaches the screen from the Manage menu and sees the plan’s limit', async () => {
    await signIn(page, b.url, ALICE.email, ALICE.password);
    await page.getByRole('button', { name: 'Manage' }).click();
    await page.getByRole('menuitem', { name: 'Users' }).click();
    await page.getByRole('heading', { name: 'Users', level: 1 }).waitFor();
    await signIn(other, b.url, BEA.email, BEA.password, '/app/users');
    await row(page, 'Alice Admin').getByText('(you)').waitFor();
    await row(page, 'Bea Second').getByText('Administrator').waitFor();
    await page.getByText('2 of the 3 users the plan Small allows').waitFor();
    await page.getByText('2 users').waitFor();
    await expectAccessible(page, 'the users screen');
    await shot(page, 'users', 'list');
  });

  it('refuses a duplicate e-mail at its field, keeping what was typed, then creates the user, seen live by the other admin', async () => {
    await page.getByRole('button', { name: 'New user' }).click();
    const dialog = page.getByRole('dialog', { name: 'New user' });
    await dialog.getByLabel('Name').fill('Bruno Lima');
    await dialog.getByLabel('E-mail').fill('BEA@small.test');
    await dialog.getByLabel('Password').fill('bruno-pass-1');
    await dialog.getByLabel('Sales').check();
    await dialog.getByLabel('Default connection').selectOption({ label: 'Phone desk' });
    await dialog.getByLabel('May read the dashboard and the contacts report').check();
    await dialog.getByLabel('Sees group conversations').check();
    await dialog.getByLabel('May close waiting conversations').uncheck();
    await dialog.getByLabel('Starts at').fill('08:00');
    await dialog.getByLabel('Ends at').fill('17:30');
    await expectAccessible(page, 'the new user dialog');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByRole('alert').filter({ hasText: 'Another user already signs in with this e-mail.' }).waitFor();
    const emailField = dialog.getByLabel('E-mail');
    expect(await emailField.getAttribute('aria-invalid')).to.equal('true');
    expect(await dialog.getByLabel('Name').inputValue()).to.equal('Bruno Lima');
    expect(await dialog.getByLabel('Password').inputValue()).to.equal('bruno-pass-1');
    expect(await dialog.getByLabel('Sales').isChecked()).to.equal(true);
    await expectAccessible(page, 'a duplicate e-mail refused');
    await shot(page, 'users', 'refused-email');

    await emailField.fill('bruno@small.test');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached' });
    await row(other, 'Bruno Lima').getByText('Sales').waitFor();
    await row(page, 'Bruno Lima').getByText('Operator').waitFor();
    await other.getByText('3 of the 3 users the plan Small allows').waitFor();
    await page.getByText("The plan's limit is reached").waitFor();

    const list = (await adminApi.get('/users')).body as { users: Array<Record<string, unknown> & { id: number; email: string }> };
    const bruno = list.users.find((u) => u.email === 'bruno@small.test')!;
    expect(bruno, 'created').to.be.ok;
    brunoId = bruno.id;
    expect(bruno).to.include({
      name: 'Bruno Lima',
      profile: 'user',
      chatappId: connectionId,
      showDashboard: 'enabled',
      allowGroup: true,
      userClosePendingTicket: 'disabled',
      allTicket: 'disable',
      startWork: '08:00',
      endWork: '17:30',
    });
    expect((bruno.queues as Array<{ id: number }>).map((q) => q.id)).to.deep.equal([salesId]);
    expect((await login(b.url, 'bruno@small.test', 'bruno-pass-1')).token).to.be.a('string');
  });

  it('explains the plan’s refusal of a fourth user at the form, with nothing typed lost', async () => {
    await page.getByRole('button', { name: 'New user' }).click();
    const dialog = page.getByRole('dialog', { name: 'New user' });
    await dialog.getByText("The plan's limit is reached").waitFor();
    await dialog.getByLabel('Name').fill('Carla Dias');
    await dialog.getByLabel('E-mail').fill('carla@small.test');
    await dialog.getByLabel('Password').fill('carla-pass-1');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByRole('alert').filter({ hasText: 'The plan Small allows 3 users and the company already has them' }).waitFor();
    expect(await dialog.getByLabel('E-mail').inputValue()).to.equal('carla@small.test');
    await expectAccessible(page, 'the plan’s refusal');
    await shot(page, 'users', 'refused-plan');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    // The server's own answer, which the screen put in words.
    const refused = await adminApi.post('/users', { name: 'Carla Dias', email: 'carla@small.test', password: 'carla-pass-1' });
    expect([refused.status, refused.body.error]).to.deep.equal([403, 'ERR_USER_CREATION_COUNT']);
  });

  it('edits a user: the change reaches the other browser live', async () => {
    await page.getByRole('button', { name: 'Edit Bruno Lima' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit the user Bruno Lima' });
    expect(await dialog.getByLabel('May read the dashboard and the contacts report').isChecked()).to.equal(true);
    expect(await dialog.getByLabel('Default connection').inputValue()).to.equal(String(connectionId));
    await dialog.getByLabel('Name').fill('Bruno Lima Souza');
    await dialog.getByLabel('Profile').selectOption('admin');
    await dialog.getByLabel('Sales').uncheck();
    await dialog.getByLabel('Sees every conversation of the company', { exact: false }).check();
    await dialog.getByLabel('Default connection').selectOption({ label: 'None' });
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached' });
    await row(other, 'Bruno Lima Souza').getByText('Administrator').waitFor();
    await row(other, 'Bruno Lima Souza').getByText('No queue').waitFor();
    const bruno = (await adminApi.get(`/users/${brunoId}`)).body;
    expect(bruno).to.include({ name: 'Bruno Lima Souza', profile: 'admin', allTicket: 'enable', chatappId: null, showDashboard: 'enabled' });
    expect(bruno.queues).to.deep.equal([]);
    // The password was left empty: unchanged.
    expect((await login(b.url, 'bruno@small.test', 'bruno-pass-1')).token).to.be.a('string');
  });

  it('gives a user a picture, previewed and saved, and refuses a file that is not an image at its field', async () => {
    await page.getByRole('button', { name: 'Edit Bruno Lima Souza' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit the user Bruno Lima Souza' });
    const picture = dialog.getByLabel('Picture');
    await picture.setInputFiles({ name: 'notes.txt', mimeType: 'image/png', buffer: Buffer.from('not an image at all') });
    await dialog.getByRole('alert').filter({ hasText: 'The picture must be a PNG, JPEG, WebP or GIF image.' }).waitFor();
    expect(await picture.getAttribute('aria-invalid')).to.equal('true');
    await expectAccessible(page, 'a refused picture');

    await picture.setInputFiles({ name: 'bruno.png', mimeType: 'image/png', buffer: PNG });
    await dialog.getByText('The picture was saved.').waitFor();
    const stored = (await adminApi.get(`/users/${brunoId}`)).body as { profileImage: string | null };
    expect(stored.profileImage).to.be.a('string');
    const served = await fetch(`${b.url}/public/company${companyId}/user/${stored.profileImage}`);
    expect(served.status).to.equal(200);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await row(other, 'Bruno Lima Souza').locator(`img[src$="/user/${stored.profileImage}"]`).waitFor();
    await shot(page, 'users', 'picture');
  });

  it('offers no delete of oneself, as the server refuses it; deletes another user after asking, gone live', async () => {
    await row(page, 'Alice Admin').getByText('You cannot delete yourself').waitFor();
    expect(await row(page, 'Alice Admin').getByRole('button', { name: 'Delete' }).count()).to.equal(0);
    const self = await adminApi.delete(`/users/${selfId}`);
    expect([self.status, self.body.error]).to.deep.equal([403, 'ERR_CANNOT_DELETE_SELF']);

    await row(page, 'Bruno Lima Souza').getByRole('button', { name: 'Delete' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Delete the user Bruno Lima Souza?' });
    await expectAccessible(page, 'the delete confirmation');
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await row(other, 'Bruno Lima Souza').waitFor({ state: 'detached' });
    await other.getByText('2 of the 3 users the plan Small allows').waitFor();
    expect((await adminApi.get(`/users/${brunoId}`)).status).to.equal(404);
  });

  it('searches by name or e-mail', async () => {
    await page.getByLabel('Search users by name or e-mail').fill('bea@');
    await page.getByText('1 user', { exact: true }).waitFor();
    await row(page, 'Bea Second').waitFor();
    expect(await page.getByRole('rowheader').count()).to.equal(1);
    await page.getByLabel('Search users by name or e-mail').fill('nobody like this');
    await page.getByText('No user matches this search.').waitFor();
    await page.getByLabel('Search users by name or e-mail').fill('');
    await page.getByText('2 users').waitFor();
  });

  it('pages through the users, and follows a larger plan once users arrive', async () => {
    const { api: root } = await asSuper(b);
    const plans = (await root.get('/plans')).body as Array<{ id: number; name: string }>;
    const small = plans.find((p) => p.name === 'Small')!;
    expect((await root.put(`/plans/${small.id}`, { users: 30 })).status).to.equal(200);
    for (let i = 1; i <= 20; i++) {
      const n = String(i).padStart(2, '0');
      const made = await adminApi.post('/users', { name: `Zed ${n}`, email: `zed${n}@small.test`, password: 'operator-pass-1' });
      expect(made.status, JSON.stringify(made.body)).to.equal(201);
    }
    // Their user frames refetch the list, the count and the plan.
    await page.getByText('22 of the 30 users the plan Small allows').waitFor();
    await page.getByText('22 users').waitFor();
    expect(await page.getByText("The plan's limit is reached").count()).to.equal(0);
    expect(await page.locator('tbody tr').count()).to.equal(20);
    await page.getByRole('button', { name: 'Show more' }).click();
    await page.locator('tbody tr').nth(21).waitFor();
    expect(await page.getByRole('button', { name: 'Show more' }).count()).to.equal(0);
  });

  it('an operator is neither offered the screen nor let in', async () => {
    const created = await adminApi.post('/users', { name: 'Olga Operator', email: 'olga@small.test', password: 'operator-pass-1' });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    const olga = (await operator(browser)).page;
    await signIn(olga, b.url, 'olga@small.test', 'operator-pass-1');
    await olga.getByRole('button', { name: 'Manage' }).click();
    await olga.getByRole('menuitem', { name: 'Tags' }).waitFor();
    expect(await olga.getByRole('menuitem', { name: 'Users' }).count()).to.equal(0);
    await olga.keyboard.press('Escape');
    await olga.goto(`${b.url}/app/users`);
    await olga.getByText('Only administrators manage users.').waitFor();
    const token = (await login(b.url, 'olga@small.test', 'operator-pass-1')).token;
    expect((await client(b.url, token).get('/users')).status).to.equal(403);
  });

  it('speaks Spanish, and at a phone’s width each user is a card and the form fits', async () => {
    const { page: phone } = await operator(browser, { locale: 'es', width: 390, height: 844 });
    await phone.goto(`${b.url}/app/users`);
    await phone.getByLabel('Correo electrónico').fill(ALICE.email);
    await phone.getByLabel('Contraseña').fill(ALICE.password);
    await phone.getByRole('button', { name: 'Entrar' }).click();
    await phone.getByRole('heading', { name: 'Usuarios', level: 1 }).waitFor();
    await row(phone, 'Bea Second').getByText('Administrador').waitFor();
    await phone.getByText('23 de los 30 usuarios que permite el plan Small').waitFor();
    const width = await phone.evaluate(() => document.documentElement.scrollWidth);
    expect(width, 'no sideways scrolling').to.be.at.most(390);
    await expectAccessible(phone, 'the users screen in Spanish at a phone’s width');
    await shot(phone, 'users', 'phone-es');
    await phone.getByRole('button', { name: 'Editar Bea Second' }).click();
    const dialog = phone.getByRole('dialog', { name: 'Editar el usuario Bea Second' });
    await dialog.getByLabel('Nueva contraseña').waitFor();
    const box = await dialog.boundingBox();
    expect(box!.x).to.be.at.least(0);
    expect(box!.x + box!.width).to.be.at.most(390);
    const wider = await dialog.evaluate((el) => {
      const right = el.getBoundingClientRect().left + el.clientWidth;
      return [...el.querySelectorAll('*')].filter((c) => c.getBoundingClientRect().right > right + 0.5).map((c) => `${c.tagName}.${c.className}`);
    });
    expect(wider, 'nothing in the dialog wider than it').to.deep.equal([]);
    await expectAccessible(phone, 'the user dialog in Spanish at a phone’s width');
    await shot(phone, 'users', 'phone-es-dialog');
  });
});
