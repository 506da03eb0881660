import type { Connections } from '../connections/ports.js';
import { assertAdmin, type Actor } from '../shared/actor.js';
import { ConflictError, NotFoundError } from '../shared/errors.js';
import type { Clock } from '../shared/ports.js';
import {
  cleanCurrency,
  cleanPaymentInstructions,
  cleanStatusMessages,
  DEFAULT_ORDER_CURRENCY,
  NO_STATUS_MESSAGES,
  toOrderSettingView,
  type OrderSetting,
  type OrderSettingView,
  type StatusMessages,
} from './order-setting.js';
import type { OrderSettings } from './ports.js';

/** The fields of an order setting being created or edited; on an edit, absent keeps what is stored. */
export interface OrderSettingInput {
  /** Null: the company's default row. */
  readonly connectionId?: number | null;
  readonly currency?: string;
  readonly paymentInstructions?: string;
  /** The texts given; a status left out keeps its text (none on create), `""` sends nothing. */
  readonly statusMessages?: Partial<StatusMessages>;
}

interface Deps {
  readonly orderSettings: OrderSettings;
  readonly connections: Pick<Connections, 'findById' | 'list'>;
  readonly clock: Clock;
}

async function findSetting(settings: OrderSettings, companyId: number, id: number): Promise<OrderSetting> {
  const found = await settings.findById(companyId, id);
  if (!found) throw new NotFoundError('ERR_NO_ORDER_SETTING_FOUND');
  return found;
}

/** The connection must be the company's (404); the row must be the only one for it (409). */
async function assertPlace(deps: Deps, companyId: number, connectionId: number | null, self: number | null): Promise<void> {
  if (connectionId !== null && !(await deps.connections.findById(companyId, connectionId))) throw new NotFoundError('ERR_NO_CONNECTION_FOUND');
  const taken = await deps.orderSettings.findFor(companyId, connectionId);
  if (taken && taken.id !== self) throw new ConflictError('ERR_ORDER_SETTING_EXISTS');
}

async function viewsOf(deps: Deps, companyId: number, rows: readonly OrderSetting[]): Promise<OrderSettingView[]> {
  const connections = new Map((rows.some((r) => r.connectionId !== null) ? await deps.connections.list(companyId) : []).map((c) => [c.id, c]));
  return rows.map((r) => toOrderSettingView(r, r.connectionId === null ? null : (connections.get(r.connectionId) ?? null)));
}

/** The company's order settings (any user: the order form reads the currency): the default row first, then one per connection. */
export class ListOrderSettings {
  constructor(private readonly deps: Deps) {}

  async execute(input: { readonly actor: Actor }): Promise<OrderSettingView[]> {
    const { companyId } = input.actor;
    return viewsOf(this.deps, companyId, await this.deps.orderSettings.list(companyId));
  }
}

export class ShowOrderSetting {
  constructor(private readonly deps: Deps) {}

  async execute(input: { readonly actor: Actor; readonly settingId: number }): Promise<OrderSettingView> {
    const { companyId } = input.actor;
    return (await viewsOf(this.deps, companyId, [await findSetting(this.deps.orderSettings, companyId, input.settingId)]))[0]!;
  }
}

/** Admins add the default row or a connection's row (one of each: 409 `ERR_ORDER_SETTING_EXISTS`). */
export class CreateOrderSetting {
  constructor(private readonly deps: Deps) {}

  async execute(input: OrderSettingInput & { readonly actor: Actor }): Promise<OrderSettingView> {
    assertAdmin(input.actor);
    const { companyId } = input.actor;
    const connectionId = input.connectionId ?? null;
    const currency = cleanCurrency(input.currency ?? DEFAULT_ORDER_CURRENCY);
    const paymentInstructions = cleanPaymentInstructions(input.paymentInstructions ?? '');
    const statusMessages = cleanStatusMessages(NO_STATUS_MESSAGES, input.statusMessages ?? {});
    await assertPlace(this.deps, companyId, connectionId, null);
    const now = this.deps.clock.now();
    const added = await this.deps.orderSettings.add({ companyId, connectionId, currency, paymentInstructions, statusMessages, createdAt: now, updatedAt: now });
    return (await viewsOf(this.deps, companyId, [added]))[0]!;
  }
}

/** Admins edit a row: only the fields given change (a status text left out keeps its text). */
export class UpdateOrderSetting {
  constructor(private readonly deps: Deps) {}

  async execute(input: OrderSettingInput & { readonly actor: Actor; readonly settingId: number }): Promise<OrderSettingView> {
    assertAdmin(input.actor);
    const { companyId } = input.actor;
    const current = await findSetting(this.deps.orderSettings, companyId, input.settingId);
    const next: OrderSetting = { ...current, updatedAt: this.deps.clock.now() };
    if (input.currency !== undefined) next.currency = cleanCurrency(input.currency);
    if (input.paymentInstructions !== undefined) next.paymentInstructions = cleanPaymentInstructions(input.paymentInstructions);
    if (input.statusMessages !== undefined) next.statusMessages = cleanStatusMessages(current.statusMessages, input.statusMessages);
    if (input.connectionId !== undefined && input.connectionId !== current.connectionId) {
      await assertPlace(this.deps, companyId, input.connectionId, current.id);
      next.connectionId = input.connectionId;
    }
    await this.deps.orderSettings.update(next);
    return (await viewsOf(this.deps, companyId, [await findSetting(this.deps.orderSettings, companyId, current.id)]))[0]!;
  }
}

/** Admins remove a row: orders on that connection fall back to the default row (or to BRL and no messages). */
export class DeleteOrderSetting {
  constructor(private readonly deps: Pick<Deps, 'orderSettings'>) {}

  async execute(input: { readonly actor: Actor; readonly settingId: number }): Promise<void> {
    assertAdmin(input.actor);
    if (!(await this.deps.orderSettings.remove(input.actor.companyId, input.settingId))) throw new NotFoundError('ERR_NO_ORDER_SETTING_FOUND');
  }
}
