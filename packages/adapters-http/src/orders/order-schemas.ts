import { ORDER_LOG_TYPES, ORDER_STATUSES } from '@servicedesk/core/orders/order';
import { MESSAGE_STATUSES } from '@servicedesk/core/orders/order-setting';
import { z } from 'zod';

/** What the order routes answer (packages/core/src/orders): orders with their lines, their logs, order settings. */

const timestamp = z.iso.datetime();
const rowId = z.number().int().positive();
const amount = z.number().int().nonnegative();
const minor = (what: string) => amount.meta({ description: `${what}, in minor units (cents) of \`currency\`` });

const ITEM_EXAMPLE = { id: 31, productId: 12, name: 'Vaso de cerâmica M', sku: 'VASO-M', unitPrice: 4990, quantity: 2, total: 9980 };
const ORDER_EXAMPLE = {
  id: 7,
  number: 42,
  companyId: 1,
  contactId: 15,
  contact: { id: 15, name: 'Maria Souza', number: '5511988887777' },
  ticketId: 230,
  userId: 3,
  user: { id: 3, name: 'Ana' },
  status: 'confirmed' as const,
  currency: 'BRL',
  subtotal: 9980,
  discount: 500,
  shippingFee: 1500,
  total: 10980,
  paymentMethod: 'Pix',
  notes: 'Embrulhar para presente',
  address: 'Rua das Flores, 120, ap. 31 — São Paulo/SP, 01234-000',
  items: [ITEM_EXAMPLE],
  createdAt: '2026-03-02T14:05:00.000Z',
  updatedAt: '2026-03-02T14:20:00.000Z',
};

export const orderItemSchema = z
  .object({
    id: rowId,
    productId: rowId.nullable().meta({ description: 'Null once the product was deleted' }),
    name: z.string().meta({ description: "The product's name when it was ordered" }),
    sku: z.string().nullable(),
    unitPrice: minor("The product's price when it was ordered"),
    quantity: z.number().int().positive(),
    total: minor('`unitPrice` × `quantity`'),
  })
  .meta({ id: 'OrderItem', description: 'A line of an order, as the catalog priced it then', example: ITEM_EXAMPLE });

export const orderSchema = z
  .object({
    id: rowId,
    number: z.number().int().positive().meta({ description: "The company's own sequence, from 1" }),
    companyId: rowId,
    contactId: rowId.nullable().meta({ description: 'Null once the contact was deleted' }),
    contact: z.object({ id: rowId, name: z.string(), number: z.string() }).nullable(),
    ticketId: rowId.nullable().meta({ description: 'The conversation it came from (null: none, or deleted)' }),
    userId: rowId.nullable().meta({ description: 'Who took it (null once that user was deleted)' }),
    user: z.object({ id: rowId, name: z.string() }).nullable(),
    status: z.enum(ORDER_STATUSES),
    currency: z.string().length(3).meta({ description: 'ISO 4217; every line is in it' }),
    subtotal: minor("The lines' totals summed"),
    discount: minor('The discount'),
    shippingFee: minor('The shipping fee'),
    total: minor('`subtotal` + `shippingFee` − `discount`'),
    paymentMethod: z.string().nullable(),
    notes: z.string(),
    address: z.string().nullable().meta({ description: 'Where it goes, as the contact wrote it' }),
    items: z.array(orderItemSchema),
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .meta({ id: 'Order', description: 'An order with its lines; amounts are integer minor units', example: ORDER_EXAMPLE });

export const orderPageSchema = z
  .object({
    orders: z.array(orderSchema),
    count: z.number().int().nonnegative(),
    hasMore: z.boolean(),
  })
  .meta({ id: 'OrderPage', description: 'A page of orders, newest first (20 a page)', example: { orders: [ORDER_EXAMPLE], count: 1, hasMore: false } });

export const orderLogSchema = z
  .object({
    id: rowId,
    orderId: rowId,
    userId: rowId.nullable(),
    user: z.object({ id: rowId, name: z.string() }).nullable(),
    type: z.enum(ORDER_LOG_TYPES).meta({ description: '`created`, `status` (a move), `items` (lines or totals), `note` (notes, address, payment method)' }),
    from: z.string().nullable().meta({ description: '`status`: the status before; `items`: the total before' }),
    to: z.string().nullable().meta({ description: '`created` and `status`: the status after; `items`: the total after' }),
    data: z.record(z.string(), z.unknown()).meta({
      description:
        '`created`: the lines and totals; `status`: `message` (`{ messageId, ticketId }` of the status message sent, or null); `items`: the new lines ' +
        "(when they changed) and totals; `note`: each changed field's `{ from, to }`",
    }),
    createdAt: timestamp,
  })
  .meta({
    id: 'OrderLog',
    description: 'One change of an order',
    example: {
      id: 90,
      orderId: 7,
      userId: 3,
      user: { id: 3, name: 'Ana' },
      type: 'status',
      from: 'new',
      to: 'confirmed',
      data: { message: { messageId: '9b1f0c1e-2d4a-4f7e-8c1b-3a5d6e7f8091', ticketId: 230 } },
      createdAt: '2026-03-02T14:20:00.000Z',
    },
  });

export const orderLogListSchema = z.array(orderLogSchema).meta({ id: 'OrderLogList', description: "An order's changes, oldest first" });

export const ordersDeletedSchema = z
  .object({
    deleted: z.number().int().nonnegative().meta({ description: 'How many orders were deleted' }),
    ids: z.array(rowId),
  })
  .meta({ id: 'OrdersDeleted', description: 'The orders are gone, with their lines and logs', example: { deleted: 2, ids: [7, 8] } });

const statusMessages = z.object(Object.fromEntries(MESSAGE_STATUSES.map((s) => [s, z.string()])) as Record<(typeof MESSAGE_STATUSES)[number], z.ZodString>);

const SETTING_EXAMPLE = {
  id: 2,
  companyId: 1,
  connectionId: null,
  connection: null,
  currency: 'BRL',
  paymentInstructions: 'Pix: pagamentos@loja.example (CNPJ 12.345.678/0001-90)',
  statusMessages: {
    confirmed: 'Olá {{firstName}}! Seu pedido #{{number}} foi confirmado. Total: {{total}}.\n{{payment}}',
    paid: 'Pagamento do pedido #{{number}} recebido, obrigado!',
    shipped: 'Seu pedido #{{number}} saiu para entrega.',
    delivered: '',
    cancelled: 'Seu pedido #{{number}} foi cancelado.',
  },
  createdAt: '2026-03-01T10:00:00.000Z',
  updatedAt: '2026-03-01T10:00:00.000Z',
};

export const orderSettingSchema = z
  .object({
    id: rowId,
    companyId: rowId,
    connectionId: rowId.nullable().meta({ description: "Null: the company's default row; else the connection this row applies to" }),
    connection: z.object({ id: rowId, name: z.string() }).nullable(),
    currency: z.string().length(3).meta({ description: 'The currency of orders it applies to (ISO 4217)' }),
    paymentInstructions: z.string().meta({ description: 'Quoted by status messages as `{{payment}}`' }),
    statusMessages: statusMessages.meta({ description: 'The text sent to the contact when an order reaches each status (empty: nothing is sent)' }),
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .meta({ id: 'OrderSetting', description: "How orders are taken: a company's default row, or a connection's", example: SETTING_EXAMPLE });

export const orderSettingListSchema = z
  .array(orderSettingSchema)
  .meta({ id: 'OrderSettingList', description: 'The default row first, then one per connection' });
