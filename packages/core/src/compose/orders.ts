import { messageContexts } from '../conversations/message-context.js';
import { companyTimeZone } from '../settings/company-time-zone.js';
import type { Message } from '../messages/message.js';
import { CreateOrder, type OrderDeps } from '../orders/create-order.js';
import { DeleteOrders } from '../orders/delete-orders.js';
import { CreateOrderSetting, DeleteOrderSetting, ListOrderSettings, ShowOrderSetting, UpdateOrderSetting } from '../orders/manage-order-settings.js';
import { OrderAnnouncer } from '../orders/order-announcer.js';
import { OrderConversation } from '../orders/order-conversation.js';
import { OrderParties } from '../orders/order-parties.js';
import { OrderViews } from '../orders/order-view.js';
import type { OrderLogs, Orders, OrderSettings } from '../orders/ports.js';
import { ListContactOrders, ListOrderLogs, ListOrders, ShowOrder } from '../orders/read-orders.js';
import { StatusMessageFacts } from '../orders/status-message-facts.js';
import { OrderStatusMessages } from '../orders/status-messages.js';
import { UpdateOrder } from '../orders/update-order.js';
import { TicketPresenter } from '../tickets/ticket-details.js';
import type { Ticket } from '../tickets/ticket.js';
import { sendPath } from './messaging.js';
import type { Needs } from './shared-ports.js';
import { ConversationAnnouncer } from '../tickets/conversation-announcer.js';

/** The orders' own ports: their tables (orders with their lines, logs and number counters; order settings). */
export interface OrderPorts {
  readonly orders: Orders;
  readonly orderLogs: OrderLogs;
  readonly orderSettings: OrderSettings;
}

/**
 * Orders (`/orders`) and order settings (`/order-settings`): orders priced from the catalog, their
 * stock taken and given back with them, their status machine, and the status messages that go to
 * the contact through the one send path.
 */
export function createOrders(p: OrderPorts & Needs<'products'>) {
  const { orders, orderSettings, products, contacts, tickets, connections, users, queues, realtime, tx, clock } = p;
  const views = new OrderViews({ orders, logs: p.orderLogs, contacts, users });
  const timeZone = (companyId: number) => companyTimeZone(p.settings, companyId);
  const { outbound } = sendPath(p);
  const presenter = new TicketPresenter({ contacts, connections, users, realtime, tags: p.tags, queues });
  const contexts = messageContexts({ tickets, contacts, queues, messages: p.messages });
  const announcer = new ConversationAnnouncer({ presenter, realtime, contexts });
  const announce = async (ticket: Ticket, message: Message) => {
    await announcer.sent(ticket, {}, [message]);
  };
  const messages = new OrderStatusMessages({
    conversation: new OrderConversation({ tickets, connections }),
    facts: new StatusMessageFacts({ contacts, connections, users, queues, companies: p.companies, timeZone }),
    tickets,
    orderSettings,
    outbound,
    tx,
    clock,
    announce,
  });
  const orderAnnouncer = new OrderAnnouncer({ views, realtime });
  const deps: OrderDeps = { orders, logs: p.orderLogs, products, announcer: orderAnnouncer, tx, clock };
  const reads = { orders, contacts, views, timeZone };
  const settingDeps = { orderSettings, connections, clock };
  return {
    listOrders: new ListOrders(reads),
    listContactOrders: new ListContactOrders(reads),
    showOrder: new ShowOrder(reads),
    listOrderLogs: new ListOrderLogs(reads),
    createOrder: new CreateOrder({ ...deps, orderSettings, parties: new OrderParties({ contacts, tickets }) }),
    updateOrder: new UpdateOrder({ ...deps, messages }),
    deleteOrders: new DeleteOrders({ orders, products, announcer: orderAnnouncer, tx }),
    listOrderSettings: new ListOrderSettings(settingDeps),
    showOrderSetting: new ShowOrderSetting(settingDeps),
    createOrderSetting: new CreateOrderSetting(settingDeps),
    updateOrderSetting: new UpdateOrderSetting(settingDeps),
    deleteOrderSetting: new DeleteOrderSetting(settingDeps),
  };
}
export type OrdersApi = ReturnType<typeof createOrders>;
