import type { Jobs } from '../jobs/jobs.js';
import { ServiceUnavailableError, UnauthorizedError } from '../shared/errors.js';
import type { Clock, Transaction } from '../shared/ports.js';
import type { BillingJournal, BillingWebhooks, PaymentEvents, PaymentGateway, PaymentNotification } from './ports.js';

/** The job that reads a notified charge from the gateway and applies it. */
export const APPLY_PAYMENT_JOB = 'billing.apply-payment';

export interface ApplyPaymentPayload {
  readonly provider: string;
  readonly chargeId: string;
}

/** Headers worth logging about a refused notification (never a signature or a token). */
const TRACED = ['x-request-id', 'user-agent', 'content-type'];

/**
 * A gateway's notification, answered fast: the signature is checked (an unsigned or wrongly signed one
 * changes nothing and is logged), the event is recorded once per gateway event id, and a job applies it
 * — reading the charge's state from the gateway, never from the notification. A redelivered event is
 * recorded already and enqueues nothing.
 */
export class ReceivePaymentNotice {
  constructor(
    private readonly deps: {
      gateway: PaymentGateway | null;
      events: PaymentEvents;
      webhooks: BillingWebhooks;
      jobQueue: Jobs;
      tx: Transaction;
      clock: Clock;
      journal: BillingJournal;
    },
  ) {}

  /** `accepted`: a new event about a payment, whose job is queued. */
  async execute(notification: PaymentNotification): Promise<{ accepted: boolean }> {
    const { gateway, events, webhooks, jobQueue, tx, clock, journal } = this.deps;
    if (!gateway) throw new ServiceUnavailableError('ERR_PAYMENT_GATEWAY_UNAVAILABLE');
    if (!gateway.verifyWebhook(notification)) {
      const trace = Object.fromEntries(TRACED.map((h) => [h, notification.headers[h]]).filter(([, v]) => v !== undefined));
      journal.warn({ provider: gateway.provider, ...trace, bytes: notification.rawBody.length }, 'payment notification refused: missing or wrong signature');
      throw new UnauthorizedError('ERR_INVALID_PAYMENT_SIGNATURE');
    }
    if ((await webhooks.find(gateway.provider))?.enabled === false) throw new ServiceUnavailableError('ERR_PAYMENT_NOTIFICATIONS_DISABLED');
    const notice = gateway.parseEvent(notification);
    if (!notice) return { accepted: false };
    const now = clock.now();
    const provider = gateway.provider;
    const accepted = await tx.run(async () => {
      const fresh = await events.record({ provider, eventId: notice.eventId, chargeId: notice.chargeId, receivedAt: now });
      if (fresh) await jobQueue.enqueue<ApplyPaymentPayload>({ name: APPLY_PAYMENT_JOB, at: now, payload: { provider, chargeId: notice.chargeId } });
      return fresh;
    });
    return { accepted };
  }
}
