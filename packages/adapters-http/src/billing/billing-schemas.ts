import { CHARGE_STATUSES } from '@servicedesk/core/billing/charge';
import { z } from 'zod';

/** What the billing routes answer (packages/core/src/billing). */

const CHARGE_EXAMPLE = {
  invoiceId: 12,
  chargeId: 3,
  status: 'pending' as const,
  amount: '99.90',
  expiresAt: '2026-05-08T14:00:00.000Z',
  pix: {
    copyPaste: '00020126580014br.gov.bcb.pix0136a1b2c3d4-e5f6-47a8-99b0-c1d2e3f4a5b65204000053039865406199.905802BR6304ABCD',
    qrCodePng: 'iVBORw0KGgoAAAANSUhEUgAA…',
  },
};

export const chargeSchema = z
  .object({
    invoiceId: z.number().int().positive(),
    chargeId: z.number().int().positive(),
    status: z.enum(CHARGE_STATUSES).meta({ description: '`pending` until paid; `paid`, `cancelled`, `expired` or `refunded` after' }),
    amount: z.string().meta({ description: "The invoice's value, a decimal string" }),
    expiresAt: z.iso.datetime().meta({ description: 'After this the Pix cannot be paid: ask again for a new charge' }),
    pix: z.object({
      copyPaste: z.string().meta({ description: 'The Pix "copia e cola" text' }),
      qrCodePng: z.string().meta({ description: 'The QR code, a PNG image in base64' }),
    }),
  })
  .meta({ id: 'PixCharge', description: 'A Pix charge of one invoice: what the payer needs to pay it', example: CHARGE_EXAMPLE });

export const paymentReceiptSchema = z
  .object({ ok: z.literal(true) })
  .meta({ id: 'PaymentNotificationReceipt', description: 'The notification was taken (or was about nothing to apply)', example: { ok: true } });

export const billingWebhookSchema = z
  .object({
    provider: z.string().meta({ description: 'The gateway (`mercadopago`)' }),
    url: z.string().meta({ description: "Where the gateway must notify payments: set it in the gateway's dashboard" }),
    enabled: z.boolean().meta({ description: 'Whether notifications are taken (false: answered 503, the gateway retries them)' }),
    verifiedAt: z.iso.datetime().nullable().meta({ description: "When the gateway last accepted the platform's credentials" }),
  })
  .meta({
    id: 'BillingWebhook',
    description: "The gateway's notifications as the platform takes them",
    example: {
      provider: 'mercadopago',
      url: 'https://desk.example.com/subscription/return/<RETURN_TOKEN>/pix',
      enabled: true,
      verifiedAt: '2026-05-01T12:00:00.000Z',
    },
  });
