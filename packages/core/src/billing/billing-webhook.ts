import { assertSuper, type Actor } from '../shared/actor.js';
import { ServiceUnavailableError } from '../shared/errors.js';
import type { Clock } from '../shared/ports.js';
import type { BillingSettings, BillingWebhook, BillingWebhooks, PaymentGateway } from './ports.js';

export interface BillingWebhookView {
  readonly provider: string;
  /** Where the gateway must send its notifications (set in its dashboard). */
  readonly url: string;
  readonly enabled: boolean;
  readonly verifiedAt: string | null;
}

const toView = (w: BillingWebhook): BillingWebhookView => ({
  provider: w.provider,
  url: w.url,
  enabled: w.enabled,
  verifiedAt: w.verifiedAt ? w.verifiedAt.toISOString() : null,
});

/**
 * Turns the gateway's notifications on (again) after checking that the gateway accepts the
 * platform's credentials, and answers the URL its dashboard must notify. The caller proved it holds
 * the platform's webhook secret (the route checks it); nothing here re-points the gateway.
 */
export class RegisterBillingWebhook {
  constructor(private readonly deps: { gateway: PaymentGateway | null; webhooks: BillingWebhooks; clock: Clock; settings: BillingSettings }) {}

  async execute(): Promise<BillingWebhookView> {
    const { gateway, webhooks, clock, settings } = this.deps;
    if (!gateway) throw new ServiceUnavailableError('ERR_PAYMENT_GATEWAY_UNAVAILABLE');
    await gateway.checkAccess();
    const now = clock.now();
    const webhook: BillingWebhook = { provider: gateway.provider, url: settings.notificationUrl, enabled: true, verifiedAt: now, updatedAt: now };
    await webhooks.save(webhook);
    return toView(webhook);
  }
}

/**
 * Super users stop taking the gateway's notifications (a leaked secret, a gateway account being
 * changed): they are answered 503, so the gateway keeps them and retries until they are turned on again.
 */
export class DisableBillingWebhook {
  constructor(private readonly deps: { gateway: PaymentGateway | null; webhooks: BillingWebhooks; clock: Clock; settings: BillingSettings }) {}

  async execute(input: { actor: Actor }): Promise<BillingWebhookView> {
    assertSuper(input.actor);
    const { gateway, webhooks, clock, settings } = this.deps;
    if (!gateway) throw new ServiceUnavailableError('ERR_PAYMENT_GATEWAY_UNAVAILABLE');
    const known = await webhooks.find(gateway.provider);
    const webhook: BillingWebhook = {
      provider: gateway.provider,
      url: known?.url ?? settings.notificationUrl,
      enabled: false,
      verifiedAt: known?.verifiedAt ?? null,
      updatedAt: clock.now(),
    };
    await webhooks.save(webhook);
    return toView(webhook);
  }
}
