import { expect } from 'chai';
import { SERVICE_WINDOW_MS, TEMPLATE_CACHE_MS, type Connection, type ProviderTemplate, type SessionSendMessage } from '../../src/index.js';
import { connectionFixture } from '../contracts/messaging-contract.js';
import { code, ticketWorld, type TicketWorld } from '../messaging/ticket-world.js';

const WABA = '102290129340398';
const TOKEN = 'EAAbizchat-token-1';

/** Meta's documented shape: a text header, a body with two variables, a footer and a URL button with one. */
const ORDER_UPDATE: ProviderTemplate = {
  id: '1192339204654487',
  name: 'order_update',
  language: 'pt_BR',
  status: 'APPROVED',
  category: 'UTILITY',
  parameterFormat: 'POSITIONAL',
  components: [
    { type: 'HEADER', format: 'TEXT', text: 'Pedido {{1}}' },
    { type: 'BODY', text: 'Olá {{1}}, seu pedido saiu para entrega em {{2}}.' },
    { type: 'FOOTER', text: 'Loja Exemplo' },
    { type: 'BUTTONS', buttons: [{ type: 'URL', text: 'Rastrear', url: 'https://loja.example/track/{{1}}' }] },
  ],
};
const PROMO: ProviderTemplate = {
  id: '530287305762233',
  name: 'promo',
  language: 'pt_BR',
  status: 'PENDING',
  category: 'MARKETING',
  parameterFormat: 'POSITIONAL',
  components: [{ type: 'BODY', text: 'Oferta!' }],
};
const FULL = { header: ['#42'], body: ['Ana', 'São Paulo'], buttons: ['42'] };

/** Acme's bizchat connection, its account's templates at the provider, and a ticket on it. */
async function bizchatWorld() {
  const w = await ticketWorld();
  const bizchat: Connection = await w.ports.connections.add(
    connectionFixture(w.acme.id, 'Oficial', {
      kind: 'bizchat',
      provider: 'cloudapi',
      status: 'CONNECTED',
      externalId: '106540352242922',
      secrets: { wabaId: WABA, accessToken: TOKEN },
    }),
  );
  w.ports.templateDirectory.accounts.set(WABA, { accessToken: TOKEN, templates: [ORDER_UPDATE, PROMO] });
  const t = await w.ticket({ status: 'open', userId: w.ana.userId }, bizchat);
  return { ...w, bizchat, t };
}

/** The send commands the outbox holds for a connection's number. */
const sendsOf = (w: TicketWorld) => w.ports.outbox.entries.map((e) => e.payload as SessionSendMessage).filter((p) => p.type === 'SessionSendMessage');

/** The fields a 422 names, as [path, message]. */
const fieldsOf = (p: Promise<unknown>) =>
  p.then(
    () => 'resolved',
    (e: { code?: string; fields?: Array<{ path: string; message: string }> }) => [e.code, e.fields?.map((f) => [f.path, f.message])],
  );

