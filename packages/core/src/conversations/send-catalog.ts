import type { Categories, Products } from '../catalog/ports.js';
import type { Product, ProductImage } from '../catalog/product.js';
import type { MessageMedia } from '../messages/message.js';
import type { Actor } from '../shared/actor.js';
import { NotFoundError, ValidationError } from '../shared/errors.js';
import type { SendTicketMessage, SendTicketMessageResult } from './send-ticket-message.js';

/** The most products one catalog message names (WhatsApp's multi-product messages stop at 30 too). */
export const MAX_CATALOG_ITEMS = 30;
const MAX_INTRO = 1000;

/** How a catalog goes out: one text list, or one image per product with its caption. */
export type CatalogMode = 'text' | 'images';

/** A price in minor units as the contact reads it, in the product's currency (`R$ 12,50`). */
export function formatPrice(minor: number, currency: string, locale = 'pt-BR'): string {
  const format = new Intl.NumberFormat(locale, { style: 'currency', currency });
  const digits = format.resolvedOptions().maximumFractionDigits ?? 2;
  return format.format(minor / 10 ** digits);
}

/** One product's lines: its name in bold and price, then its description. */
function productLines(p: Pick<Product, 'name' | 'price' | 'currency' | 'description'>): string[] {
  const lines = [`*${p.name.trim()}* — ${formatPrice(p.price, p.currency)}`];
  if (p.description.trim()) lines.push(p.description.trim());
  return lines;
}

/** The products as one text message: an optional intro, then one numbered entry per product with its price. */
export function formatCatalog(intro: string, products: readonly Pick<Product, 'name' | 'price' | 'currency' | 'description'>[]): string {
  const lines = intro.trim() ? [intro.trim(), ''] : [];
  products.forEach((p, i) => {
    const [first, ...rest] = productLines(p);
    lines.push(`${i + 1}. ${first}`, ...rest.map((l) => `   ${l}`));
  });
  return lines.join('\n');
}

/**
 * Sends products of the company's catalog into a conversation, through the operator's send path
 * (the ticket is taken as a reply takes it; the messages go out through the outbox): the chosen
 * products (`productIds`, in that order) or a category's active products (up to 30), as one text
 * list with prices, or one message per product with its first image and the caption (a product
 * without an image goes as text). Inactive products are never sent; none left answers 422. A
 * product or category that is not the company's is 404.
 */
export class SendCatalog {
  constructor(private readonly deps: { send: SendTicketMessage; products: Products | null; categories: Categories | null }) {}

  async execute(input: {
    readonly actor: Actor;
    readonly ticketId: number;
    readonly productIds?: readonly number[];
    readonly categoryId?: number;
    readonly mode?: CatalogMode;
    readonly body?: string;
  }): Promise<SendTicketMessageResult> {
    const { products } = this.deps;
    if (!products) throw new NotFoundError('ERR_PRODUCT_NOT_FOUND');
    const intro = input.body ?? '';
    if (intro.length > MAX_INTRO) throw new ValidationError('ERR_MESSAGE_TOO_LONG');
    const ids = input.productIds ?? [];
    if ((ids.length === 0) === (input.categoryId === undefined) || ids.length > MAX_CATALOG_ITEMS) throw new ValidationError('ERR_INVALID_CATALOG_ITEMS');
    const { companyId } = input.actor;
    let chosen: Product[];
    if (ids.length) {
      const found = new Map((await products.findByIds(companyId, ids)).map((p) => [p.id, p]));
      if (ids.some((id) => !found.has(id))) throw new NotFoundError('ERR_PRODUCT_NOT_FOUND');
      chosen = [...new Set(ids)].map((id) => found.get(id)!).filter((p) => p.active);
    } else {
      // Another company's category is not found, as everywhere; one of ours without active products is 422 below.
      if (!(await this.deps.categories?.findById(companyId, input.categoryId!))) throw new NotFoundError('ERR_CATEGORY_NOT_FOUND');
      const page = await products.list({ companyId, categoryId: input.categoryId!, active: true, page: { offset: 0, limit: MAX_CATALOG_ITEMS } });
      chosen = page.rows;
    }
    if (chosen.length === 0) throw new ValidationError('ERR_INVALID_CATALOG_ITEMS');
    if ((input.mode ?? 'text') === 'text') {
      return this.deps.send.execute({ actor: input.actor, ticketId: input.ticketId, body: formatCatalog(intro, chosen) });
    }
    const images = firstImages(
      await products.images(
        companyId,
        chosen.map((p) => p.id),
      ),
    );
    const attachments = chosen.map((p) => ({ caption: productLines(p).join('\n'), media: mediaOf(images.get(p.id)) }));
    const first = intro.trim() ? [{ caption: intro.trim(), media: null }] : [];
    return this.deps.send.execute({ actor: input.actor, ticketId: input.ticketId, body: '', attachments: [...first, ...attachments] });
  }
}

function firstImages(images: readonly ProductImage[]): Map<number, ProductImage> {
  const first = new Map<number, ProductImage>();
  for (const image of [...images].sort((a, b) => a.position - b.position || a.id - b.id)) if (!first.has(image.productId)) first.set(image.productId, image);
  return first;
}

function mediaOf(image: ProductImage | undefined): MessageMedia | null {
  if (!image) return null;
  const extension = image.key.split('.').pop() ?? '';
  return {
    key: image.key,
    url: image.url,
    contentType: image.contentType,
    filename: `product-${image.productId}${extension ? `.${extension}` : ''}`,
    size: image.size,
  };
}
