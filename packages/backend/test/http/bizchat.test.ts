import { createHmac } from 'node:crypto';
import { expect } from 'chai';
import { client, newCompanyWithAdmin, startTestBackend, type TestBackend } from '../support/test-backend.js';
import { eventually } from '../support/eventually.js';
import { startFakeBizchat, type FakeBizchat } from '../support/fake-bizchat.js';
import { parseBizchatDelivery } from '@servicedesk/adapters-http';

const APP_SECRET = 'meta-app-secret-bizchat';
const PHONE_NUMBER_ID = '106540352242922';
const WABA_ID = '102290129340398';
const TOKEN = 'EAAbizchat-token-1';
/** More numbers of the same business account (a phone-number id is on one connection of the platform). */
const SECOND_NUMBER_ID = '106540352242923';
const THIRD_NUMBER_ID = '106540352242924';
const CUSTOMER = '5511988887777';

/** Templates as Meta's documentation shows them: a text header and body with positional variables, a URL button. */
const ORDER_UPDATE = {
  id: '1192339204654487',
  name: 'order_update',
  language: 'pt_BR',
  status: 'APPROVED',
  category: 'UTILITY',
  parameter_format: 'POSITIONAL',
  components: [
    { type: 'HEADER', format: 'TEXT', text: 'Pedido {{1}}' },
    { type: 'BODY', text: 'Olá {{1}}, seu pedido saiu para entrega em {{2}}.', example: { body_text: [['Ana', 'São Paulo']] } },
    { type: 'FOOTER', text: 'Loja Exemplo' },
    { type: 'BUTTONS', buttons: [{ type: 'URL', text: 'Rastrear', url: 'https://loja.example/track/{{1}}' }] },
  ],
};
const PROMO = {
  id: '530287305762233',
  name: 'promo',
  language: 'pt_BR',
  status: 'PENDING',
  category: 'MARKETING',
  components: [{ type: 'BODY', text: 'Oferta!' }],
};

function signed(payload: unknown) {
  const raw = JSON.stringify(payload);
  return { raw, headers: { 'x-hub-signature-256': `sha256=${createHmac('sha256', APP_SECRET).update(raw).digest('hex')}` } };
}

/** A `whatsapp_business_account` delivery of the `messages` field, as Meta's webhook reference shows it. */
function messagesChange(value: Record<string, unknown>) {
  return {
    object: 'whatsapp_business_account',
    entry: [
      {
        id: WABA_ID,
        changes: [
          {
            field: 'messages',
            value: { messaging_product: 'whatsapp', metadata: { display_phone_number: '551140000000', phone_number_id: PHONE_NUMBER_ID }, ...value },
          },
        ],
      },
    ],
  };
}

