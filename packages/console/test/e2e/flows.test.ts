import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import type { Browser, Locator, Page } from 'playwright-core';
import { eventually, sandboxDesk } from '../../../backend/test/support/sandbox-conversations.js';
import { ADMIN, asSuper, startTestBackend, type TestBackend } from '../../../backend/test/support/test-backend.js';
import { shorten } from '../../src/screens/flows/graph.js';
import { expectAccessible, launchChromium, operator, prepareConsole, shot, signIn } from './support.js';

/**
 * The flow builder in Chromium against the real backend (private URLs allowed, so an HTTP node can
 * call the loopback server this test runs): a flow built on the canvas from the palette and the
 * node forms (start → message → question → condition → HTTP → transfer, one edge dragged between
 * handles), a publish refused with the error shown on the node it names, then published; the
 * simulation typed as the contact; the published flow run on a sandbox contact, who receives the
 * same transcript; a save that met another admin's change, settled with "Reload"; 200 nodes drawn
 * only where in view. The steps share one backend and one browser, in order.
 */
describe('console: the flow builder in Chromium (skipped when /usr/bin/chromium is absent)', function () {
  this.timeout(120_000);
  let b: TestBackend;
  let browser: Browser;
  let page: Page;
  let erp: Server;
  let erpUrl: string;
  let desk: Awaited<ReturnType<typeof sandboxDesk>>;
  let flowId: number;
  const to = '5511977776666';

  const form = () => page.locator('.flow-node-form');
  /** Adds a node from the palette; its form opens, titled by the node. */
  const add = async (type: string) => {
    await page.getByRole('button', { name: `Add ${type}`, exact: true }).click();
    await form().waitFor();
  };
  /** Selects a node from the keyboard's list by its name in the list. */
  const pick = async (name: string) => {
    await page.locator('.flow-node-list').getByRole('button', { name, exact: true }).click();
    await form()
      .getByRole('heading', { name: `Edit ${name}` })
      .waitFor();
  };
  const way = (handle: string): Locator => form().getByLabel(`Way out “${handle}” leads to`);
  const saved = () =>
    page
      .getByTestId('save-state')
      .filter({ hasText: /^Saved$/ })
      .waitFor();

  before(async function () {
    prepareConsole(this);
    erp = createServer((req, res) => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ orders: [{ status: 'enviado', path: req.url }] }));
    });
    await new Promise<void>((r) => erp.listen(0, '127.0.0.1', r));
    erpUrl = `http://127.0.0.1:${(erp.address() as AddressInfo).port}`;
    b = await startTestBackend({ ALLOW_PRIVATE_URLS: 'true' });
    browser = await launchChromium();
    page = (await operator(browser, { width: 1400, height: 900 })).page;
    desk = await sandboxDesk(b);
    expect((await desk.admin.post('/queue', { name: 'Pedidos', color: '#00aa55' })).status).to.equal(201);
  });
  after(async () => {
    await browser?.close();
    await b?.close();
    await new Promise((r) => erp?.close(r));
  });

  it('creates a flow from the list and builds it on the canvas; a publish is refused on the node it names, then goes through', async () => {
    await signIn(page, b.url, ADMIN.email, ADMIN.password, '/app/flows');
    await page.getByRole('heading', { name: 'Flows', level: 1 }).waitFor();
    await page.getByText('No flows yet.').waitFor();
    await expectAccessible(page, 'the empty flows list');
    await page.getByRole('button', { name: 'New flow' }).click();
    const dialog = page.getByRole('dialog', { name: 'New flow' });
    await dialog.getByLabel('Name').fill('Boas-vindas');
    await dialog.getByRole('button', { name: 'Create and open' }).click();
    await page.getByRole('heading', { name: 'Boas-vindas', level: 1 }).waitFor();
    flowId = Number(/\/flows\/(\d+)/.exec(page.url())![1]);

    await add('Message');
    await form().getByLabel('Text').fill('Olá, {{firstName}}!');
    await add('Question');
    await form().getByLabel('Question').fill('Como ajudar?');
    await form().getByLabel('Option 1').fill('Pedidos');
    await form().getByRole('button', { name: 'Add an option' }).click();
    await form().getByLabel('Option 2').fill('Outros');
    await form().getByLabel('Keep the answer in the variable').fill('topic');
    await add('Condition');
    await form().getByLabel('Rule 1: variable').fill('topic');
    await form().getByLabel('Rule 1: value').fill('Pedidos');
    await add('HTTP request');
    await form().getByLabel('Address (URL)').fill(`${erpUrl}/orders?phone={{number}}`);
    await form().getByRole('button', { name: 'Keep a part of the answer' }).click();
    await form().getByLabel('Part 1: where in the answer').fill('orders.0.status');
    await form().getByLabel('Part 1: variable').fill('status');
    await add('Message');
    await form().getByLabel('Text').fill('Seu pedido: {{status}}');
    await add('Transfer');
    await form().getByLabel('Queue').selectOption({ label: 'Pedidos' });
    await add('Close');
    // A go-to without its flow is not sent: said on the node; removed, the draft saves again.
    await add('Go to flow');
    await page.getByTestId('save-state').filter({ hasText: 'Not saved: choose the flow it goes to.' }).waitFor();
    await form().getByRole('alert').filter({ hasText: 'choose the flow it goes to.' }).waitFor();
    await form().getByRole('button', { name: 'Remove this node' }).click();
    await saved();

    // The ways out, by the forms (the keyboard's path)…
    await pick('Message: Olá, {{firstName}}!');
    await way('next').selectOption({ label: 'Question: Como ajudar?' });
    await pick('Question: Como ajudar?');
    await way('Pedidos').selectOption({ label: 'Condition 4' });
    await way('Outros').selectOption({ label: 'Close 8' });
    const http = `HTTP request: ${shorten(`GET ${erpUrl}/orders?phone={{number}}`, 30)}`;
    await pick('Condition 4');
    await way('true').selectOption({ label: http });
    await way('false').selectOption({ label: 'Close 8' });
    await pick(http);
    await way('success').selectOption({ label: 'Message: Seu pedido: {{status}}' });
    await pick('Message: Seu pedido: {{status}}');
    await way('next').selectOption({ label: 'Transfer 7' });

    // …and one by dragging from the start's handle to the first message.
    await page.getByRole('button', { name: 'Show the whole flow' }).click();
    const startHandle = page.locator('[data-testid="node-start"] .react-flow__handle.source');
    const helloId = await page.locator('.react-flow__node', { hasText: 'Olá, {{firstName}}!' }).getAttribute('data-id');
    const helloIn = page.locator(`[data-testid="node-${helloId}"] .react-flow__handle.target`);
    const from = (await startHandle.boundingBox())!;
    const into = (await helloIn.boundingBox())!;
    await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
    await page.mouse.down();
    await page.mouse.move(into.x + into.width / 2, into.y + into.height / 2, { steps: 8 });
    await page.mouse.up();
    await page.locator(`.react-flow__edge[data-id]`).first().waitFor();
    await saved();

    // The HTTP node's error way leads nowhere: the publish is refused, on that node.
    await page.getByRole('button', { name: 'Publish', exact: true }).click();
    const problems = page.getByRole('region', { name: 'Not published: fix this first' });
    await problems.getByRole('button', { name: `${http}: The handle \`error\` leads nowhere` }).waitFor();
    const httpId = await page.locator('.react-flow__node', { hasText: 'GET http' }).getAttribute('data-id');
    await page.locator(`[data-testid="node-${httpId}"].problem`).waitFor();
    await form().getByRole('alert').filter({ hasText: 'The handle `error` leads nowhere' }).waitFor();
    await expectAccessible(page, 'the editor with a refused publish');
    await shot(page, 'flows', 'publish-refused');

    await pick('Condition 4');
    await problems.getByRole('button').click();
    await form()
      .getByRole('heading', { name: `Edit ${http}` })
      .waitFor();
    await way('error').selectOption({ label: 'Transfer 7' });
    await saved();
    await page.getByRole('button', { name: 'Publish', exact: true }).click();
    await page.getByText('Published: version 1').waitFor();
    await problems.waitFor({ state: 'detached' });

    const { api } = await asSuper(b);
    const flow = (await api.get(`/flows/${flowId}`)).body;
    expect(flow.versions).to.deep.equal([1]);
    expect(flow.draft.nodes.map((n: { type: string }) => n.type)).to.deep.equal([
      'start',
      'message',
      'question',
      'condition',
      'http',
      'message',
      'transfer',
      'close',
    ]);
    expect(flow.draft.edges).to.have.length(9);
  });

  it('simulates the draft in the panel: the contact typed, the mocked HTTP answer, the transcript and the variables', async () => {
    await page.getByRole('button', { name: 'Simulate' }).click();
    const panel = page.locator('.flow-simulate');
    await panel.locator('.flow-bubble.bot').first().waitFor();
    await panel.getByText('Contact, version and mocked answers').click();
    await panel.getByLabel('Contact’s name').fill('Carla Dias');
    await panel.getByLabel('Contact’s number').fill(to);
    await panel.getByLabel('JSON answered').fill('{"orders":[{"status":"enviado"}]}');
    await panel.getByRole('button', { name: 'Start over' }).click();
    await panel.locator('.flow-bubble.bot', { hasText: 'Olá, Carla!' }).waitFor();
    await panel.getByRole('status').filter({ hasText: 'Waiting for the contact’s answer' }).waitFor();
    await panel.getByLabel('Message as the contact').fill('1');
    await panel.getByRole('button', { name: 'Send' }).click();
    await panel.getByRole('status').filter({ hasText: 'The run ended: handed over.' }).waitFor();
    expect(await panel.locator('.flow-bubble .flow-bubble-text').allInnerTexts()).to.deep.equal([
      'Olá, Carla!',
      'Como ajudar?\n[1] Pedidos\n[2] Outros',
      '1',
      'Seu pedido: enviado',
    ]);
    expect(await panel.locator('.flow-bubble.contact').count()).to.equal(1);
    await panel.locator('.flow-event', { hasText: 'HTTP request (mocked)' }).getByText('"enviado"').waitFor();
    await panel.getByRole('button', { name: 'Transferred · Transfer 7' }).waitFor();
    expect(await panel.locator('.flow-variables dt').allInnerTexts()).to.include.members(['topic', 'status']);
    await expectAccessible(page, 'the simulation');
    await shot(page, 'flows', 'simulation');
  });

  it('runs the published flow on a sandbox contact, who receives what the simulation said', async () => {
    await desk.inbound(to, 'oi', { senderName: 'Carla Dias' });
    const texts = () =>
      desk
        .sent()
        .filter((s) => s.to === to)
        .map((s) => s.content.body as string);
    await page.getByRole('button', { name: 'Run on a conversation…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Run on a conversation' });
    await dialog.getByLabel('Search contacts').fill('Carla');
    await dialog.getByLabel('Contact', { exact: true }).selectOption({ label: `Carla Dias (${to})` });
    await dialog.getByRole('button', { name: 'Run' }).click();
    const done = page.getByRole('dialog', { name: 'The run started' });
    await done.getByText(/Conversation \d+: waiting for the contact\./).waitFor();
    await eventually('the greeting and the menu', () => texts().length === 2);
    await desk.inbound(to, '1');
    await eventually('the order status', () => texts().length === 3);
    expect(texts()).to.deep.equal(await page.locator('.flow-simulate .flow-bubble.bot .flow-bubble-text').allInnerTexts());
    await done.getByRole('link', { name: /Open conversation \d+/ }).click();
    // The inbox's code and the conversation load now: on a busy machine that takes a while.
    await page.locator('.messages p.text', { hasText: 'Seu pedido: enviado' }).waitFor({ timeout: 30_000 });
  });

  it('switches the flow on with a keyword trigger, an empty one refused first', async () => {
    await page.goto(`${b.url}/app/flows/${flowId}`);
    await page.getByText('Published: version 1 · versions v1 · Off · 0 triggers').waitFor();
    await page.getByRole('button', { name: 'Triggers…' }).click();
    const dialog = page.getByRole('dialog', { name: 'When Boas-vindas starts' });
    await dialog.getByLabel('On: its triggers start runs').check();
    await dialog.getByRole('button', { name: 'Add a trigger' }).click();
    await dialog.getByLabel('Trigger 1: when').selectOption({ label: 'A message with a keyword' });
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByRole('alert').filter({ hasText: 'A keyword trigger needs 1 to 20 keywords' }).waitFor();
    await dialog.getByRole('button', { name: 'Add a keyword' }).click();
    await dialog.getByLabel('Keyword 1', { exact: true }).fill('pedido');
    await dialog.getByLabel('Sandbox').check();
    await expectAccessible(page, 'the triggers dialog');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByText('Published: version 1 · versions v1 · On · 1 trigger').waitFor();
    const { api } = await asSuper(b);
    const flow = (await api.get(`/flows/${flowId}`)).body;
    expect([flow.active, flow.triggers]).to.deep.equal([
      true,
      [{ type: 'keyword', chatappIds: [desk.connectionId], keywords: [{ text: 'pedido', match: 'contains' }] }],
    ]);
  });

  it('follows another admin’s save live; a save that meets one says what would be lost, and Reload shows theirs', async () => {
    const { api } = await asSuper(b);
    const otherSave = async (text: string) => {
      const current = (await api.get(`/flows/${flowId}`)).body;
      const draft = current.draft as { nodes: Array<{ type: string; data: Record<string, unknown> }>; edges: unknown[] };
      draft.nodes.find((n) => n.type === 'message')!.data.text = text;
      expect((await api.put(`/flows/${flowId}/graph`, { version: current.version, ...draft })).status).to.equal(200);
    };
    const list = page.locator('.flow-node-list');
    // Nothing unsaved here: the other admin's draft is taken at once.
    await otherSave('Olá de novo, {{firstName}}!');
    await list.getByRole('button', { name: 'Message: Olá de novo, {{firstName}}!' }).waitFor();

    // Another admin saves just before this editor's save reaches the server.
    await page.route('**/flows/*/graph', async (route) => {
      await otherSave('Oi de novo, {{firstName}}!');
      await route.continue();
    });
    await pick('Message: Seu pedido: {{status}}');
    await form().getByLabel('Text').fill('Pedido: {{status}}');
    const alert = page.getByRole('alert').filter({ hasText: 'This flow was changed elsewhere.' });
    await alert.getByText('1 node changed: Message: Pedido: {{status}}').waitFor();
    await page.getByTestId('save-state').filter({ hasText: 'Not saved: changed elsewhere' }).waitFor();
    await expectAccessible(page, 'the conflict');
    await page.unroute('**/flows/*/graph');
    await alert.getByRole('button', { name: 'Reload' }).click();
    await alert.waitFor({ state: 'detached' });
    await list.getByRole('button', { name: 'Message: Oi de novo, {{firstName}}!' }).waitFor();
    await list.getByRole('button', { name: 'Message: Seu pedido: {{status}}' }).waitFor();
  });

  it('draws only the nodes in view of a 200-node flow', async () => {
    const { api } = await asSuper(b);
    const big = (await api.post('/flows', { name: 'Grande' })).body;
    const nodes = [
      { id: 'start', type: 'start', position: { x: 0, y: 0 }, data: {} },
      ...Array.from({ length: 199 }, (_, i) => ({
        id: `m${i}`,
        type: 'message',
        position: { x: (i % 20) * 260, y: Math.floor(i / 20 + 1) * 160 },
        data: { text: `Passo ${i}` },
      })),
    ];
    expect((await api.put(`/flows/${big.id}/graph`, { version: big.version, nodes, edges: [] })).status).to.equal(200);
    await page.goto(`${b.url}/app/flows/${big.id}`);
    await page.getByRole('heading', { name: 'Grande', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Zoom in' }).click();
    await page.getByRole('button', { name: 'Zoom in' }).click();
    await page.waitForFunction(() => {
      const drawn = document.querySelectorAll('.react-flow__node').length;
      return drawn > 0 && drawn < 200;
    });
    expect(await page.locator('.flow-node-list button').count()).to.equal(200);

    // At a phone's width the canvas comes first, the node's form and the tools below it.
    await page.setViewportSize({ width: 390, height: 800 });
    await page.locator('.flow-node-list').getByRole('button', { name: 'Message: Passo 3', exact: true }).click();
    await form().getByLabel('Text').waitFor();
    await expectAccessible(page, 'the editor at a phone’s width');
  });

  it('the list at a phone’s width: a rename refused for a taken name then saved, a delete after asking', async () => {
    await page.goto(`${b.url}/app/flows`);
    const row = (name: string) => page.getByRole('row').filter({ has: page.getByRole('rowheader', { name, exact: true }) });
    await row('Boas-vindas').getByText('Published: version 1 · on').waitFor();
    await page.getByRole('button', { name: 'Rename Grande' }).click();
    const dialog = page.getByRole('dialog', { name: 'Rename the flow Grande' });
    await dialog.getByLabel('Name').fill('Boas-vindas');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByRole('alert').filter({ hasText: 'Another flow already has this name.' }).waitFor();
    await dialog.getByLabel('Name').fill('Grande demais');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached' });
    await expectAccessible(page, 'the flows list at a phone’s width');
    await row('Grande demais').getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('alertdialog', { name: 'Delete the flow Grande demais?' }).getByRole('button', { name: 'Delete' }).click();
    await row('Grande demais').waitFor({ state: 'detached' });
    await page.getByText('1 flow', { exact: true }).waitFor();
  });
});
