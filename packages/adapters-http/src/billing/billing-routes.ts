import { UnauthorizedError, type Application } from '@servicedesk/core';
import type { Context } from 'koa';
import { z } from 'zod';
import { sameSecret } from '../http/auth-middleware.js';
import { route } from '../http/route.js';
import { id } from '../http/schemas.js';
import { billingWebhookSchema, chargeSchema, paymentReceiptSchema } from './billing-schemas.js';

export interface BillingRouteOptions {
  /** `BILLING_RETURN_TOKEN`: the secret segment of the notification path; unset, every notification is refused. */
  readonly returnToken?: string;
  /** `BILLING_WEBHOOK_SECRET`: the caller of `POST /subscription/create/webhook` proves it holds it; unset, that route is closed. */
  readonly webhookSecret?: string;
}

/** A notification is a few hundred bytes. */
const NOTIFICATION_BODY_LIMIT = 64 * 1024;

/** Header and query values as strings (a repeated one is not a value any gateway signs). */
const strings = (from: Record<string, string | string[] | undefined>) =>
  Object.fromEntries(Object.entries(from).filter((e): e is [string, string] => typeof e[1] === 'string'));

/** Subscriptions: paying an invoice by Pix, and the payment gateway's notifications. */
export function billingRoutes(app: Pick<Application, 'billing'>, o: BillingRouteOptions) {
  const tag = 'Subscriptions, invoices, webhooks';
  const webhookSecret = (ctx: Context) => {
    const given = ctx.get('x-webhook-secret');
    if (!o.webhookSecret || !given || !sameSecret(given, o.webhookSecret)) throw new UnauthorizedError('ERR_INVALID_WEBHOOK_SECRET');
  };
  const returnToken = (ctx: Context) => {
    const given = (ctx.params as { RETURN_TOKEN?: string }).RETURN_TOKEN;
    if (!o.returnToken || !given || !sameSecret(given, o.returnToken)) throw new UnauthorizedError('ERR_INVALID_PAYMENT_SIGNATURE');
  };
  return [
    route({
      method: 'POST',
      path: '/subscription',
      auth: 'isAuth',
      tag,
      summary: "Pay one of the company's open invoices by Pix (admins)",
      body: z.object({ invoiceId: id.meta({ description: "An open invoice of the caller's company", example: 12 }) }).meta({ example: { invoiceId: 12 } }),
      description:
        "A company admin asks to pay an open invoice of the company: the answer is a Pix charge of the invoice's value (the lineage's " +
        '`price`, `users` and `plan` are ignored) with its "copia e cola" and QR code, payable for an hour. While a pending charge of the invoice ' +
        "still has five minutes to go it is answered again instead of a new one. Another company's invoice is not found. The payment is " +
        "applied when the gateway notifies it: the invoice becomes `paid`, the company's due date moves one plan period and a " +
        '`company-<id>-payment` frame (`CONCLUIDA`) goes to its admins.',
      response: chargeSchema,
      errors: [
        { status: 403, codes: ['ERR_NO_PERMISSION'] },
        { status: 404, codes: ['ERR_NO_INVOICE_FOUND'] },
        { status: 409, codes: ['ERR_INVOICE_NOT_OPEN', 'ERR_INVOICE_NOTHING_TO_PAY'] },
        { status: 422, codes: ['ERR_URL_NOT_ALLOWED'], description: 'The configured gateway URL is not a public address' },
        { status: 503, codes: ['ERR_PAYMENT_GATEWAY_UNAVAILABLE', 'ERR_PAYMENT_GATEWAY_REFUSED'] },
      ],
      handler: async ({ actor, body }) => app.billing.payInvoice.execute({ actor, invoiceId: body.invoiceId }),
    }),
    route({
      method: 'POST',
      path: '/subscription/create/webhook',
      auth: 'none',
      tag,
      summary: 'Check the gateway and take its notifications (webhook secret)',
      guard: webhookSecret,
      description:
        "For the platform's operator, who proves it with the webhook secret in `X-Webhook-Secret` (the route is public in the inventory, " +
        'so it is closed without it: 401). Mercado Pago takes the notification URL and signs with its secret from its dashboard (Your integrations → ' +
        "Webhooks, event Payments), so nothing here re-points it: the route checks that the gateway accepts the platform's access token, " +
        "turns the notifications on (again) and answers the URL the dashboard must notify. Any body (the lineage's `{chave, url}`) is ignored.",
      response: billingWebhookSchema,
      errors: [
        { status: 401, codes: ['ERR_INVALID_WEBHOOK_SECRET'] },
        { status: 422, codes: ['ERR_URL_NOT_ALLOWED'], description: 'The configured gateway URL is not a public address' },
        { status: 503, codes: ['ERR_PAYMENT_GATEWAY_UNAVAILABLE', 'ERR_PAYMENT_GATEWAY_REFUSED'] },
      ],
      handler: async () => app.billing.registerWebhook.execute(),
    }),
    route({
      method: 'DELETE',
      path: '/subscription/create/webhook',
      auth: 'isAuth',
      tag,
      summary: "Stop taking the gateway's notifications (super)",
      description:
        'Super users only. Notifications are then answered 503 `ERR_PAYMENT_NOTIFICATIONS_DISABLED`, which the gateway retries; ' +
        '`POST /subscription/create/webhook` turns them on again (after a leaked secret was replaced, say).',
      response: billingWebhookSchema,
      errors: [
        { status: 403, codes: ['ERR_NO_PERMISSION'] },
        { status: 503, codes: ['ERR_PAYMENT_GATEWAY_UNAVAILABLE'] },
      ],
      handler: async ({ actor }) => app.billing.disableWebhook.execute({ actor }),
    }),
    route({
      method: 'POST',
      path: '/subscription/return/<RETURN_TOKEN>/pix',
      auth: 'none',
      tag,
      summary: "The payment gateway's signed notifications",
      raw: NOTIFICATION_BODY_LIMIT,
      guard: returnToken,
      description:
        "`<RETURN_TOKEN>` is the configured secret `BILLING_RETURN_TOKEN`; the notification must also carry Mercado Pago's signature " +
        '(`x-signature: ts=…,v1=…`, HMAC-SHA256 with `BILLING_WEBHOOK_SECRET` over `id:<data.id>;request-id:<x-request-id>;ts:<ts>;`, `data.id` ' +
        'from the URL). Either missing or wrong: 401, nothing changes, and it is logged. A signed `payment` notification is recorded once per ' +
        "event id (a redelivery changes nothing) and applied in the background, the payment's state read from the gateway. Anything else " +
        'signed (another topic, a test) is acknowledged and ignored.',
      response: paymentReceiptSchema,
      errors: [
        { status: 401, codes: ['ERR_INVALID_PAYMENT_SIGNATURE'] },
        { status: 503, codes: ['ERR_PAYMENT_GATEWAY_UNAVAILABLE', 'ERR_PAYMENT_NOTIFICATIONS_DISABLED'] },
      ],
      handler: async ({ raw, ctx }) => {
        await app.billing.receivePaymentNotice.execute({
          headers: strings(ctx.headers),
          query: strings(ctx.query as Record<string, string | string[] | undefined>),
          rawBody: raw,
        });
        return { ok: true as const };
      },
    }),
  ];
}
