import { billingRoutes, MercadoPagoGateway } from '@servicedesk/adapters-http';
import { createBilling, type BillingApi } from '@servicedesk/core/compose/billing';
import { feature, type Feature } from './feature.js';
import { PERSISTENCE_FEATURES, tablesOf } from '@servicedesk/adapters-persistence/features';

/**
 * Subscriptions: invoices issued per billing cycle and overdue companies suspended (the daily job
 * `billing.cycle`), invoices paid by Pix through Mercado Pago (`BILLING_ACCESS_TOKEN`; without it
 * paying answers 503), its signed notifications applied by the job `billing.apply-payment`. The
 * suspensions it keeps are read by sign-in and every send.
 */
export const billing: Feature<object, { billing: BillingApi }> = feature({
  name: 'billing',
  ...tablesOf(PERSISTENCE_FEATURES.billing),
  ports: ({ infra, config, log }) => {
    const b = config.billing;
    const gateway = b.accessToken
      ? new MercadoPagoGateway({ baseUrl: b.gatewayUrl, accessToken: b.accessToken, webhookSecret: b.webhookSecret, allowPrivate: config.allowPrivateUrls })
      : undefined;
    return {
      ...PERSISTENCE_FEATURES.billing.repositories(infra.db.orm),
      ...(gateway ? { paymentGateway: gateway } : {}),
      billingSettings: {
        graceDays: b.graceDays,
        invoiceLeadDays: b.invoiceLeadDays,
        notificationUrl: `${config.publicUrl}/subscription/return/${b.returnToken ?? '<RETURN_TOKEN>'}/pix`,
      },
      billingJournal: log.child({ component: 'billing' }),
    };
  },
  api: (ports) => ({ billing: createBilling(ports) }),
  routes: (app, { config }) => billingRoutes(app, { returnToken: config.billing.returnToken, webhookSecret: config.billing.webhookSecret }),
  jobs: (app) => app.billing.jobs(),
});
