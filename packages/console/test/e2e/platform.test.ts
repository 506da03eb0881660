import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import { ADMIN, asSuper, client, login, type TestBackend, startTestBackend } from '../../../backend/test/support/test-backend.js';
import { expectAccessible, launchChromium, operator, prepareConsole, shot, signIn } from './support.js';

/**
 * The platform screens in Chromium against the real backend, as the platform's super user: a plan
 * created with its limits and features; a company created on it (a refusal at its field first), its
 * due date changed and the company suspended after the warning, then enabled again; its business
 * hours set on its clock (an end before its start refused first); the plan it is
 * on refused deletion in words; an announcement to every company that the new company's admin, in a
 * second browser, sees arrive live as a banner, reads in the list and dismisses (still dismissed
 * after a reload); that admin neither offered the platform screens nor let in, nor the kanban
 * the plan lacks; Spanish at a phone's
 * width; no serious accessibility violation. The steps share one backend and one browser, in order.
 */
describe('console: the platform screens in Chromium (skipped when /usr/bin/chromium is absent)', function () {
  this.timeout(180_000);
  let b: TestBackend;
  let browser: Browser;
  let page: Page;
  let other: Page;
  let rootApi: ReturnType<typeof client>;
  let planId: number;
  let companyId: number;

  const ACME_ADMIN = { email: 'dora@acme.test', password: 'acme-password-1' };
  const row = (p: Page, name: string) => p.getByRole('row').filter({ has: p.getByRole('rowheader', { name, exact: true }) });
  const open = async (p: Page, entry: string, heading: string) => {
    await p.getByRole('button', { name: 'Manage' }).click();
    await p.getByRole('menuitem', { name: entry }).click();
    await p.getByRole('heading', { name: heading, level: 1 }).waitFor();
  };

  before(async function () {
    prepareConsole(this);
    b = await startTestBackend({ OUTBOX_RELAY_INTERVAL_MS: '100' });
    rootApi = (await asSuper(b)).api;
    browser = await launchChromium();
    page = (await operator(browser)).page;
    other = (await operator(browser)).page;
  });
  after(async () => {
    await browser?.close();
    await b?.close();
  });

  it('the super user creates a plan with its limits and features', async () => {
    await signIn(page, b.url, ADMIN.email, ADMIN.password);
    await open(page, 'Plans (platform)', 'Plans');
    await page.getByRole('button', { name: 'New plan' }).click();
    const dialog = page.getByRole('dialog', { name: 'New plan' });
    await dialog.getByLabel('Name', { exact: true }).fill('Growth');
    await dialog.getByLabel('Users', { exact: true }).fill('5');
    await dialog.getByLabel('Connections', { exact: true }).fill('2');
    await dialog.getByLabel('Queues', { exact: true }).fill('3');
    await dialog.getByLabel('Price per period').fill('149.90');
    await dialog.getByLabel('Kanban').uncheck();
    await expectAccessible(page, 'the plan dialog', '[role="dialog"]');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await row(page, 'Growth').getByText('5 · 2 · 3').waitFor();
    const plans = (await rootApi.get('/plans')).body as Array<{ id: number; name: string; users: number; amount: string; useKanban: boolean }>;
    const growth = plans.find((p) => p.name === 'Growth');
    expect(growth).to.include({ users: 5, amount: '149.90', useKanban: false });
    planId = growth!.id;
    await expectAccessible(page, 'the plans screen');
    await shot(page, 'platform', 'plans');
  });

  it('creates a company on it, its document refused at its field first', async () => {
    await open(page, 'Companies (platform)', 'Companies');
    await page.getByRole('button', { name: 'New company' }).click();
    const dialog = page.getByRole('dialog', { name: 'New company' });
    await dialog.getByLabel('Name', { exact: true }).fill('Acme Helpdesk');
    await dialog.getByLabel('E-mail', { exact: true }).fill('contact@acme.test');
    await dialog.getByLabel('CPF or CNPJ').fill('123');
    await dialog.getByLabel('Plan', { exact: true }).selectOption({ label: 'Growth' });
    await dialog.getByLabel('First administrator’s password').fill(ACME_ADMIN.password);
    await dialog.getByLabel('First administrator’s name').fill('Dora Acme');
    await dialog.getByLabel('First administrator’s e-mail').fill(ACME_ADMIN.email);
    await dialog.getByRole('button', { name: 'Save' }).click();
    const document = dialog.getByLabel('CPF or CNPJ');
    await dialog.getByText('This is not a valid CPF (11 digits) or CNPJ (14 digits).').waitFor();
    expect(await document.getAttribute('aria-invalid')).to.equal('true');
    await expectAccessible(page, 'the company dialog with a refusal', '[role="dialog"]');
    await document.fill('11.222.333/0001-81');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await row(page, 'Acme Helpdesk').getByText('Growth').waitFor();
    const found = (await rootApi.get('/companiesPlan?searchParam=Acme')).body.companies as Array<{ id: number; planId: number; document: string }>;
    expect(found).to.have.length(1);
    expect(found[0]).to.include({ planId, document: '11222333000181' });
    companyId = found[0]!.id;
    await expectAccessible(page, 'the companies screen');
  });

  it('follows changes made elsewhere live: another super user renaming the company through the API', async () => {
    expect((await rootApi.put(`/companies/${companyId}`, { name: 'Acme Helpdesk Brasil' })).status).to.equal(200);
    await row(page, 'Acme Helpdesk Brasil').waitFor();
    expect((await rootApi.put(`/companies/${companyId}`, { name: 'Acme Helpdesk' })).status).to.equal(200);
    await row(page, 'Acme Helpdesk').waitFor();
  });

  it('edits its due date, and suspends it only after saying what that does', async () => {
    await page.getByRole('button', { name: 'Edit Acme Helpdesk' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit the company Acme Helpdesk' });
    await dialog.getByLabel('Due date').fill('2027-01-31');
    await dialog.getByLabel('Active: its users may sign in').uncheck();
    await dialog.getByRole('button', { name: 'Save' }).click();
    const warning = page.getByRole('alertdialog', { name: 'Suspend Acme Helpdesk?' });
    await warning.getByText('Its users can no longer sign in, and those signed in are signed out at once.', { exact: false }).waitFor();
    await expectAccessible(page, 'the suspension warning', '[role="alertdialog"]');
    await warning.getByRole('button', { name: 'Suspend and save' }).click();
    await row(page, 'Acme Helpdesk').getByText('Suspended').waitFor();
    const company = (await rootApi.get(`/companies/${companyId}`)).body as { status: boolean; dueDate: string };
    expect(company).to.include({ status: false, dueDate: '2027-01-31' });
    expect((await client(b.url).post('/auth/login', ACME_ADMIN)).status).to.not.equal(200);
    await shot(page, 'platform', 'companies');

    // Enabling it again asks nothing.
    await page.getByRole('button', { name: 'Edit Acme Helpdesk' }).click();
    await page.getByRole('dialog', { name: 'Edit the company Acme Helpdesk' }).getByLabel('Active: its users may sign in').check();
    await page.getByRole('dialog', { name: 'Edit the company Acme Helpdesk' }).getByRole('button', { name: 'Save' }).click();
    await row(page, 'Acme Helpdesk').getByText('Active').waitFor();
    expect((await rootApi.get(`/companies/${companyId}`)).body.status).to.equal(true);
  });

  it("sets the company's business hours on its clock, as its admins would in their settings", async () => {
    await page.getByRole('button', { name: 'Business hours of Acme Helpdesk' }).click();
    const dialog = page.getByRole('dialog', { name: 'Business hours of Acme Helpdesk' });
    // Its own time zone (the default: no admin of it changed it), read through GET /companySettings/:companyId.
    await dialog.getByText('in its time zone (America/Sao Paulo)', { exact: false }).waitFor();
    await dialog.getByLabel('Monday, First range: from').fill('09:00');
    await dialog.getByLabel('Monday, First range: to').fill('08:00');
    await dialog.getByRole('button', { name: 'Save the hours' }).click();
    await dialog.getByRole('alert').waitFor();
    await dialog.getByLabel('Monday, First range: to').fill('17:30');
    await dialog.getByRole('button', { name: 'Save the hours' }).click();
    await dialog.getByText('The hours were saved.').waitFor();
    await expectAccessible(page, "another company's business hours", '[role="dialog"]');
    const schedules = (await rootApi.get(`/companies/${companyId}`)).body.schedules as Array<{ weekdayEn: string; startTimeA: string; endTimeA: string }>;
    expect(schedules.find((d) => d.weekdayEn === 'monday')).to.include({ startTimeA: '09:00', endTimeA: '17:30' });
    await dialog.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'detached' });
  });

  it('a plan a company is on is not deleted: the server’s refusal in words', async () => {
    await open(page, 'Plans (platform)', 'Plans');
    await row(page, 'Growth').getByRole('button', { name: 'Delete' }).click();
    const ask = page.getByRole('alertdialog', { name: 'Delete the plan Growth?' });
    await ask.getByText('A plan companies are on cannot be deleted', { exact: false }).waitFor();
    await ask.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('alert').getByText('Companies are on this plan: move them to another plan before deleting it.').waitFor();
    expect((await rootApi.get(`/plans/${planId}`)).status).to.equal(200);
    await row(page, 'Growth').waitFor();
  });

  it('an announcement to every company reaches the company admin live as a banner, which they dismiss', async () => {
    await signIn(other, b.url, ACME_ADMIN.email, ACME_ADMIN.password);
    expect(await other.getByTestId('announcement-banner').count()).to.equal(0);

    await open(page, 'Announcements (platform)', 'Announcements');
    await page.getByRole('button', { name: 'New announcement' }).click();
    const dialog = page.getByRole('dialog', { name: 'New announcement' });
    await dialog.getByLabel('Title').fill('Maintenance on Sunday');
    await dialog.getByLabel('Text').fill('The platform is offline from 02:00 to 04:00.');
    await dialog.getByLabel('Priority').selectOption({ label: 'High' });
    // A text file is no attachment: refused at its field, the announcement written once all the same.
    const attachment = dialog.getByLabel('Attachment (image or PDF, up to 10 MB)');
    await attachment.setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not an image') });
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByText('Only PNG, JPEG, WebP or GIF images and PDF files can be attached.').waitFor();
    expect(await attachment.getAttribute('aria-invalid')).to.equal('true');
    await expectAccessible(page, 'the announcement dialog with a refusal', '[role="dialog"]');
    await attachment.setInputFiles([]);
    await dialog.getByRole('button', { name: 'Save' }).click();
    await row(page, 'Maintenance on Sunday').getByText('Every company').waitFor();
    const written = (await rootApi.get('/announcements')).body as { count: number; records: Array<{ priority: number; mediaPath: string | null }> };
    expect(written.count).to.equal(1);
    expect(written.records[0]).to.include({ priority: 1, mediaPath: null });

    // Live: the `company-announcement` frame on the company's namespace, no reload.
    const banner = other.getByTestId('announcement-banner');
    await banner.getByText('Maintenance on Sunday').waitFor();
    await banner.getByText('The platform is offline from 02:00 to 04:00.').waitFor();
    await expectAccessible(other, 'the announcement banner');
    await shot(other, 'platform', 'banner');
    await banner.getByRole('button', { name: 'All announcements (1)' }).click();
    const list = other.getByRole('dialog', { name: 'Announcements' });
    await list.getByRole('heading', { name: 'Maintenance on Sunday' }).waitFor();
    await list.getByText('High priority', { exact: false }).waitFor();
    await list.getByRole('button', { name: 'Close' }).click();
    await banner.getByRole('button', { name: 'Dismiss the announcement Maintenance on Sunday' }).click();
    await other.getByRole('button', { name: 'All announcements (1)' }).waitFor();
    expect(await other.getByTestId('announcement-banner').count()).to.equal(0);
    // Remembered for this user in this browser.
    await other.reload();
    await other.getByTestId('realtime-state').filter({ hasText: 'Live' }).waitFor();
    await other.getByRole('button', { name: 'All announcements (1)' }).waitFor();
    expect(await other.getByTestId('announcement-banner').count()).to.equal(0);
  });

  it('a company admin is neither offered the platform screens nor let in, nor the kanban their plan lacks', async () => {
    await other.getByRole('button', { name: 'Manage' }).click();
    await other.getByRole('menuitem', { name: 'Campaigns' }).waitFor();
    expect(await other.getByRole('menuitem', { name: /platform/ }).count()).to.equal(0);
    await other.keyboard.press('Escape');
    // Growth has every feature but the kanban: the top bar offers the chats, not the kanban.
    expect(await other.getByRole('navigation').getByRole('link', { name: 'Chats' }).count()).to.equal(1);
    expect(await other.getByRole('navigation').getByRole('link', { name: 'Kanban' }).count()).to.equal(0);
    for (const path of ['companies', 'plans', 'announcements']) {
      await other.goto(`${b.url}/app/platform/${path}`);
      await other.getByText('Only the platform’s super users manage this.').waitFor();
    }
    const token = (await login(b.url, ACME_ADMIN.email, ACME_ADMIN.password)).token;
    expect((await client(b.url, token).get('/companies')).status).to.equal(403);
    expect((await client(b.url, token).post('/plans', { name: 'Sneaky' })).status).to.equal(403);
  });

  it('speaks Spanish, and at a phone’s width each plan is a card', async () => {
    const { page: phone } = await operator(browser, { locale: 'es', width: 390, height: 844 });
    await phone.goto(`${b.url}/app/platform/plans`);
    await phone.getByLabel('Correo electrónico').fill(ADMIN.email);
    await phone.getByLabel('Contraseña').fill(ADMIN.password);
    await phone.getByRole('button', { name: 'Entrar' }).click();
    await phone.getByRole('heading', { name: 'Planes', level: 1 }).waitFor();
    await row(phone, 'Growth').getByText('Mensual', { exact: false }).waitFor();
    const width = await phone.evaluate(() => document.documentElement.scrollWidth);
    expect(width, 'no sideways scrolling').to.be.at.most(390);
    await expectAccessible(phone, 'the plans screen in Spanish at a phone’s width');
    await shot(phone, 'platform', 'phone-es');
    await phone.getByRole('button', { name: 'Editar Growth' }).click();
    const dialog = phone.getByRole('dialog', { name: 'Editar el plan Growth' });
    await dialog.getByLabel('Precio por periodo').waitFor();
    const box = await dialog.boundingBox();
    expect(box!.x).to.be.at.least(0);
    expect(box!.x + box!.width).to.be.at.most(390);
    await expectAccessible(phone, 'the plan dialog in Spanish at a phone’s width', '[role="dialog"]');
  });
});