describe('Bizchat (business API): templates, the 24-hour window, signed webhook, through the runtime to a fake Cloud API', () => {
  let b: TestBackend;
  let fake: FakeBizchat;
  before(async () => {
    fake = await startFakeBizchat(PHONE_NUMBER_ID, TOKEN, WABA_ID);
    for (const id of [SECOND_NUMBER_ID, THIRD_NUMBER_ID]) fake.numbers.set(id, { wabaId: WABA_ID, token: TOKEN });
    fake.templates.set(WABA_ID, [ORDER_UPDATE, PROMO]);
    b = await startTestBackend({ META_APP_SECRET: APP_SECRET, META_GRAPH_URL: fake.url, OUTBOX_RELAY_INTERVAL_MS: '100' });
  });
  after(async () => {
    await b?.close();
    await fake?.close();
  });

  it('sends a template to a number, refuses free text outside the window, takes a signed inbound message, maps statuses and template updates', async () => {
    const { api } = await newCompanyWithAdmin(b);
    const incomplete = await api.post('/chatapp/', { name: 'Oficial', kind: 'bizchat', externalId: PHONE_NUMBER_ID });
    expect(incomplete.status).to.equal(422);
    expect(incomplete.body.error).to.equal('ERR_BIZCHAT_ACCOUNT_INCOMPLETE');
    const created = await api.post('/chatapp/', {
      name: 'Oficial',
      kind: 'bizchat',
      externalId: PHONE_NUMBER_ID,
      secrets: { accessToken: TOKEN, wabaId: WABA_ID },
    });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    expect(created.body).to.include({ kind: 'bizchat', provider: 'cloudapi', externalId: PHONE_NUMBER_ID });
    const chatappId = created.body.id as number;
    await eventually('the number to connect', async () => (await api.get(`/chatapp/${chatappId}`)).body.status === 'CONNECTED');

    const list = await api.get(`/bizchat-templates?chatappId=${chatappId}`);
    expect(list.status, JSON.stringify(list.body)).to.equal(200);
    expect(list.body.templates.map((t: any) => [t.name, t.status])).to.deep.equal([
      ['order_update', 'APPROVED'],
      ['promo', 'PENDING'],
    ]);
    expect(list.body.templates[0].variables).to.deep.equal({ header: 1, headerFormat: 'TEXT', body: ['1', '2'], buttons: [0] });
    expect(fake.listed).to.equal(1);
    await api.get(`/bizchat-templates?chatappId=${chatappId}`);
    expect(fake.listed, 'the stored list answers within its 10 minutes').to.equal(1);

    const missing = await api.post('/send-bizchat-template', {
      chatappId,
      number: CUSTOMER,
      templateName: 'order_update',
      language: 'pt_BR',
      parameters: { header: ['#42'], body: ['Ana'] },
    });
    expect(missing.status).to.equal(422);
    expect(missing.body.error).to.equal('ERR_BIZCHAT_TEMPLATE_PARAMETERS');
    expect(missing.body.fields.map((f: any) => [f.path, f.message])).to.deep.equal([
      ['parameters.body', 'missing {{2}}'],
      ['parameters.buttons', 'missing button 0'],
    ]);
    const pending = await api.post('/send-bizchat-template', { chatappId, number: CUSTOMER, templateName: 'promo', language: 'pt_BR' });
    expect([pending.status, pending.body.error]).to.deep.equal([422, 'ERR_BIZCHAT_TEMPLATE_NOT_APPROVED']);
    const unknown = await api.post('/send-bizchat-template', { chatappId, number: CUSTOMER, templateName: 'nope', language: 'pt_BR' });
    expect([unknown.status, unknown.body.error]).to.deep.equal([404, 'ERR_BIZCHAT_TEMPLATE_NOT_FOUND']);
    expect(fake.listed, 'a template not stored is looked for at the provider once').to.equal(2);

    const sent = await api.post('/send-bizchat-template', {
      chatappId,
      number: CUSTOMER,
      templateName: 'order_update',
      language: 'pt_BR',
      parameters: { header: ['#42'], body: ['Ana', 'São Paulo'], buttons: ['42'] },
    });
    expect(sent.status, JSON.stringify(sent.body)).to.equal(200);
    expect(sent.body.body).to.equal('*Pedido #42*\nOlá Ana, seu pedido saiu para entrega em São Paulo.\n_Loja Exemplo_');
    const ticketId = sent.body.ticketId as number;
    const out = await eventually('the template to be sent', async () => {
      const m = (await api.get(`/messages/${ticketId}`)).body.messages.find((x: any) => x.id === sent.body.messageId);
      return m && m.ack >= 1 && m;
    });
    expect(out.providerMessageId).to.equal('wamid.OUT1');
    expect(fake.sent[0]!.auth).to.equal(`Bearer ${TOKEN}`);
    expect(fake.sent[0]!.body).to.deep.equal({
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to: CUSTOMER,
      type: 'template',
      template: {
        name: 'order_update',
        language: { code: 'pt_BR' },
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

    const closed = await api.post(`/messages/${ticketId}`, { body: 'Oi, tudo bem?' });
    expect([closed.status, closed.body.error]).to.deep.equal([422, 'ERR_BIZCHAT_WINDOW_CLOSED']);

    const inbound = signed(
      messagesChange({
        contacts: [{ profile: { name: 'Ana' }, wa_id: CUSTOMER }],
        messages: [{ from: CUSTOMER, id: 'wamid.IN1', timestamp: String(Math.floor(Date.now() / 1000)), type: 'text', text: { body: 'Quando chega?' } }],
      }),
    );
    expect((await client(b.url).post('/webhook/', inbound.raw, { 'x-hub-signature-256': 'sha256=00' })).status).to.equal(401);
    expect((await client(b.url).post('/webhook/', inbound.raw)).status).to.equal(401);
    const accepted = await client(b.url).post('/webhook/', inbound.raw, inbound.headers);
    expect([accepted.status, accepted.body.accepted]).to.deep.equal([200, 1]);
    expect((await client(b.url).post('/webhook/', inbound.raw, inbound.headers)).status, 'a redelivery').to.equal(200);
    await eventually('the inbound message in the ticket', async () =>
      (await api.get(`/messages/${ticketId}`)).body.messages.some((m: any) => m.body === 'Quando chega?' && !m.fromMe),
    );
    // A later message of the conversation is handled after the redelivery: once it is in, a second copy cannot follow.
    const later = signed(
      messagesChange({
        contacts: [{ profile: { name: 'Ana' }, wa_id: CUSTOMER }],
        messages: [{ from: CUSTOMER, id: 'wamid.IN2', timestamp: String(Math.floor(Date.now() / 1000)), type: 'text', text: { body: 'E o frete?' } }],
      }),
    );
    expect((await client(b.url).post('/webhook/', later.raw, later.headers)).status).to.equal(200);
    await eventually('the later inbound message', async () => (await api.get(`/messages/${ticketId}`)).body.messages.some((m: any) => m.body === 'E o frete?'));
    expect((await api.get(`/messages/${ticketId}`)).body.messages.filter((m: any) => m.body === 'Quando chega?')).to.have.length(1);

    const reply = await api.post(`/messages/${ticketId}`, { body: 'Hoje à tarde!' });
    expect(reply.status, JSON.stringify(reply.body)).to.be.oneOf([200, 201]);
    await eventually('the reply at the provider', async () => fake.sent.length === 2);
    expect(fake.sent[1]!.body).to.deep.include({ to: CUSTOMER, type: 'text', text: { body: 'Hoje à tarde!', preview_url: false } });
    const replyId = await eventually('the reply sent', async () => {
      const m = (await api.get(`/messages/${ticketId}`)).body.messages.find((x: any) => x.body === 'Hoje à tarde!');
      return m?.providerMessageId;
    });

    // A `failed` status after `sent` is parsed with its reason mapped, but the spine keeps `failed` for pending
    // sends only (the messaging contract), so the stored message stays `sent`: see parseBizchatDelivery's test below.
    await eventually('the reply sent', async () => replyId);

    const paused = signed({
      object: 'whatsapp_business_account',
      entry: [
        {
          id: WABA_ID,
          time: Math.floor(Date.now() / 1000),
          changes: [
            {
              field: 'message_template_status_update',
              value: {
                event: 'PAUSED',
                message_template_id: Number(ORDER_UPDATE.id),
                message_template_name: 'order_update',
                message_template_language: 'pt_BR',
                reason: 'NONE',
              },
            },
          ],
        },
      ],
    });
    expect((await client(b.url).post('/webhook/', paused.raw, paused.headers)).body.accepted).to.equal(1);
    const afterPause = await api.get(`/bizchat-templates?chatappId=${chatappId}`);
    expect(afterPause.body.templates.find((t: any) => t.name === 'order_update').status).to.equal('PAUSED');
    const refusedPaused = await api.post('/send-bizchat-template', {
      ticketId,
      templateName: 'order_update',
      language: 'pt_BR',
      parameters: { header: ['1'], body: ['a', 'b'], buttons: ['1'] },
    });
    expect([refusedPaused.status, refusedPaused.body.error]).to.deep.equal([422, 'ERR_BIZCHAT_TEMPLATE_NOT_APPROVED']);

    const refreshed = await api.get(`/bizchat-templates?chatappId=${chatappId}&refresh=true`);
    expect(fake.listed).to.equal(3);
    expect(refreshed.body.templates.find((t: any) => t.name === 'order_update').status, "the provider's list replaces the stored one").to.equal('APPROVED');
  });

  it("parses a failed status with the provider's error mapped to a reason, and skips what is not documented", () => {
    const delivery = parseBizchatDelivery(
      messagesChange({
        statuses: [
          {
            id: 'wamid.X',
            status: 'failed',
            timestamp: '1700000000',
            recipient_id: CUSTOMER,
            errors: [{ code: 131047, title: 'Re-engagement message', error_data: { details: 'More than 24 hours have passed.' } }],
          },
          { id: 'wamid.Y', status: 'delivered', timestamp: '1700000001', recipient_id: CUSTOMER },
          { id: 'wamid.Z', status: 'deleted' },
        ],
        messages: [
          { from: 'not-a-number', id: 'wamid.BAD', type: 'text', text: { body: 'x' } },
          { from: CUSTOMER, id: 'wamid.IMG', timestamp: '1700000002', type: 'image', image: { caption: 'Foto', id: 'MEDIA-1' } },
        ],
      }),
    );
    expect(delivery.numbers).to.deep.equal([
      {
        phoneNumberId: PHONE_NUMBER_ID,
        events: [
          {
            type: 'InboundMessage',
            providerMessageId: 'wamid.IMG',
            from: CUSTOMER,
            senderName: CUSTOMER,
            // The caption is the body; the file is fetched later by its media id (no type given: a JPEG, as Meta's photos are).
            body: 'Foto',
            isGroup: false,
            at: '2023-11-14T22:13:22.000Z',
            media: { kind: 'image', mimetype: 'image/jpeg', source: { from: 'cloudapi', mediaId: 'MEDIA-1' } },
          },
          {
            type: 'MessageStatusChanged',
            providerMessageId: 'wamid.X',
            status: 'failed',
            reason: 'ERR_BIZCHAT_WINDOW_CLOSED: More than 24 hours have passed.',
            at: '2023-11-14T22:13:20.000Z',
          },
          { type: 'MessageStatusChanged', providerMessageId: 'wamid.Y', status: 'delivered', at: '2023-11-14T22:13:21.000Z' },
        ],
      },
    ]);
    expect(parseBizchatDelivery({ object: 'page', entry: [] })).to.deep.equal({ numbers: [], templates: [] });
    expect(parseBizchatDelivery(null)).to.deep.equal({ numbers: [], templates: [] });
  });

  it("a refused send ends failed with the provider's reason mapped", async () => {
    const { api } = await newCompanyWithAdmin(b);
    const created = await api.post('/chatapp/', {
      name: 'Oficial 2',
      kind: 'bizchat',
      externalId: SECOND_NUMBER_ID,
      secrets: { accessToken: TOKEN, wabaId: WABA_ID },
    });
    await eventually('the number to connect', async () => (await api.get(`/chatapp/${created.body.id}`)).body.status === 'CONNECTED');
    fake.refusals.set('5511900001111', { code: 131026, message: 'Message undeliverable', details: 'Unable to deliver message.' });
    const sent = await api.post('/send-bizchat-template', {
      chatappId: created.body.id,
      number: '5511900001111',
      templateName: 'order_update',
      language: 'pt_BR',
      parameters: { header: ['#1'], body: ['Bia', 'Recife'], buttons: ['1'] },
    });
    expect(sent.status, JSON.stringify(sent.body)).to.equal(200);
    const m = await eventually('the refusal', async () => {
      const found = (await api.get(`/messages/${sent.body.ticketId}`)).body.messages.find((x: any) => x.id === sent.body.messageId);
      return found?.status === 'failed' && found;
    });
    expect(m.failureReason).to.equal('ERR_BIZCHAT_UNDELIVERABLE: Unable to deliver message.');
  });

  it('a number is taken only with a token that reaches it in its business account, once on the platform (no squatting)', async () => {
    // Company A's number and token in its account; company B's own number, token and account.
    const [aNumber, aWaba, aToken] = ['106540352250001', '102290129350001', 'EAA-token-of-company-a'];
    const [bNumber, bWaba, bToken] = ['106540352250002', '102290129350002', 'EAA-token-of-company-b'];
    fake.numbers.set(aNumber, { wabaId: aWaba, token: aToken });
    fake.numbers.set(bNumber, { wabaId: bWaba, token: bToken });
    const a = await newCompanyWithAdmin(b);
    const squatter = await newCompanyWithAdmin(b);
    const register = (api: typeof a.api, externalId: string, accessToken: string, wabaId: string) =>
      api.post('/chatapp/', { name: 'Número', kind: 'bizchat', externalId, secrets: { accessToken, wabaId } });
    const answer = (res: { status: number; body: any }) => [res.status, res.body.error];

    // B first, with A's number: its own token does not reach it (in its account or in A's), a made-up token is refused.
    expect(answer(await register(squatter.api, aNumber, bToken, bWaba))).to.deep.equal([422, 'ERR_BIZCHAT_NUMBER_NOT_OWNED']);
    expect(answer(await register(squatter.api, aNumber, bToken, aWaba))).to.deep.equal([422, 'ERR_BIZCHAT_NUMBER_NOT_OWNED']);
    expect(answer(await register(squatter.api, aNumber, 'EAA-made-up', aWaba))).to.deep.equal([422, 'ERR_BIZCHAT_TOKEN_INVALID']);
    // A token that reaches the number, naming another account than the number's.
    expect(answer(await register(a.api, aNumber, aToken, bWaba))).to.deep.equal([422, 'ERR_BIZCHAT_NUMBER_NOT_OWNED']);
    expect((await squatter.api.get('/chatapp/')).body).to.deep.equal([]);

    const mine = await register(a.api, aNumber, aToken, aWaba);
    expect(mine.status, JSON.stringify(mine.body)).to.equal(201);
    // A second registration of the number, by B with A's token or by A itself: 409.
    expect(answer(await register(squatter.api, aNumber, aToken, aWaba))).to.deep.equal([409, 'ERR_BIZCHAT_NUMBER_IN_USE']);
    expect(answer(await register(a.api, aNumber, aToken, aWaba))).to.deep.equal([409, 'ERR_BIZCHAT_NUMBER_IN_USE']);

    // Edits: B's own number is fine; moving it onto A's number is refused as a creation would be.
    const theirs = await register(squatter.api, bNumber, bToken, bWaba);
    expect(theirs.status, JSON.stringify(theirs.body)).to.equal(201);
    const edit = (body: object) => squatter.api.put(`/chatapp/${theirs.body.id}`, body);
    expect(answer(await edit({ externalId: aNumber }))).to.deep.equal([422, 'ERR_BIZCHAT_NUMBER_NOT_OWNED']);
    expect(answer(await edit({ externalId: aNumber, secrets: { accessToken: aToken, wabaId: aWaba } }))).to.deep.equal([409, 'ERR_BIZCHAT_NUMBER_IN_USE']);
    expect(answer(await edit({ secrets: { accessToken: 'EAA-made-up', wabaId: bWaba } }))).to.deep.equal([422, 'ERR_BIZCHAT_TOKEN_INVALID']);
    expect((await squatter.api.get(`/chatapp/${theirs.body.id}`)).body.externalId).to.equal(bNumber);

    // The provider down: a new claim answers 503 (not 500); an edit keeping the number, token and account asks nothing.
    fake.down = true;
    try {
      expect(answer(await register(squatter.api, '106540352250003', bToken, bWaba))).to.deep.equal([503, 'ERR_BIZCHAT_PROVIDER_UNAVAILABLE']);
      expect(answer(await edit({ secrets: { accessToken: `${bToken}-rotated`, wabaId: bWaba } }))).to.deep.equal([503, 'ERR_BIZCHAT_PROVIDER_UNAVAILABLE']);
      const renamed = await edit({ name: 'Renomeado', externalId: bNumber, secrets: { accessToken: bToken, wabaId: bWaba } });
      expect(renamed.status, JSON.stringify(renamed.body)).to.equal(200);
    } finally {
      fake.down = false;
    }
  });

  it('checks tenancy, the connection kind and the input', async () => {
    const owner = await newCompanyWithAdmin(b);
    const other = await newCompanyWithAdmin(b);
    const created = await owner.api.post('/chatapp/', {
      name: 'Oficial 3',
      kind: 'bizchat',
      externalId: THIRD_NUMBER_ID,
      secrets: { accessToken: TOKEN, wabaId: WABA_ID },
    });
    const foreign = await other.api.get(`/bizchat-templates?chatappId=${created.body.id}`);
    expect([foreign.status, foreign.body.error]).to.deep.equal([404, 'ERR_NO_CONNECTION_FOUND']);
    const foreignSend = await other.api.post('/send-bizchat-template', {
      chatappId: created.body.id,
      number: CUSTOMER,
      templateName: 'order_update',
      language: 'pt_BR',
    });
    expect(foreignSend.status).to.equal(404);
    const chatapp = await owner.api.post('/chatapp/', { name: 'Sessão', provider: 'sandbox' });
    const wrongKind = await owner.api.get(`/bizchat-templates?chatappId=${chatapp.body.id}`);
    expect([wrongKind.status, wrongKind.body.error]).to.deep.equal([422, 'ERR_NOT_BIZCHAT_CONNECTION']);
    expect((await owner.api.get('/bizchat-templates')).status).to.equal(422);
    expect((await owner.api.get('/bizchat-templates?chatappId=abc')).status).to.equal(422);
    const noRecipient = await owner.api.post('/send-bizchat-template', { templateName: 'order_update', language: 'pt_BR' });
    expect([noRecipient.status, noRecipient.body.error]).to.deep.equal([422, 'ERR_BIZCHAT_RECIPIENT_REQUIRED']);
    const badNumber = await owner.api.post('/send-bizchat-template', {
      chatappId: created.body.id,
      number: 'abc',
      templateName: 'order_update',
      language: 'pt_BR',
      parameters: { header: ['#1'], body: ['a', 'b'], buttons: ['1'] },
    });
    expect([badNumber.status, badNumber.body.error]).to.deep.equal([422, 'ERR_INVALID_NUMBER']);
    expect((await client(b.url).get(`/bizchat-templates?chatappId=${created.body.id}`)).status).to.equal(401);
  });
});
