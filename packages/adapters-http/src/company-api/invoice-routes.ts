import type { Application } from '@servicedesk/core';
import { z } from 'zod';
import { route } from '../http/route.js';
import { id, idParam, pagedQuery } from '../http/schemas.js';
import { invoicePageSchema, invoiceSchema } from './company-api-schemas.js';

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

/** The shared schemas above, described for these routes on copies (the company API describes its own). */
const listQuery = invoiceQuery.extend({
  companyId: invoiceQuery.shape.companyId.meta({
    description: "Super users: only this company's invoices, absent: every company's; ignored for everyone else (their own company's)",
    example: 3,
  }),
});
const updateBody = updateInvoiceBody
  .extend({
    detail: updateInvoiceBody.shape.detail.meta({ description: 'What the invoice is for, trimmed, 1 to 500 characters', example: 'Plan Pro, March 2025' }),
    status: updateInvoiceBody.shape.status.meta({
      description: '`open` (awaiting payment), `paid` or `cancelled`; becoming `paid` records `paidAt`, leaving it clears `paidAt`',
      example: 'paid',
    }),
    value: updateInvoiceBody.shape.value.meta({
      description: 'The amount, up to two decimal places, as a number or text (`"199.90"`, `"199,90"`); stored with two decimals',
      example: '199.90',
    }),
    dueDate: updateInvoiceBody.shape.dueDate.meta({ description: 'The day it falls due, `YYYY-MM-DD` (a datetime is cut to its day)', example: '2025-03-10' }),
  })
  .meta({ example: { status: 'paid' } });

/** A company's invoices for its users; super users see and change every company's. */
export function invoiceRoutes(app: Pick<Application, 'companyApi'>) {
  const tag = 'Subscriptions, invoices, webhooks';
  return [
    route({
      method: 'GET',
      path: '/invoices',
      auth: 'isAuth',
      tag,
      summary: "The company's invoices (super: all, or `companyId`)",
      query: listQuery,
      description:
        "A page (20) of invoices, newest first. Operators and admins see their own company's (`companyId` is ignored); " +
        "super users see every company's, or those of `companyId`.",
      response: invoicePageSchema,
      handler: async ({ actor, query }) => app.companyApi.listInvoices.execute({ actor, ...query }),
    }),
    route({
      method: 'GET',
      path: '/invoices/:Invoiceid',
      auth: 'isAuth',
      tag,
      summary: "Show one of the company's invoices (super: any)",
      params: idParam('Invoiceid'),
      description: "Any user may read an invoice of their own company; super users any company's. Another company's invoice is not found.",
      response: invoiceSchema,
      errors: [{ status: 404, codes: ['ERR_NO_INVOICE_FOUND'] }],
      handler: async ({ actor, params }) => app.companyApi.showInvoice.execute({ actor, invoiceId: params.Invoiceid }),
    }),
    route({
      method: 'PUT',
      path: '/invoices/:id',
      auth: 'isAuth',
      tag,
      summary: 'Change an invoice (super)',
      params: idParam('id'),
      body: updateBody,
      description:
        'Super users only (403 `ERR_NO_PERMISSION` otherwise). Changes the fields given; becoming `paid` records `paidAt`, ' +
        'leaving `paid` clears it. The invoice stays with its company.',
      response: invoiceSchema,
      errors: [
        { status: 403, codes: ['ERR_NO_PERMISSION'] },
        { status: 404, codes: ['ERR_NO_INVOICE_FOUND'] },
        { status: 422, codes: ['ERR_INVALID_INVOICE_DETAIL', 'ERR_INVALID_INVOICE_VALUE', 'ERR_INVALID_INVOICE_DUE_DATE', 'ERR_INVALID_INVOICE_STATUS'] },
      ],
      handler: async ({ actor, params, body }) => app.companyApi.updateInvoice.execute({ actor, invoiceId: params.id, ...body }),
    }),
  ];
}
