import type { Actor } from '../shared/actor.js';
import { ValidationError } from '../shared/errors.js';
import type { SendTicketMessage, SendTicketMessageResult } from './send-ticket-message.js';

export interface CatalogItem {
  readonly name: string;
  readonly price: number;
  readonly description?: string;
}

export const MAX_CATALOG_ITEMS = 10;

/** The items as one text message: an optional intro, then one numbered line per item with its price. */
export function formatCatalog(intro: string, items: readonly CatalogItem[]): string {
  const lines = intro.trim() ? [intro.trim(), ''] : [];
  items.forEach((item, i) => {
    lines.push(`${i + 1}. *${item.name.trim()}* — ${item.price.toFixed(2)}`);
    if (item.description?.trim()) lines.push(`   ${item.description.trim()}`);
  });
  return lines.join('\n');
}

/**
 * Sends a short catalog into a conversation as a formatted text list. Products do not exist yet,
 * so the operator names the items; once they do, this reads them from the company's catalog.
 */
export class SendCatalog {
  constructor(private readonly deps: { send: SendTicketMessage }) {}

  async execute(input: { readonly actor: Actor; readonly ticketId: number; readonly body?: string; readonly items: readonly CatalogItem[] }): Promise<SendTicketMessageResult> {
    if (input.items.length < 1 || input.items.length > MAX_CATALOG_ITEMS) throw new ValidationError('ERR_INVALID_CATALOG_ITEMS');
    for (const item of input.items) {
      const name = item.name.trim();
      if (!name || name.length > 120 || (item.description?.length ?? 0) > 500) throw new ValidationError('ERR_INVALID_CATALOG_ITEMS');
      if (!Number.isFinite(item.price) || item.price < 0 || item.price > 1e9) throw new ValidationError('ERR_INVALID_CATALOG_PRICE');
    }
    return this.deps.send.execute({ actor: input.actor, ticketId: input.ticketId, body: formatCatalog(input.body ?? '', input.items) });
  }
}