describe('Bizchat templates', () => {
  let w: Awaited<ReturnType<typeof bizchatWorld>>;
  beforeEach(async () => {
    w = await bizchatWorld();
  });
  const send = (parameters: Record<string, string[]>, overrides: Record<string, unknown> = {}) =>
    w.app.bizchat.sendBizchatTemplate.execute({ actor: w.ana, ticketId: w.t.id, templateName: 'order_update', language: 'pt_BR', parameters, ...overrides });

  describe('the parameters', () => {
    it("names what is missing in each part, in the template's own terms", async () => {
      expect(await fieldsOf(send({ header: ['#42'], body: ['Ana'] }))).to.deep.equal([
        'ERR_BIZCHAT_TEMPLATE_PARAMETERS',
        [
          ['parameters.body', 'missing {{2}}'],
          ['parameters.buttons', 'missing button 0'],
        ],
      ]);
      expect(await fieldsOf(send({}))).to.deep.equal([
        'ERR_BIZCHAT_TEMPLATE_PARAMETERS',
        [
          ['parameters.header', 'missing {{1}}'],
          ['parameters.body', 'missing {{1}}, {{2}}'],
          ['parameters.buttons', 'missing button 0'],
        ],
      ]);
    });

    it('counts what is extra and refuses blank values', async () => {
      expect(await fieldsOf(send({ ...FULL, body: ['Ana', 'São Paulo', 'again', 'more'], buttons: ['42', ' '] }))).to.deep.equal([
        'ERR_BIZCHAT_TEMPLATE_PARAMETERS',
        [
          ['parameters.body', '2 extra value(s): the body takes 2'],
          ['parameters.buttons', '1 extra value(s): the buttons takes 1'],
          ['parameters.buttons.1', 'must be 1 to 1024 characters'],
        ],
      ]);
      expect(await fieldsOf(send({ ...FULL, header: [''] }))).to.deep.equal([
        'ERR_BIZCHAT_TEMPLATE_PARAMETERS',
        [['parameters.header.0', 'must be 1 to 1024 characters']],
      ]);
      expect(w.ports.outbox.entries, 'nothing is sent').to.have.length(0);
    });

    it('a named template names its variables, and a media header asks for a link', async () => {
      w.ports.templateDirectory.accounts.get(WABA)!.templates.push({
        id: '77',
        name: 'boas_vindas',
        language: 'pt_BR',
        status: 'APPROVED',
        category: 'MARKETING',
        parameterFormat: 'NAMED',
        components: [
          { type: 'HEADER', format: 'IMAGE' },
          { type: 'BODY', text: 'Oi {{first_name}}, seu cupom é {{ coupon }}.' },
        ],
      });
      const named = (parameters: Record<string, string[]>) => send(parameters, { templateName: 'boas_vindas' });
      expect(await fieldsOf(named({ body: ['Ana'] }))).to.deep.equal([
        'ERR_BIZCHAT_TEMPLATE_PARAMETERS',
        [
          ['parameters.header', 'missing image link'],
          ['parameters.body', 'missing {{coupon}}'],
        ],
      ]);
      expect(await fieldsOf(named({ header: ['banner.png'], body: ['Ana', 'OFF10'] }))).to.deep.equal([
        'ERR_BIZCHAT_TEMPLATE_PARAMETERS',
        [['parameters.header.0', 'must be an http(s) link to the media']],
      ]);
      const sent = await named({ header: ['https://cdn.example/banner.png'], body: ['Ana', 'OFF10'] });
      expect(sent.body).to.equal('Oi Ana, seu cupom é OFF10.');
      expect(sendsOf(w).at(-1)!.content.template).to.deep.equal({
        name: 'boas_vindas',
        language: 'pt_BR',
        components: [
          { type: 'header', parameters: [{ type: 'image', image: { link: 'https://cdn.example/banner.png' } }] },
          {
            type: 'body',
            parameters: [
              { type: 'text', text: 'Ana', parameter_name: 'first_name' },
              { type: 'text', text: 'OFF10', parameter_name: 'coupon' },
            ],
          },
        ],
      });
    });
  });

  it('refuses a template the provider has not approved, and one it does not have', async () => {
    expect(await code(send({}, { templateName: 'promo' }))).to.equal('ERR_BIZCHAT_TEMPLATE_NOT_APPROVED');
    expect(await code(send(FULL, { language: 'en_US' }))).to.equal('ERR_BIZCHAT_TEMPLATE_NOT_FOUND');
    // A status webhook reinstating it makes it sendable (the stored copy follows the review).
    expect(await w.app.bizchat.applyTemplateStatus.execute({ wabaId: WABA, metaId: PROMO.id, name: 'promo', language: 'pt_BR', event: 'REINSTATED' })).to.equal(
      1,
    );
    expect((await send({}, { templateName: 'promo' })).body).to.equal('Oferta!');
    expect(await w.app.bizchat.applyTemplateStatus.execute({ wabaId: WABA, metaId: null, name: 'promo', language: 'pt_BR', event: 'PAUSED' })).to.equal(1);
    expect(await code(send({}, { templateName: 'promo' }))).to.equal('ERR_BIZCHAT_TEMPLATE_NOT_APPROVED');
    expect(w.ports.outbox.entries).to.have.length(1);
  });

  describe('the 24-hour window', () => {
    const free = (body = 'Oi!') => w.app.conversations.sendTicketMessage.execute({ actor: w.ana, ticketId: w.t.id, body });

    it('closed without an inbound message: free text is refused, a template goes', async () => {
      expect(await code(free())).to.equal('ERR_BIZCHAT_WINDOW_CLOSED');
      expect(await code(w.app.conversations.sendApiMessage.execute({ connection: w.bizchat, number: '5511988887777', body: 'Oi!' }))).to.equal(
        'ERR_BIZCHAT_WINDOW_CLOSED',
      );
      expect(w.ports.outbox.entries).to.have.length(0);
      await send(FULL);
      expect(w.ports.outbox.entries).to.have.length(1);
    });

    it("open for exactly 24 hours after the contact's last message, closed a millisecond later", async () => {
      await w.message(w.t, { body: 'quero saber do pedido' });
      w.ports.clock.advance(SERVICE_WINDOW_MS);
      expect((await free('ainda dá')).messages).to.have.length(1);
      w.ports.clock.advance(1);
      expect(await code(free('agora não'))).to.equal('ERR_BIZCHAT_WINDOW_CLOSED');
      // Our own message does not reopen it; the contact's next one does.
      expect(sendsOf(w).map((s) => s.content.body)).to.deep.equal(['ainda dá']);
      await w.message(w.t, { body: 'e aí?' });
      expect((await free('agora sim')).messages).to.have.length(1);
    });

    it("only on bizchat connections, and only counting this connection's messages", async () => {
      const sandbox = await w.ticket({ status: 'open', userId: w.ana.userId });
      expect((await w.app.conversations.sendTicketMessage.execute({ actor: w.ana, ticketId: sandbox.id, body: 'sem janela' })).messages).to.have.length(1);
      // The same contact writing on the sandbox connection opens nothing on the bizchat one.
      await w.message(sandbox, { contactId: w.t.contactId });
      expect(await code(free())).to.equal('ERR_BIZCHAT_WINDOW_CLOSED');
    });
  });

  describe('sending', () => {
    it('goes through the one send path: the conversation keeps the rendered text, the outbox the template', async () => {
      const sent = await send(FULL);
      expect(sent).to.deep.include({ ticketId: w.t.id, template: { name: 'order_update', language: 'pt_BR' } });
      expect(sent.body).to.equal('*Pedido #42*\nOlá Ana, seu pedido saiu para entrega em São Paulo.\n_Loja Exemplo_');
      const stored = await w.ports.messages.findById(w.acme.id, sent.messageId);
      expect(stored).to.deep.include({ ticketId: w.t.id, fromMe: true, body: sent.body, userId: w.ana.userId, connectionId: w.bizchat.id });
      const [entry] = w.ports.outbox.entries;
      expect(entry!.id).to.equal(sent.messageId);
      expect(entry!.payload).to.deep.include({
        type: 'SessionSendMessage',
        messageId: sent.messageId,
        companyId: w.acme.id,
        chatappId: w.bizchat.id,
        ticketId: w.t.id,
      });
      expect((entry!.payload as SessionSendMessage).content).to.deep.equal({
        body: sent.body,
        template: {
          name: 'order_update',
          language: 'pt_BR',
          components: [
            { type: 'header', parameters: [{ type: 'text', text: '#42' }] },
            {
              type: 'body',
              parameters: [
                { type: 'text', text: 'Ana' },
                { type: 'text', text: 'São Paulo' },
              ],
            },
            { type: 'button', sub_type: 'url', index: '0', parameters: [{ type: 'text', text: '42' }] },
          ],
        },
      });
      expect((await w.ports.tickets.findById(w.acme.id, w.t.id))!.lastMessage).to.equal(sent.body);
    });

    it('to a number on the connection: opens its ticket and sends the same way', async () => {
      const sent = await w.app.bizchat.sendBizchatTemplate.execute({
        actor: w.admin,
        chatappId: w.bizchat.id,
        number: '5511988887777',
        templateName: 'order_update',
        language: 'pt_BR',
        parameters: FULL,
      });
      const ticket = (await w.ports.tickets.findById(w.acme.id, sent.ticketId))!;
      expect(ticket.connectionId).to.equal(w.bizchat.id);
      expect((await w.ports.contacts.findById(w.acme.id, ticket.contactId))!.number).to.equal('5511988887777');
      const [command] = sendsOf(w);
      expect(command).to.deep.include({ messageId: sent.messageId, to: '5511988887777', chatappId: w.bizchat.id });
      expect(command!.content.template?.name).to.equal('order_update');
      expect(
        await code(
          w.app.bizchat.sendBizchatTemplate.execute({
            actor: w.admin,
            chatappId: w.bizchat.id,
            templateName: 'order_update',
            language: 'pt_BR',
            parameters: FULL,
          }),
        ),
      ).to.equal('ERR_BIZCHAT_RECIPIENT_REQUIRED');
    });

    it('refuses a connection that is not bizchat', async () => {
      const sandbox = await w.ticket({ status: 'open', userId: w.ana.userId });
      expect(await code(send(FULL, { ticketId: sandbox.id }))).to.equal('ERR_NOT_BIZCHAT_CONNECTION');
      expect(await code(w.app.bizchat.listBizchatTemplates.execute({ actor: w.ana, chatappId: w.connection.id }))).to.equal('ERR_NOT_BIZCHAT_CONNECTION');
    });
  });

  it('lists the stored copy for ten minutes, then asks the provider again', async () => {
    const list = () => w.app.bizchat.listBizchatTemplates.execute({ actor: w.ana, chatappId: w.bizchat.id });
    const first = await list();
    expect(first.templates.map((t) => [t.id, t.name, t.status])).to.deep.equal([
      [ORDER_UPDATE.id, 'order_update', 'APPROVED'],
      [PROMO.id, 'promo', 'PENDING'],
    ]);
    expect(first.templates[0]!.variables).to.deep.equal({ header: 1, headerFormat: 'TEXT', body: ['1', '2'], buttons: [0] });
    w.ports.templateDirectory.accounts.get(WABA)!.templates.pop();
    w.ports.clock.advance(TEMPLATE_CACHE_MS);
    expect(
      (await list()).templates.map((t) => t.name),
      'still within its ten minutes',
    ).to.deep.equal(['order_update', 'promo']);
    w.ports.clock.advance(1);
    expect((await list()).templates.map((t) => t.name)).to.deep.equal(['order_update']);
    // An unreachable provider leaves the expired copy answering, but not an explicit refresh.
    w.ports.clock.advance(TEMPLATE_CACHE_MS + 1);
    w.ports.templateDirectory.down = true;
    expect((await list()).templates.map((t) => t.name)).to.deep.equal(['order_update']);
    expect(await code(w.app.bizchat.listBizchatTemplates.execute({ actor: w.ana, chatappId: w.bizchat.id, refresh: true }))).to.equal(
      'ERR_BIZCHAT_PROVIDER_UNAVAILABLE',
    );
  });

  it("another company's connection and ticket are not found", async () => {
    const { otherAdmin } = w;
    expect(await code(w.app.bizchat.listBizchatTemplates.execute({ actor: otherAdmin, chatappId: w.bizchat.id }))).to.equal('ERR_NO_CONNECTION_FOUND');
    expect(
      await code(
        w.app.bizchat.sendBizchatTemplate.execute({
          actor: otherAdmin,
          chatappId: w.bizchat.id,
          number: '5511988887777',
          templateName: 'order_update',
          language: 'pt_BR',
          parameters: FULL,
        }),
      ),
    ).to.equal('ERR_NO_CONNECTION_FOUND');
    expect(
      await code(
        w.app.bizchat.sendBizchatTemplate.execute({ actor: otherAdmin, ticketId: w.t.id, templateName: 'order_update', language: 'pt_BR', parameters: FULL }),
      ),
    ).to.equal('ERR_NO_TICKET_FOUND');
    expect(w.ports.outbox.entries).to.have.length(0);
    expect(await w.ports.bizchatTemplates.list(w.acme.id, w.bizchat.id), 'nothing was read from the provider for them').to.deep.equal([]);
  });
});
