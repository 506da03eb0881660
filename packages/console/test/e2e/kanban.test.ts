import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import { eventually, sandboxDesk } from '../../../backend/test/support/sandbox-conversations.js';
import { ADMIN, type TestBackend, startTestBackend } from '../../../backend/test/support/test-backend.js';
import { expectAccessible, launchChromium, operator, prepareConsole, shot, signIn } from './support.js';

/**
 * The kanban board in Chromium against the real backend: three conversations from the sandbox and
 * two kanban tags. An operator (`user` profile) drags one card with the mouse and moves another
 * with the keyboard (with the screen reader's announcements) while an admin's browser follows both
 * moves live; a move refused because another admin deleted the lane's tag meanwhile shows at once,
 * then goes back with the reason; Spanish at a phone's width, one lane at a time. The steps share
 * one backend and one browser, in order.
 */
describe('console: the kanban board in Chromium (skipped when /usr/bin/chromium is absent)', function () {
  this.timeout(180_000);
  let b: TestBackend;
  let browser: Browser;
  let desk: Awaited<ReturnType<typeof sandboxDesk>>;
  let ana: Page;
  let admin: Page;
  let todo: { id: number };
  let done: { id: number };
  let maria: number;
  let joao: number;
  let carla: number;

  const lane = (p: Page, key: string) => p.getByTestId(`lane-${key}`);
  const card = (p: Page, key: string, ticketId: number) => lane(p, key).getByTestId(`card-${ticketId}`);
  const laneIds = async (ticketId: number) =>
    ((await desk.admin.get(`/tickets/${ticketId}`)).body.tags as Array<{ id: number; kanban: boolean }>).filter((t) => t.kanban).map((t) => t.id);

  before(async function () {
    prepareConsole(this);
    b = await startTestBackend();
    desk = await sandboxDesk(b);
    todo = (await desk.admin.post('/tags', { name: 'To do', color: '#2563eb', kanban: true })).body;
    done = (await desk.admin.post('/tags', { name: 'Done', color: '#16a34a', kanban: true })).body;
    // Pending conversations in no queue: the operators (Ana) may see them too.
    maria = (await desk.inbound('5511955550001', 'Where is my parcel?', { senderName: 'Maria Souza' })).id;
    joao = (await desk.inbound('5511955550002', 'Do you open on Sundays?', { senderName: 'João Lima' })).id;
    carla = (await desk.inbound('5511955550003', 'I need a second copy of the bill', { senderName: 'Carla Dias' })).id;
    browser = await launchChromium();
    ana = (await operator(browser)).page;
    admin = (await operator(browser)).page;
  });
  after(async () => {
    await browser?.close();
    await b?.close();
  });

  it('an operator drags a card with the mouse and moves another by keyboard; an admin’s browser sees both moves live', async () => {
    await signIn(ana, b.url, 'ana@desk.test', 'operator-pass-1');
    await ana.getByRole('navigation').getByRole('link', { name: 'Kanban' }).click();
    await signIn(admin, b.url, ADMIN.email, ADMIN.password, '/app/kanban');
    await ana.getByRole('heading', { name: 'Kanban', level: 1 }).waitFor();
    for (const id of [maria, joao, carla]) await card(ana, 'open', id).waitFor();
    await card(admin, 'open', maria).waitFor();
    await lane(ana, `tag-${todo.id}`).getByRole('heading', { name: 'To do' }).waitFor();
    await lane(ana, `tag-${todo.id}`).getByText('No conversation here.').waitFor();
    await expectAccessible(ana, 'the board');
    await shot(ana, 'kanban', 'board');

    // The mouse: Maria's card, picked anywhere on it, dropped on "To do".
    const from = (await card(ana, 'open', maria).boundingBox())!;
    const to = (await lane(ana, `tag-${todo.id}`).boundingBox())!;
    await ana.mouse.move(from.x + from.width / 2, from.y + 30);
    await ana.mouse.down();
    await ana.mouse.move(from.x + from.width / 2 + 20, from.y + 30, { steps: 4 });
    await ana.mouse.move(to.x + to.width / 2, to.y + 120, { steps: 12 });
    await ana.mouse.up();
    await card(ana, `tag-${todo.id}`, maria).waitFor();
    await card(admin, `tag-${todo.id}`, maria).waitFor();
    await card(admin, 'open', maria).waitFor({ state: 'detached' });
    await eventually('Maria’s ticket in the To do lane', async () => JSON.stringify(await laneIds(maria)) === JSON.stringify([todo.id]));

    // The keyboard: João's handle, picked up with space, two lanes to the right, dropped with space.
    await ana.getByRole('button', { name: 'Drag the conversation with João Lima' }).focus();
    await ana.keyboard.press('Space');
    await ana.getByText('Picked up the conversation with João Lima from Open.').waitFor({ state: 'attached' });
    await ana.keyboard.press('ArrowRight');
    await ana.getByText('The conversation with João Lima is over To do.').waitFor({ state: 'attached' });
    await ana.keyboard.press('ArrowRight');
    await ana.getByText('The conversation with João Lima is over Done.').waitFor({ state: 'attached' });
    await ana.keyboard.press('Space');
    await ana.getByText('The conversation with João Lima was dropped in Done.').waitFor({ state: 'attached' });
    await card(ana, `tag-${done.id}`, joao).waitFor();
    // The focus follows the card to its new lane.
    await ana.waitForFunction(() => document.activeElement?.getAttribute('aria-label') === 'Drag the conversation with João Lima');
    expect(
      await card(ana, `tag-${done.id}`, joao)
        .getByRole('button', { name: 'Drag the conversation with João Lima' })
        .evaluate((el) => el === document.activeElement),
    ).to.equal(true);
    await card(admin, `tag-${done.id}`, joao).waitFor();
    await card(admin, 'open', joao).waitFor({ state: 'detached' });
    await eventually('João’s ticket in the Done lane', async () => JSON.stringify(await laneIds(joao)) === JSON.stringify([done.id]));
    expect(
      await lane(admin, 'open')
        .getByTestId(/^card-/)
        .count(),
    ).to.equal(1);
    await shot(admin, 'kanban', 'moved-live');
  });

  it('a move refused because another admin deleted the lane meanwhile shows at once, then goes back with the reason', async () => {
    // The admin deletes "Done" while Ana's move to it is on its way (her board still shows the lane).
    await ana.route('**/ticket-tags/**', async (route) => {
      if (route.request().method() === 'PUT') {
        await card(ana, `tag-${done.id}`, carla).waitFor();
        expect((await desk.admin.delete(`/tags/${done.id}`)).status).to.equal(200);
      }
      await route.continue();
    });
    await card(ana, 'open', carla).getByRole('button', { name: 'Move to… Carla Dias' }).click();
    await ana.getByRole('menuitem', { name: 'Done' }).click();
    const refusal = ana.getByRole('alert').filter({ hasText: 'The conversation with Carla Dias could not move to Done' });
    await refusal.getByText('That lane’s tag no longer exists.', { exact: false }).waitFor();
    await card(ana, 'open', carla).waitFor();
    await lane(ana, `tag-${done.id}`).waitFor({ state: 'detached' });
    await lane(admin, `tag-${done.id}`).waitFor({ state: 'detached' });
    // João was in "Done": with the tag gone he is back in the open lane, on both boards.
    await card(ana, 'open', joao).waitFor();
    await card(admin, 'open', joao).waitFor();
    expect(await laneIds(carla)).to.deep.equal([]);
    await expectAccessible(ana, 'a refused move');
    await shot(ana, 'kanban', 'refused');
    await ana.unroute('**/ticket-tags/**');
  });

  it('speaks Spanish at a phone’s width: one lane at a time, chosen with the lane picker, and the “Move to…” menu', async () => {
    const { context, page: phone } = await operator(browser, { locale: 'es', width: 390, height: 844 });
    await phone.goto(`${b.url}/app/kanban`);
    await phone.getByLabel('Correo electrónico').fill(ADMIN.email);
    await phone.getByLabel('Contraseña').fill(ADMIN.password);
    await phone.getByRole('button', { name: 'Entrar' }).click();
    await phone.getByRole('heading', { name: 'Kanban', level: 1 }).waitFor();
    await card(phone, 'open', carla).waitFor();
    expect(await lane(phone, `tag-${todo.id}`).isVisible()).to.equal(false);
    await phone.getByLabel('Carril mostrado').selectOption({ label: 'To do (1)' });
    await card(phone, `tag-${todo.id}`, maria).waitFor();
    expect(await lane(phone, 'open').isVisible()).to.equal(false);
    const width = await phone.evaluate(() => document.documentElement.scrollWidth);
    expect(width, 'no sideways scrolling').to.be.at.most(390);
    await expectAccessible(phone, 'the board in Spanish at a phone’s width');
    await shot(phone, 'kanban', 'phone-es');

    await card(phone, `tag-${todo.id}`, maria).getByRole('button', { name: 'Mover a… Maria Souza' }).click();
    await phone.getByRole('menuitem', { name: 'Abiertas' }).click();
    await lane(phone, `tag-${todo.id}`).getByText('No hay ninguna conversación aquí.').waitFor();
    await card(ana, 'open', maria).waitFor();
    await eventually('Maria’s ticket back in no lane', async () => (await laneIds(maria)).length === 0);
    await context.close();
  });

  it('a long lane is virtualised: a few cards in the page, the pages further down fetched as they scroll into view', async () => {
    await ana.context().close();
    const backlog = (await desk.admin.post('/tags', { name: 'Backlog', color: '#9333ea', kanban: true })).body as { id: number };
    const ids: number[] = [];
    for (let i = 0; i < 41; i++) {
      const contact = await desk.admin.post('/contacts', { name: `Bulk ${String(i).padStart(2, '0')}`, number: `55119666${String(i).padStart(5, '0')}` });
      expect(contact.status, JSON.stringify(contact.body)).to.equal(201);
      const ticket = await desk.admin.post('/tickets', { contactId: contact.body.id, chatappId: desk.connectionId });
      expect(ticket.status, JSON.stringify(ticket.body)).to.equal(201);
      expect((await desk.admin.put(`/ticket-tags/${ticket.body.id}/${backlog.id}`)).status).to.equal(200);
      ids.push(ticket.body.id);
    }
    const long = lane(admin, `tag-${backlog.id}`);
    await long.getByText('41 conversations').waitFor();
    const shown = await long.getByTestId(/^card-/).count();
    expect(shown, 'cards in the page').to.be.within(3, 20);
    // The oldest activity is last: on the third page, fetched once the lane is scrolled to its end.
    await long.locator('.kanban-lane-scroll').evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
    await long.getByTestId(`card-${ids[0]}`).waitFor();
    expect(await long.getByTestId(/^card-/).count(), 'cards in the page at the end').to.be.at.most(20);
    await shot(admin, 'kanban', 'long-lane');
  });
});
