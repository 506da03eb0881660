import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import { eventually, sandboxDesk } from '../../../backend/test/support/sandbox-conversations.js';
import { ADMIN, type TestBackend, startTestBackend } from '../../../backend/test/support/test-backend.js';
import { expectAccessible, launchChromium, operator, prepareConsole, shot, signIn } from './support.js';

const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201e2a4d1a60000000049454e44ae426082',
  'hex',
);

/** `YYYY-MM-DDTHH:mm` of a moment on the company's clock (America/Sao_Paulo, the default `timezone`). */
function onCompanyClock(at: Date): string {
  const p = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', {
      timeZone: 'America/Sao_Paulo',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(at)
      .map((x) => [x.type, x.value]),
  );
  return `${p.year}-${p.month}-${p.day}T${p.hour}:${p.minute}`;
}

/**
 * The scheduled messages screen in Chromium against the real backend and a sandbox connection: a
 * message to one chosen contact and a tag (carried by another contact), a past moment refused at
 * its field with everything typed kept, then saved for the current minute: a second admin sees it
 * arrive, its send followed live in that admin's sends dialog (sent to 2 of 2) and at the sandbox;
 * an edit that keeps its contact and tag, an empty file refused at its field then a picture sent with it, seen live; Portuguese at a phone's width; a delete after
 * asking, seen live. One backend and one browser, the steps in order.
 */
