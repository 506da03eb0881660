import { createHmac } from 'node:crypto';
import { expect } from 'chai';
import { mercadoPagoNotification, startFakeMercadoPago, type FakeMercadoPago, type FakeNotification } from '@servicedesk/core/contracts/fake-mercado-pago';
import type { PaymentNotification, PixChargeRequest } from '@servicedesk/core/billing/ports';
import { MercadoPagoGateway, mercadoPagoManifest, mercadoPagoStatus } from '../src/index.js';

const code = (p: Promise<unknown>) =>
  p.then(
    () => 'resolved',
    (e: { code?: string }) => e.code,
  );
const TOKEN = 'APP_USR-0123456789-platform';
const SECRET = 'mp-webhook-secret-0123456789';

const request = (overrides: Partial<PixChargeRequest> = {}): PixChargeRequest => ({
  idempotencyKey: 'invoice-12-1767268800000-charge-1',
  reference: 'invoice-12',
  amount: '99.90',
  description: 'Plano Pro (2026-05-10) (#12)',
  payer: { name: 'Loja Exemplo Ltda', email: 'financeiro@loja.test', document: '12.345.678/0001-90' },
  expiresAt: new Date('2026-05-08T14:00:00.000Z'),
  ...overrides,
});

/** A fake notification as the route hands it to the gateway: lower-case headers, the URL's query. */
function received(
  n: FakeNotification,
  change: { query?: Record<string, string>; headers?: Record<string, string | undefined>; body?: string } = {},
): PaymentNotification {
  const query = Object.fromEntries(new URLSearchParams(n.query.slice(1)));
  return { headers: { ...n.headers, ...change.headers }, query: { ...query, ...change.query }, rawBody: Buffer.from(change.body ?? n.body) };
}

