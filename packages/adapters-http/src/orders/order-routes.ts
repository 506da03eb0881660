import type { OrdersApi } from '@servicedesk/core/compose/orders';
import { ORDER_LIMITS, ORDER_STATUSES } from '@servicedesk/core/orders/order';
import { MESSAGE_STATUSES } from '@servicedesk/core/orders/order-setting';
import { z } from 'zod';
import { deletedSchema } from '../company-api/company-api-schemas.js';
import { HttpError } from '../http/error-middleware.js';
import { route, type RouteError } from '../http/route.js';
import { id, idParam, pagedQuery } from '../http/schemas.js';
import { orderLogListSchema, orderPageSchema, orderSchema, orderSettingListSchema, orderSettingSchema, ordersDeletedSchema } from './order-schemas.js';

type OrdersApp = { readonly orders: OrdersApi };

const TAG = 'Catalog, products, orders';
const ADMINS: RouteError = { status: 403, codes: ['ERR_NO_PERMISSION'], description: 'The caller is not an admin' };
const NOT_FOUND: RouteError = { status: 404, codes: ['ERR_NO_ORDER_FOUND'] };
const CONFLICT: RouteError = {
  status: 409,
  codes: ['ERR_ORDER_STATUS_CONFLICT'],
  description: 'The order changed meanwhile, or its status does not allow the change (see docs/features/orders.md)',
};
const ORDER_FIELDS: RouteError = {
  status: 422,
  codes: [
    'ERR_ORDER_INVALID_ITEMS',
    'ERR_ORDER_INVALID_AMOUNT',
    'ERR_ORDER_INVALID_DETAILS',
    'ERR_ORDER_PRODUCT_INACTIVE',
    'ERR_ORDER_CURRENCY_MISMATCH',
    'ERR_ORDER_OUT_OF_STOCK',
  ],
  description: '`ERR_ORDER_OUT_OF_STOCK` carries `fields`: each line short of stock (`items.<i>.quantity`) with its product named; nothing was written',
};
const SETTING_NOT_FOUND: RouteError = { status: 404, codes: ['ERR_NO_ORDER_SETTING_FOUND'] };
const SETTING_FIELDS: RouteError = { status: 422, codes: ['ERR_ORDER_SETTING_INVALID_CURRENCY', 'ERR_ORDER_SETTING_INVALID_TEXT'] };

/** `1,2,3` in a query string. */
const idList = z
  .string()
  .max(20_000)
  .regex(/^\d+(,\d+)*$/)
  .transform((s) => s.split(',').map(Number))
  .pipe(z.array(z.number().int().positive().max(2_147_483_647)).max(ORDER_LIMITS.deletedAtOnce));
const day = z
  .string()
  .trim()
  .regex(/^\d{4}-\d{2}-\d{2}$/)
  .meta({ description: "A day (`YYYY-MM-DD`) on the company's clock" });
const amount = z.number().int().min(0).max(1_000_000_000_000);
const line = z.object({
  productId: id.meta({ description: 'A product of the catalog, active when it is new to the order', example: 12 }),
  quantity: z.number().int().min(1).max(10_000).meta({ description: 'Units of the product, 1 to 10,000', example: 2 }),
});
const orderFields = {
  items: z.array(line).min(1).max(1000).meta({ description: 'The lines: 1 to 100 products (one named twice is one line of the summed quantity)' }),
  discount: amount.meta({ description: 'Minor units (cents); default 0' }),
  shippingFee: amount.meta({ description: 'Minor units (cents); default 0' }),
  notes: z.string().max(10_000).meta({ description: 'Up to 2000 characters' }),
  address: z.string().max(10_000).nullable().meta({ description: 'Where it goes, as the contact wrote it (up to 1000 characters); empty or null: none' }),
  paymentMethod: z.string().max(1000).nullable().meta({ description: 'Up to 50 characters (`Pix`, `Cartão`…); empty or null: none' }),
};
const createBody = z
  .object({
    contactId: id.meta({ description: 'The customer, a contact of the company', example: 42 }),
    ticketId: id.nullable().optional().meta({ description: "The conversation the order comes from: the company's, with the same contact" }),
    ...orderFields,
  })
  .partial({ discount: true, shippingFee: true, notes: true, address: true, paymentMethod: true })
  .meta({
    example: {
      contactId: 42,
      ticketId: 314,
      items: [
        { productId: 12, quantity: 2 },
        { productId: 15, quantity: 1 },
      ],
      shippingFee: 1500,
      address: 'Rua das Flores, 120, São Paulo',
      paymentMethod: 'Pix',
    },
  });
