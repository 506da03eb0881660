import type { Application } from '@servicedesk/core';
import { z } from 'zod';
import { route } from '../http/route.js';
import { id, idParam, pagedQuery } from '../http/schemas.js';

export const invoiceFields = z.object({
  detail: z.string().trim().min(1).max(500),
  status: z.enum(['open', 'paid', 'cancelled']),
  value: z.union([z.string().max(20), z.number().nonnegative()]),
  dueDate: z.string().max(30),
});

/** Creating an invoice names its company; changing one never moves it to another company. */
export const createInvoiceBody = invoiceFields.partial({ status: true }).extend({ companyId: id });
export const updateInvoiceBody = invoiceFields.partial();
export const invoiceQuery = pagedQuery.extend({ companyId: id.optional() });

/** A company's invoices for its users; super users see and change every company's. */
export function invoiceRoutes(app: Application) {
  const tag = 'Subscriptions, invoices, webhooks';
  return [
    route({
      method: 'GET', path: '/invoices', auth: 'isAuth', tag, summary: "The company's invoices (super: all, or `companyId`)", query: invoiceQuery,
      handler: async ({ actor, query }) => app.listInvoices.execute({ actor, ...query }),
    }),
    route({
      method: 'GET', path: '/invoices/:Invoiceid', auth: 'isAuth', tag, summary: "Show one of the company's invoices (super: any)",
      params: idParam('Invoiceid'),
      handler: async ({ actor, params }) => app.showInvoice.execute({ actor, invoiceId: params.Invoiceid }),
    }),
    route({
      method: 'PUT', path: '/invoices/:id', auth: 'isAuth', tag, summary: 'Change an invoice (super)', params: idParam('id'),
      body: updateInvoiceBody,
      handler: async ({ actor, params, body }) => app.updateInvoice.execute({ actor, invoiceId: params.id, ...body }),
    }),
  ];
}