describe('MercadoPagoGateway against a fake Mercado Pago on loopback', () => {
  let fake: FakeMercadoPago;
  let gateway: MercadoPagoGateway;
  before(async () => {
    fake = await startFakeMercadoPago({ tokens: [TOKEN] });
    gateway = new MercadoPagoGateway({ baseUrl: fake.baseUrl, accessToken: TOKEN, webhookSecret: SECRET, allowPrivate: true, timeoutMs: 1_000 });
  });
  after(() => fake.close());
  beforeEach(() => {
    fake.requests.length = 0;
    fake.mode = 'ok';
  });

  it('creates a Pix payment as documented (Bearer token, idempotency key, pix, payer with CNPJ) and reads back its code and QR image', async () => {
    const charge = await gateway.createPixCharge(request());
    const [sent] = fake.requests;
    expect(sent).to.deep.include({
      method: 'POST',
      path: '/v1/payments',
      authorization: `Bearer ${TOKEN}`,
      idempotencyKey: 'invoice-12-1767268800000-charge-1',
    });
    expect(sent!.body).to.deep.equal({
      transaction_amount: 99.9,
      description: 'Plano Pro (2026-05-10) (#12)',
      payment_method_id: 'pix',
      external_reference: 'invoice-12',
      date_of_expiration: '2026-05-08T14:00:00.000+00:00',
      payer: { email: 'financeiro@loja.test', first_name: 'Loja', last_name: 'Exemplo Ltda', identification: { type: 'CNPJ', number: '12345678000190' } },
    });
    const stored = fake.payments.get(Number(charge.id))!;
    expect(charge).to.deep.equal({
      id: String(stored.id),
      status: 'pending',
      amount: '99.90',
      expiresAt: new Date('2026-05-08T14:00:00.000Z'),
      paidAt: null,
      copyPaste: stored.point_of_interaction.transaction_data.qr_code,
      qrCodePng: stored.point_of_interaction.transaction_data.qr_code_base64,
    });
    // The same key again (a retry, a second click): the same payment, not another.
    expect((await gateway.createPixCharge(request())).id).to.equal(charge.id);
    // A CPF, or no document at all.
    await gateway.createPixCharge(request({ idempotencyKey: 'k-cpf', payer: { name: 'Ana', email: 'ana@x.test', document: '123.456.789-09' } }));
    expect(fake.requests.at(-1)!.body!.payer).to.deep.equal({ email: 'ana@x.test', first_name: 'Ana', identification: { type: 'CPF', number: '12345678909' } });
    await gateway.createPixCharge(request({ idempotencyKey: 'k-none', payer: { name: 'Ana', email: 'ana@x.test', document: null } }));
    expect(fake.requests.at(-1)!.body!.payer).to.deep.equal({ email: 'ana@x.test', first_name: 'Ana' });
  });

  it('reads a payment by id with its state mapped, and knows no other', async () => {
    const { id } = await gateway.createPixCharge(request({ idempotencyKey: 'k-read' }));
    expect((await gateway.getCharge(id))!.status).to.equal('pending');
    fake.approve(Number(id), new Date('2026-05-08T13:10:00.000Z'));
    expect(await gateway.getCharge(id))
      .to.include({ status: 'paid' })
      .and.have.deep.property('paidAt', new Date('2026-05-08T13:10:00.000Z'));
    expect(await gateway.getCharge('999')).to.equal(null);
    const before = fake.requests.length;
    expect(await gateway.getCharge('../users/me')).to.equal(null);
    expect(fake.requests.length, 'an id that is not a payment id is never sent').to.equal(before);
  });

  it('maps every documented payment status, "approved" alone settling', async () => {
    const cases: Array<[string, string, string]> = [
      ['approved', 'accredited', 'paid'],
      ['pending', 'pending_waiting_transfer', 'pending'],
      ['authorized', 'pending_capture', 'pending'],
      ['in_process', 'pending_review_manual', 'pending'],
      ['in_mediation', 'in_mediation', 'pending'],
      ['rejected', 'cc_rejected_other_reason', 'cancelled'],
      ['cancelled', 'expired', 'expired'],
      ['cancelled', 'by_collector', 'cancelled'],
      ['refunded', 'refunded', 'refunded'],
      ['charged_back', 'settled', 'refunded'],
      ['something_new', 'x', 'pending'],
    ];
    const { id } = await gateway.createPixCharge(request({ idempotencyKey: 'k-states' }));
    for (const [status, detail, ours] of cases) {
      expect(mercadoPagoStatus(status, detail), status).to.equal(ours);
      fake.setStatus(Number(id), status, detail);
      expect((await gateway.getCharge(id))!.status, `${status}/${detail} read back`).to.equal(ours);
    }
  });

  it('tells a refusal (wrong token) from a gateway that is down, slow or not there', async () => {
    const wrong = new MercadoPagoGateway({ baseUrl: fake.baseUrl, accessToken: 'APP_USR-wrong', allowPrivate: true, timeoutMs: 1_000 });
    expect(await code(wrong.createPixCharge(request()))).to.equal('ERR_PAYMENT_GATEWAY_REFUSED');
    expect(await code(wrong.checkAccess())).to.equal('ERR_PAYMENT_GATEWAY_REFUSED');
    expect(await code(gateway.checkAccess())).to.equal('resolved');
    expect(fake.requests.at(-1)).to.deep.include({ method: 'GET', path: '/users/me' });
    fake.mode = 'server-error';
    expect(await code(gateway.createPixCharge(request()))).to.equal('ERR_PAYMENT_GATEWAY_UNAVAILABLE');
    expect(await code(gateway.getCharge('1000000001'))).to.equal('ERR_PAYMENT_GATEWAY_UNAVAILABLE');
    fake.mode = 'slow';
    expect(await code(gateway.getCharge('1000000001'))).to.equal('ERR_PAYMENT_GATEWAY_UNAVAILABLE');
    const closed = new MercadoPagoGateway({ baseUrl: 'http://127.0.0.1:1', accessToken: TOKEN, allowPrivate: true, timeoutMs: 1_000 });
    expect(await code(closed.checkAccess())).to.equal('ERR_PAYMENT_GATEWAY_UNAVAILABLE');
  });

  it('refuses loopback and private addresses unless the deployment allows them', async () => {
    const strict = new MercadoPagoGateway({ baseUrl: fake.baseUrl, accessToken: TOKEN, timeoutMs: 1_000 });
    expect(await code(strict.createPixCharge(request()))).to.equal('ERR_URL_NOT_ALLOWED');
    expect(await code(new MercadoPagoGateway({ baseUrl: 'http://10.0.0.8', accessToken: TOKEN }).getCharge('1'))).to.equal('ERR_URL_NOT_ALLOWED');
    expect(fake.requests).to.have.length(0);
  });

  describe('webhook signatures (x-signature over id, request-id and ts)', () => {
    it('builds the documented manifest, leaving out absent parts and lower-casing an alphanumeric id', () => {
      expect(mercadoPagoManifest('123456', 'req-1', '1704908010')).to.equal('id:123456;request-id:req-1;ts:1704908010;');
      expect(mercadoPagoManifest('ABC123', undefined, '1')).to.equal('id:abc123;ts:1;');
      expect(mercadoPagoManifest(undefined, 'r', '1')).to.equal('request-id:r;ts:1;');
    });

    it('accepts a notification signed with the secret and refuses every other', () => {
      const n = mercadoPagoNotification(SECRET, 1_000_000_001, { notificationId: 555 });
      expect(gateway.verifyWebhook(received(n))).to.equal(true);
      expect(gateway.verifyWebhook(received(mercadoPagoNotification('another-secret-0123456789', 1_000_000_001))), 'another secret').to.equal(false);
      expect(gateway.verifyWebhook(received(n, { query: { 'data.id': '1000000002' } })), 'another payment').to.equal(false);
      expect(gateway.verifyWebhook(received(n, { headers: { 'x-request-id': 'replayed' } })), 'another request id').to.equal(false);
      expect(gateway.verifyWebhook(received(n, { headers: { 'x-signature': undefined } })), 'unsigned').to.equal(false);
      for (const bad of ['garbage', 'ts=1', 'v1=abc', `ts=1,v1=${'0'.repeat(64)}`, `ts=1,v1=${'z'.repeat(64)}`]) {
        expect(gateway.verifyWebhook(received(n, { headers: { 'x-signature': bad } })), bad).to.equal(false);
      }
      const unconfigured = new MercadoPagoGateway({ baseUrl: fake.baseUrl, accessToken: TOKEN, allowPrivate: true });
      expect(unconfigured.verifyWebhook(received(n)), 'no secret configured').to.equal(false);
    });

    it('signs an alphanumeric data.id in lower case, as Mercado Pago does', () => {
      const ts = '1704908010';
      const v1 = createHmac('sha256', SECRET).update(`id:abc123;request-id:r-1;ts:${ts};`).digest('hex');
      const n: PaymentNotification = {
        headers: { 'x-signature': `ts=${ts},v1=${v1}`, 'x-request-id': 'r-1' },
        query: { 'data.id': 'ABC123' },
        rawBody: Buffer.alloc(0),
      };
      expect(gateway.verifyWebhook(n)).to.equal(true);
    });

    it('reads a payment notification: the payment from the signed URL, the event from the body, nothing from other topics', () => {
      const n = mercadoPagoNotification(SECRET, 1_000_000_001, { notificationId: 555, requestId: 'req-9' });
      expect(gateway.parseEvent(received(n))).to.deep.equal({ eventId: '555', chargeId: '1000000001', status: null });
      // The body is not what says which payment: a body naming another changes nothing.
      expect(gateway.parseEvent(received(n, { body: JSON.stringify({ id: 555, type: 'payment', data: { id: '42' } }) }))!.chargeId).to.equal('1000000001');
      expect(gateway.parseEvent(received(n, { body: 'not json' }))).to.deep.equal({ eventId: 'request:req-9', chargeId: '1000000001', status: null });
      expect(gateway.parseEvent(received(n, { query: { type: 'merchant_order' } }))).to.equal(null);
      expect(gateway.parseEvent(received(n, { query: { 'data.id': '1; drop' } }))).to.equal(null);
    });
  });
});
