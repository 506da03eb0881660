import { ValidationError } from '../shared/errors.js';
import type { ReachedStatus } from './order.js';
import type { OrderSettings } from './ports.js';

/** The statuses whose arrival may be told to the contact: every status an order moves to. */
export const MESSAGE_STATUSES = ['confirmed', 'paid', 'shipped', 'delivered', 'cancelled'] as const satisfies readonly ReachedStatus[];
export type StatusMessages = Record<ReachedStatus, string>;

export const DEFAULT_ORDER_CURRENCY = 'BRL';
export const ORDER_SETTING_LIMITS = { message: 4000, paymentInstructions: 2000 } as const;

/**
 * How a company takes orders: the currency its orders are in, the payment instructions its
 * messages may quote (`{{payment}}`), and a text per status sent to the contact when an order
 * reaches it (empty: nothing is sent). One row per company is the default (`connectionId` null);
 * a row for a connection overrides it for orders whose conversation is on that connection.
 */
export interface OrderSetting {
  id: number;
  companyId: number;
  connectionId: number | null;
  currency: string;
  paymentInstructions: string;
  statusMessages: StatusMessages;
  createdAt: Date;
  updatedAt: Date;
}
export type NewOrderSetting = Omit<OrderSetting, 'id'>;

/** No text for any status: where a row starts, and what applies without one. */
export const NO_STATUS_MESSAGES: StatusMessages = { confirmed: '', paid: '', shipped: '', delivered: '', cancelled: '' };

const SUPPORTED_CURRENCIES = new Set(Intl.supportedValuesOf('currency'));

/** An ISO 4217 code the runtime knows (`BRL`, `USD`); lower case is accepted. */
export function cleanCurrency(currency: string): string {
  const code = currency.trim().toUpperCase();
  if (!/^[A-Z]{3}$/.test(code) || !SUPPORTED_CURRENCIES.has(code)) throw new ValidationError('ERR_ORDER_SETTING_INVALID_CURRENCY');
  return code;
}

function cleanText(text: string, max: number): string {
  const trimmed = text.trim();
  if (trimmed.length > max) throw new ValidationError('ERR_ORDER_SETTING_INVALID_TEXT');
  return trimmed;
}

export const cleanPaymentInstructions = (text: string) => cleanText(text, ORDER_SETTING_LIMITS.paymentInstructions);

/** The stored texts with those given replaced (a status left out keeps its text). */
export function cleanStatusMessages(current: StatusMessages, given: Partial<StatusMessages>): StatusMessages {
  const next = { ...current };
  for (const status of MESSAGE_STATUSES) {
    const text = given[status];
    if (text !== undefined) next[status] = cleanText(text, ORDER_SETTING_LIMITS.message);
  }
  return next;
}

export interface OrderSettingView {
  id: number;
  companyId: number;
  connectionId: number | null;
  connection: { id: number; name: string } | null;
  currency: string;
  paymentInstructions: string;
  statusMessages: StatusMessages;
  createdAt: string;
  updatedAt: string;
}

export function toOrderSettingView(s: OrderSetting, connection: { id: number; name: string } | null): OrderSettingView {
  return {
    id: s.id,
    companyId: s.companyId,
    connectionId: s.connectionId,
    connection: connection ? { id: connection.id, name: connection.name } : null,
    currency: s.currency,
    paymentInstructions: s.paymentInstructions,
    statusMessages: { ...s.statusMessages },
    createdAt: s.createdAt.toISOString(),
    updatedAt: s.updatedAt.toISOString(),
  };
}

/** What applies to a conversation on `connectionId` (null: none): that connection's row, else the company's default row, else none. */
export async function applicableSetting(
  settings: Pick<OrderSettings, 'findFor'>,
  companyId: number,
  connectionId: number | null,
): Promise<OrderSetting | null> {
  const own = connectionId === null ? null : await settings.findFor(companyId, connectionId);
  return own ?? settings.findFor(companyId, null);
}
