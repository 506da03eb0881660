import { expect } from 'chai';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { asSuper, type TestBackend, startTestBackend, ADMIN } from '../../../backend/test/support/test-backend.js';
import { eventually } from '../../../backend/test/support/eventually.js';
import { expectAccessible, launchChromium, operator, prepareConsole, shot, signIn, switchLanguage } from './support.js';

const RITA = '5511988883333';
const BRUNO = '5521977776666';

/**
 * A contact's shared location and contact cards in Chromium, against the real backend and the
 * sandbox connector: the location as a card (name, address, coordinates, a link to the map in a
 * new tab) and each contact card with its numbers, a copy button and "Start a conversation", which
 * creates the contact and its ticket, or opens the ticket the contact already has; axe-checked.
 */
describe('console: shared locations and contact cards in Chromium (skipped when /usr/bin/chromium is absent)', function () {
  this.timeout(120_000);
  let b: TestBackend;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let api: Awaited<ReturnType<typeof asSuper>>['api'];
  let connectionId: number;
  let ticketId: number;

  before(async function () {
    prepareConsole(this);
    b = await startTestBackend();
    browser = await launchChromium();
    ({ context, page } = await operator(browser));
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    ({ api } = await asSuper(b));
    const created = await api.post('/chatapp/', { name: 'Shared desk', provider: 'sandbox' });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    connectionId = created.body.id as number;
    await eventually('the session to connect', async () => (await api.get(`/chatapp/${connectionId}`)).body.status === 'CONNECTED');
  });
  after(async () => {
    await browser?.close();
    await b?.close();
  });

  const ticketOf = (number: string) =>
    eventually(`the ticket of ${number}`, async () => {
      const list = await api.get(`/tickets?status=search&showAll=true&searchParam=${number}`);
      return (list.body.tickets as Array<{ id: number; contact: { number: string } }>).find((t) => t.contact.number === number)?.id;
    });

  it('shows the location and the contact cards the sandbox sends as cards', async () => {
    const sandbox = b.sandbox!;
    await sandbox.inject(connectionId, {
      from: RITA,
      senderName: 'Rita Alves',
      location: { latitude: -23.561414, longitude: -46.655882, name: 'MASP', address: 'Av. Paulista, 1578' },
    });
    await sandbox.inject(connectionId, {
      from: RITA,
      senderName: 'Rita Alves',
      contacts: [
        { name: 'Ana Souza', numbers: ['5511966665555', '551133334444'] },
        { name: 'Bruno Lima', numbers: [BRUNO] },
      ],
    });
    ticketId = await ticketOf(RITA);
    await signIn(page, b.url, ADMIN.email, ADMIN.password, `/app/tickets/${ticketId}`);

    const location = page.getByRole('article', { name: 'Location: MASP' });
    await location.waitFor();
    expect(await location.textContent())
      .to.contain('Av. Paulista, 1578')
      .and.to.contain('Latitude -23.56141, longitude -46.65588');
    const map = location.getByRole('link', { name: 'Open in OpenStreetMap (opens in a new tab)' });
    expect(await map.getAttribute('href')).to.equal('https://www.openstreetmap.org/?mlat=-23.561414&mlon=-46.655882#map=16/-23.561414/-46.655882');
    expect(await map.getAttribute('target')).to.equal('_blank');
    expect(await map.getAttribute('rel')).to.contain('noopener');

    const ana = page.getByRole('article', { name: 'Contact card: Ana Souza' });
    await ana.waitFor();
    expect(await ana.getByRole('listitem').allTextContents()).to.deep.equal(['+5511966665555 Copy', '+551133334444 Copy']);
    await ana.getByRole('button', { name: 'Copy +551133334444' }).click();
    await ana.getByText('+551133334444 copied').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).to.equal('+551133334444');
    await page.getByRole('article', { name: 'Contact card: Bruno Lima' }).waitFor();
    // The raw body (the map link, the vCard) is not shown as text.
    expect(await page.getByTestId('messages').textContent()).to.not.contain('BEGIN:VCARD');
    await shot(page, 'location-contact', 'cards');
    await expectAccessible(page, 'the shared location and contact cards');

    const list = await api.get(`/tickets/${ticketId}`);
    expect(list.body.lastMessage).to.equal('👤 Contact: Ana Souza, Bruno Lima');
  });

  it("starts a conversation with a card's contact: creates the contact and opens its new ticket", async () => {
    await page.getByRole('button', { name: 'Start a conversation with Ana Souza' }).click();
    await page.waitForURL((url) => /\/app\/tickets\/\d+$/.test(url.pathname) && !url.pathname.endsWith(`/${ticketId}`));
    await page.locator('.conversation-header h2').filter({ hasText: 'Ana Souza' }).waitFor();
    const opened = Number(page.url().split('/').pop());
    const ticket = (await api.get(`/tickets/${opened}`)).body as { status: string; chatappId: number; contact: { number: string; name: string } };
    expect(ticket).to.deep.include({ status: 'open', chatappId: connectionId });
    expect(ticket.contact).to.include({ number: '5511966665555', name: 'Ana Souza' });
  });

  it('opens the ticket a contact already has instead of another one, in Portuguese too', async () => {
    await b.sandbox!.inject(connectionId, { from: BRUNO, body: 'Oi, sou o Bruno', senderName: 'Bruno Lima' });
    const existing = await ticketOf(BRUNO);
    await page.goBack();
    await page.waitForURL((url) => url.pathname.endsWith(`/app/tickets/${ticketId}`));
    await switchLanguage(page, 'pt-BR');
    await page.getByRole('article', { name: 'Localização: MASP' }).waitFor();
    await page.getByRole('button', { name: 'Iniciar conversa com Bruno Lima' }).click();
    await page.waitForURL((url) => url.pathname.endsWith(`/app/tickets/${existing}`));
    await page.getByTestId('messages').getByText('Oi, sou o Bruno').waitFor();
    const tickets = (await api.get(`/tickets?status=search&showAll=true&searchParam=${BRUNO}`)).body.tickets as unknown[];
    expect(tickets).to.have.length(1);
    await switchLanguage(page, 'en');
  });
});