const updateBody = z
  .object({
    status: z.enum(ORDER_STATUSES).meta({ description: 'new → confirmed → paid → shipped → delivered; cancelled from new, confirmed or paid' }),
    ...orderFields,
  })
  .partial()
  .meta({ example: { status: 'paid', notes: 'Pago via Pix às 14:05' } });

const statusMessages = z
  .object(
    Object.fromEntries(
      MESSAGE_STATUSES.map((s) => [
        s,
        z
          .string()
          .max(100_000)
          .meta({
            description:
              `Sent to the contact when an order becomes \`${s}\` (when it has a conversation); may quote \`{{number}}\`, \`{{total}}\`, \`{{items}}\`, ` +
              "`{{payment}}`, `{{paymentMethod}}`, `{{address}}` and the scheduled messages' variables",
          }),
      ]),
    ) as Record<(typeof MESSAGE_STATUSES)[number], z.ZodString>,
  )
  .partial()
  .meta({ description: 'Texts by status (up to 4000 characters each; `""`: send nothing); a status left out keeps its text' });
const settingBody = z
  .object({
    connectionId: id
      .nullable()
      .meta({ description: "Null or absent: the company's default row; else the connection (the company's) this row overrides it for" }),
    currency: z.string().max(10).meta({ description: 'ISO 4217 (default `BRL`)' }),
    paymentInstructions: z.string().max(100_000).meta({ description: 'Up to 2000 characters; status messages quote it as `{{payment}}`' }),
    statusMessages,
  })
  .partial();
const SETTING_EXAMPLE = {
  connectionId: null,
  currency: 'BRL',
  paymentInstructions: 'Pix: vendas@acme.com.br',
  statusMessages: {
    confirmed: 'Pedido {{number}} confirmado: {{total}}. {{payment}}',
    paid: 'Recebemos o pagamento do pedido {{number}}, obrigado!',
    shipped: 'Seu pedido {{number}} saiu para entrega.',
    delivered: '',
    cancelled: 'O pedido {{number}} foi cancelado.',
  },
};

const defined = <T extends object>(body: T) => Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined)) as T;

/**
 * Orders (`/orders`) and order settings (`/order-settings`). Any user of the company reads orders,
 * takes them and moves their status; admins delete them and write the settings.
 */