describe('console: the scheduled messages screen in Chromium (skipped when /usr/bin/chromium is absent)', function () {
  this.timeout(120_000);
  let b: TestBackend;
  let browser: Browser;
  let page: Page;
  let other: Page;
  let desk: Awaited<ReturnType<typeof sandboxDesk>>;

  const row = (p: Page, name: string) => p.getByRole('row').filter({ has: p.getByRole('rowheader', { name, exact: true }) });

  before(async function () {
    prepareConsole(this);
    b = await startTestBackend({ OUTBOX_RELAY_INTERVAL_MS: '100', SCHEDULED_MESSAGES_GAP_MS: '200' });
    desk = await sandboxDesk(b);
    const maria = await desk.admin.post('/contacts', { name: 'Maria Souza', number: '5511988887777' });
    const joao = await desk.admin.post('/contacts', { name: 'João Pereira', number: '5511988886666' });
    expect([maria.status, joao.status], JSON.stringify([maria.body, joao.body])).to.deep.equal([201, 201]);
    const tag = await desk.admin.post('/tags', { name: 'Clientes VIP', color: '#1565c0' });
    expect((await desk.admin.post('/tags/sync', { contactId: joao.body.id, tagIds: [tag.body.id] })).status).to.equal(200);
    browser = await launchChromium();
    page = (await operator(browser)).page;
    other = (await operator(browser)).page;
  });
  after(async () => {
    await browser?.close();
    await b?.close();
  });

  it('refuses a past moment at its field keeping what was typed, then saves it: a second admin sees it sent to both live', async () => {
    await signIn(page, b.url, ADMIN.email, ADMIN.password, '/app/scheduled-messages');
    await signIn(other, b.url, ADMIN.email, ADMIN.password, '/app/scheduled-messages');
    await page.getByRole('heading', { name: 'Scheduled messages', level: 1 }).waitFor();
    await other.getByText('No scheduled message yet.').waitFor();
    await expectAccessible(page, 'the empty list');

    await page.getByRole('button', { name: 'New scheduled message' }).click();
    const dialog = page.getByRole('dialog', { name: 'New scheduled message' });
    await dialog.getByLabel('Name', { exact: true }).fill('Promoção de março');
    await dialog.getByLabel('Message').fill('Olá {{firstName}}, promoção de março!');
    await dialog.getByLabel('Connection').selectOption({ label: 'Sandbox' });
    await dialog.getByLabel('Contacts', { exact: true }).fill('Maria');
    await dialog
      .getByRole('list', { name: 'Contacts found' })
      .getByRole('button', { name: /Maria Souza/ })
      .click();
    await dialog.getByRole('list', { name: 'Chosen contacts' }).getByText('Maria Souza').waitFor();
    await dialog.getByRole('checkbox', { name: 'Clientes VIP' }).check();
    await dialog.getByLabel('First send').fill(onCompanyClock(new Date(Date.now() - 2 * 86_400_000)));
    await expectAccessible(page, 'the new scheduled message dialog');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByRole('alert').filter({ hasText: 'That moment has passed' }).waitFor();
    expect(await dialog.getByLabel('First send').getAttribute('aria-invalid')).to.equal('true');
    expect(await dialog.getByLabel('Message').inputValue()).to.equal('Olá {{firstName}}, promoção de março!');
    expect(await dialog.getByRole('checkbox', { name: 'Clientes VIP' }).isChecked()).to.equal(true);
    await dialog.getByRole('button', { name: 'Remove Maria Souza' }).waitFor();
    await shot(page, 'scheduled-messages', 'refused');

    // The current minute on the company's clock: at most a minute past, so the server sends it at once.
    await dialog.getByLabel('First send').fill(onCompanyClock(new Date()));
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached' });
    await row(page, 'Promoção de março').waitFor();

    // The other admin: the new row arrives by its frame, and its sends dialog follows the send to its end.
    const theirs = row(other, 'Promoção de março');
    await theirs.getByText('1 contact; tags: Clientes VIP').waitFor();
    await theirs.getByRole('button', { name: 'The sends of Promoção de março' }).click();
    const sends = other.getByRole('dialog', { name: 'The sends of Promoção de março' });
    const first = sends.getByTestId('occurrence-1');
    await first.getByText('Sent', { exact: true }).waitFor({ timeout: 20_000 });
    expect((await first.getByRole('cell').allInnerTexts()).map((s) => s.trim())).to.deep.equal(['Sent', '2', '2', '0']);
    await expectAccessible(other, 'the sends dialog');
    await shot(other, 'scheduled-messages', 'sends');
    await sends.getByRole('button', { name: 'Close' }).click();
    await theirs.getByText('Sent', { exact: true }).waitFor();
    await row(page, 'Promoção de março').getByText('Sent', { exact: true }).waitFor();
    await eventually(
      'the sandbox to receive both',
      () => ['Olá Maria, promoção de março!', 'Olá João, promoção de março!'].every((text) => desk.sent().some((s) => s.content.body === text)),
      10_000,
    );
    await expectAccessible(page, 'the list');
    await shot(page, 'scheduled-messages', 'list');
  });

  it('edits it with its contact and tag kept, seen live by the other admin', async () => {
    await row(page, 'Promoção de março').getByRole('button', { name: 'Edit Promoção de março' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit Promoção de março' });
    await dialog.getByRole('list', { name: 'Chosen contacts' }).getByText('Maria Souza').waitFor();
    expect(await dialog.getByRole('checkbox', { name: 'Clientes VIP' }).isChecked()).to.equal(true);
    await dialog.getByLabel('Name', { exact: true }).fill('Promoção de abril');
    await dialog.getByLabel('Repeat').selectOption({ label: 'Every week(s)' });
    await dialog.getByLabel('Sends in all (0: no limit)').fill('4');
    // An empty file is refused at its field (the save goes multipart), the rest kept; a picture then goes with it.
    await dialog.getByLabel('File').setInputFiles({ name: 'vazio.png', mimeType: 'image/png', buffer: Buffer.alloc(0) });
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByRole('alert').filter({ hasText: 'The file is empty.' }).waitFor();
    expect(await dialog.getByLabel('File').getAttribute('aria-invalid')).to.equal('true');
    expect(await dialog.getByLabel('Name', { exact: true }).inputValue()).to.equal('Promoção de abril');
    await dialog.getByLabel('File').setInputFiles({ name: 'promo.png', mimeType: 'image/png', buffer: PNG });
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached' });
    await row(other, 'Promoção de abril').getByText('Every week, 4 sends in all').waitFor();
    await row(other, 'Promoção de abril').getByText('1 contact; tags: Clientes VIP; with a file').waitFor();
    const listed = (await desk.admin.get('/schedules-message')).body.schedules as Array<Record<string, unknown>>;
    expect(
      listed.map((m) => [
        m.nome,
        m.intervalo,
        m.valor_intervalo,
        m.enviar_quantas_vezes,
        (m.contatos as number[]).length,
        (m.tags as number[]).length,
        m.mediaName,
      ]),
    ).to.deep.equal([['Promoção de abril', 2, 1, 4, 1, 1, 'promo.png']]);
  });

  it('speaks Portuguese at a phone’s width', async () => {
    const { page: phone } = await operator(browser, { locale: 'pt-BR', width: 390, height: 844 });
    await phone.goto(`${b.url}/app/scheduled-messages`);
    await phone.getByLabel('E-mail').fill(ADMIN.email);
    await phone.getByLabel('Senha').fill(ADMIN.password);
    await phone.getByRole('button', { name: 'Entrar' }).click();
    await phone.getByRole('heading', { name: 'Mensagens agendadas', level: 1 }).waitFor({ timeout: 30_000 });
    await row(phone, 'Promoção de abril').getByText('Toda semana, 4 envios no total').waitFor();
    await phone.getByRole('button', { name: 'Nova mensagem agendada' }).click();
    await phone.getByRole('dialog', { name: 'Nova mensagem agendada' }).getByLabel('Primeiro envio').waitFor();
    const width = await phone.evaluate(() => document.documentElement.scrollWidth);
    expect(width, 'no sideways scrolling').to.be.at.most(390);
    await expectAccessible(phone, 'the new scheduled message dialog in Portuguese at a phone’s width');
    await phone.getByRole('button', { name: 'Cancelar' }).click();
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).to.be.at.most(390);
    await expectAccessible(phone, 'the list in Portuguese at a phone’s width');
    await shot(phone, 'scheduled-messages', 'phone-pt-BR');
  });

  it('deletes it after asking, gone from the other admin’s list too', async () => {
    await row(page, 'Promoção de abril').getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('alertdialog', { name: 'Delete Promoção de abril?' }).getByRole('button', { name: 'Delete' }).click();
    await row(other, 'Promoção de abril').waitFor({ state: 'detached' });
    await page.getByText('No scheduled message yet.').waitFor();
    expect((await desk.admin.get('/schedules-message')).body.count).to.equal(0);
  });
});