export function orderRoutes(app: OrdersApp) {
  const o = app.orders;
  const byOrder = idParam('orderId');
  const bySetting = idParam('id');
  return [
    route({
      method: 'GET',
      path: '/orders',
      auth: 'isAuth',
      tag: TAG,
      operationId: 'listOrders',
      summary: "The company's orders",
      query: pagedQuery.extend({
        status: z.enum(ORDER_STATUSES).optional().meta({ description: 'Only the orders in this status; absent: every status', example: 'new' }),
        contactId: id.optional().meta({ description: "Only this contact's orders (a contact of the company)", example: 42 }),
        dateFrom: day.optional(),
        dateTo: day.optional(),
      }),
      description:
        "Any user of the company. Newest first, 20 a page. `dateFrom`/`dateTo`: days of creation on the company's clock, both included; " +
        "`searchParam`: the order number, or part of the contact's name or number.",
      response: orderPageSchema,
      errors: [
        { status: 404, codes: ['ERR_NO_CONTACT_FOUND'] },
        { status: 422, codes: ['ERR_INVALID_DATE', 'ERR_INVALID_DATE_RANGE'] },
      ],
      handler: async ({ actor, query }) => o.listOrders.execute({ actor, ...defined(query) }),
    }),
    route({
      method: 'GET',
      path: '/orders/contact/:contactId',
      auth: 'isAuth',
      tag: TAG,
      operationId: 'listContactOrders',
      summary: "A contact's orders",
      params: idParam('contactId'),
      query: pagedQuery.pick({ pageNumber: true }),
      description: 'Any user of the company: the orders of one contact (the side panel of a conversation), newest first, 20 a page.',
      response: orderPageSchema,
      errors: [{ status: 404, codes: ['ERR_NO_CONTACT_FOUND'] }],
      handler: async ({ actor, params, query }) => o.listContactOrders.execute({ actor, contactId: params.contactId, ...defined(query) }),
    }),
    route({
      method: 'GET',
      path: '/orders/:orderId',
      auth: 'isAuth',
      tag: TAG,
      operationId: 'showOrder',
      summary: 'One order with its lines',
      description: "Any user of the company; another company's order is not found.",
      params: byOrder,
      response: orderSchema,
      errors: [NOT_FOUND],
      handler: async ({ actor, params }) => o.showOrder.execute({ actor, orderId: params.orderId }),
    }),
    route({
      method: 'GET',
      path: '/orders/:orderId/logs',
      auth: 'isAuth',
      tag: TAG,
      operationId: 'listOrderLogs',
      summary: 'What happened to an order',
      params: byOrder,
      response: orderLogListSchema,
      errors: [NOT_FOUND],
      description: 'Oldest first: its creation, each status move (with the status message sent, if any), line and total changes, and edits of its details.',
      handler: async ({ actor, params }) => o.listOrderLogs.execute({ actor, orderId: params.orderId }),
    }),
    route({
      method: 'POST',
      path: '/orders',
      auth: 'isAuth',
      tag: TAG,
      operationId: 'createOrder',
      summary: 'Take an order',
      body: createBody,
      status: 201,
      description:
        "Any user of the company. Lines are priced from the catalog in the currency of the order settings that apply (the ticket's connection's row, " +
        'else the default row, else BRL); totals are computed here. The stock of products that track it is taken with the order: a product short of it ' +
        'answers 422 `ERR_ORDER_OUT_OF_STOCK` and nothing is written. Sends an `order` frame (`create`).',
      response: orderSchema,
      errors: [
        {
          status: 404,
          codes: ['ERR_NO_CONTACT_FOUND', 'ERR_NO_TICKET_FOUND', 'ERR_PRODUCT_NOT_FOUND'],
          description: "A referenced id is not one of the company's",
        },
        ORDER_FIELDS,
        { status: 422, codes: ['ERR_ORDER_TICKET_CONTACT_MISMATCH'] },
      ],
      handler: async ({ actor, body }) => o.createOrder.execute({ actor, ...defined(body) }),
    }),
    route({
      method: 'PUT',
      path: '/orders/:orderId',
      auth: 'isAuth',
      tag: TAG,
      operationId: 'updateOrder',
      summary: 'Change an order or move its status',
      params: byOrder,
      body: updateBody,
      description:
        'Any user of the company. Only the fields sent change: lines, discount and shipping fee while `new`; address and payment method until ' +
        'delivered or cancelled; notes always. A status move follows the machine; cancelling gives the stock back. When the order settings give the new ' +
        'status a text and the order has a conversation, the text goes to the contact in the same transaction. Sends an `order` frame (`update`).',
      response: orderSchema,
      errors: [NOT_FOUND, CONFLICT, { status: 404, codes: ['ERR_PRODUCT_NOT_FOUND'] }, ORDER_FIELDS],
      handler: async ({ actor, params, body }) => o.updateOrder.execute({ actor, orderId: params.orderId, ...defined(body) }),
    }),
    route({
      method: 'DELETE',
      path: '/orders',
      auth: 'isAuth',
      tag: TAG,
      operationId: 'deleteOrders',
      summary: 'Delete orders (admin)',
      body: z
        .object({
          ids: z
            .array(id)
            .min(1)
            .max(ORDER_LIMITS.deletedAtOnce)
            .optional()
            .meta({ description: `The orders to delete (1 to ${ORDER_LIMITS.deletedAtOnce}); absent: those of the \`ids\` query`, example: [101, 102] }),
        })
        .meta({ example: { ids: [101, 102] } }),
      query: z.object({ ids: idList.optional().meta({ description: 'The ids as `1,2,3`, for clients that send no body with DELETE' }) }),
      description:
        `Admins. \`{ids: [...]}\` in the body, or \`?ids=1,2\` (up to ${ORDER_LIMITS.deletedAtOnce}): all go, or none does (an id that is not one ` +
        "of the company's orders is 404). An order still holding stock (new, confirmed, paid) gives it back. Sends an `order` frame (`delete`, `orderIds`).",
      response: ordersDeletedSchema,
      errors: [ADMINS, { status: 404, codes: ['ERR_NO_ORDER_FOUND'], description: 'An id is not an order of the company; nothing was deleted' }],
      handler: async ({ actor, body, query }) => {
        const ids = body.ids ?? query.ids;
        if (!ids?.length) throw new HttpError(422, 'ERR_VALIDATION', [{ path: 'body.ids', message: 'Give `ids` in the body or the query' }]);
        const deleted = await o.deleteOrders.execute({ actor, orderIds: ids });
        return { deleted: deleted.length, ids: deleted };
      },
    }),
    route({
      method: 'GET',
      path: '/order-settings',
      auth: 'isAuth',
      tag: TAG,
      operationId: 'listOrderSettings',
      summary: "The company's order settings",
      description: 'Any user of the company (the order form reads the currency): the default row first, then one per connection.',
      response: orderSettingListSchema,
      handler: async ({ actor }) => o.listOrderSettings.execute({ actor }),
    }),
    route({
      method: 'GET',
      path: '/order-settings/:id',
      auth: 'isAuth',
      tag: TAG,
      operationId: 'showOrderSetting',
      summary: 'One row of order settings',
      description: "Any user of the company: the company's default row (`connectionId` null) or a connection's row.",
      params: bySetting,
      response: orderSettingSchema,
      errors: [SETTING_NOT_FOUND],
      handler: async ({ actor, params }) => o.showOrderSetting.execute({ actor, settingId: params.id }),
    }),
    route({
      method: 'POST',
      path: '/order-settings',
      auth: 'isAuth',
      tag: TAG,
      operationId: 'createOrderSetting',
      summary: 'Add order settings (admin)',
      body: settingBody.meta({ example: SETTING_EXAMPLE }),
      status: 201,
      description: "Admins. The company's default row (`connectionId` null) or a connection's row overriding it; one of each.",
      response: orderSettingSchema,
      errors: [ADMINS, { status: 404, codes: ['ERR_NO_CONNECTION_FOUND'] }, { status: 409, codes: ['ERR_ORDER_SETTING_EXISTS'] }, SETTING_FIELDS],
      handler: async ({ actor, body }) => o.createOrderSetting.execute({ actor, ...defined(body) }),
    }),
    route({
      method: 'PUT',
      path: '/order-settings/:id',
      auth: 'isAuth',
      tag: TAG,
      operationId: 'updateOrderSetting',
      summary: 'Edit order settings (admin)',
      params: bySetting,
      body: settingBody.meta({ example: { statusMessages: { shipped: 'Pedido {{number}} enviado! Endereço: {{address}}' } } }),
      description: 'Admins. Only the fields sent change; a status text left out keeps its text.',
      response: orderSettingSchema,
      errors: [
        ADMINS,
        SETTING_NOT_FOUND,
        { status: 404, codes: ['ERR_NO_CONNECTION_FOUND'] },
        { status: 409, codes: ['ERR_ORDER_SETTING_EXISTS'] },
        SETTING_FIELDS,
      ],
      handler: async ({ actor, params, body }) => o.updateOrderSetting.execute({ actor, settingId: params.id, ...defined(body) }),
    }),
    route({
      method: 'DELETE',
      path: '/order-settings/:id',
      auth: 'isAuth',
      tag: TAG,
      operationId: 'deleteOrderSetting',
      summary: 'Remove order settings (admin)',
      params: bySetting,
      description: 'Admins. Orders on that connection fall back to the default row (or to BRL and no messages).',
      response: deletedSchema,
      errors: [ADMINS, SETTING_NOT_FOUND],
      handler: async ({ actor, params }) => {
        await o.deleteOrderSetting.execute({ actor, settingId: params.id });
        return { message: 'Order setting deleted' };
      },
    }),
  ];
}
