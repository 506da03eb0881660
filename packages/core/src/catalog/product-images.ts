import type { RealtimeEvents } from '../realtime/ports.js';
import { assertAdmin, type Actor } from '../shared/actor.js';
import { NotFoundError, ValidationError } from '../shared/errors.js';
import type { BlobStorage, Clock, IdGenerator, Transaction } from '../shared/ports.js';
import { acceptImage, storeUpload, uploadSize, type ImageType, type UploadedFile } from '../uploads/image-upload.js';
import type { ProductEvent } from './catalog-events.js';
import { findProduct, productView, type CatalogReads, type ProductView } from './catalog-view.js';
import { dropBlobsAfterCommit } from './manage-products.js';
import { MAX_PRODUCT_IMAGES } from './product.js';

/** WhatsApp sends images of up to 5 MB: a larger product image could not go out in a conversation. */
export const MAX_PRODUCT_IMAGE_BYTES = 5 * 1024 * 1024;
const IMAGE_TYPES: readonly ImageType[] = ['png', 'jpeg', 'webp', 'gif'];

interface ImageDeps extends CatalogReads {
  blobs: BlobStorage;
  tx: Transaction;
  clock: Clock;
  ids: IdGenerator;
  realtime: RealtimeEvents<ProductEvent>;
}

/**
 * `POST /products/:productId/images`: adds images after the product's others. Each is recognised by
 * its bytes (PNG, JPEG, WebP or GIF; else 422 `ERR_FILE_TYPE_NOT_ALLOWED`), up to 5 MiB (413
 * `ERR_FILE_TOO_LARGE`), and stored as a public blob under the company's prefix before the
 * transaction (removed again if it fails). A product has at most 10 images (422
 * `ERR_PRODUCT_TOO_MANY_IMAGES`). Admins only. Emits `product` `update`.
 */
export class AddProductImages {
  constructor(private readonly deps: ImageDeps) {}

  async execute(input: { readonly actor: Actor; readonly productId: number; readonly files: readonly UploadedFile[] }): Promise<ProductView> {
    const { products, blobs, tx, clock, ids, realtime } = this.deps;
    assertAdmin(input.actor);
    const { companyId } = input.actor;
    await findProduct(products, companyId, input.productId);
    if (!input.files.length) throw new ValidationError('ERR_NO_FILE');
    if (input.files.length > MAX_PRODUCT_IMAGES) throw new ValidationError('ERR_PRODUCT_TOO_MANY_IMAGES');
    const checked = input.files.map((file) => ({ file, ...acceptImage(file, IMAGE_TYPES, MAX_PRODUCT_IMAGE_BYTES) }));
    const stored: string[] = [];
    let view: ProductView;
    try {
      for (const c of checked) {
        const key = `public/company-${companyId}/products/${input.productId}/${ids.uuid()}.${c.ext}`;
        await storeUpload(blobs, key, c.file, c.contentType);
        stored.push(key);
      }
      view = await tx.run(async () => {
        const now = clock.now();
        // The product's row is locked first: two uploads take turns, and the second counts the first's images.
        if (!(await products.touch(companyId, input.productId, now))) throw new NotFoundError('ERR_PRODUCT_NOT_FOUND');
        const current = await products.images(companyId, [input.productId]);
        if (current.length + checked.length > MAX_PRODUCT_IMAGES) throw new ValidationError('ERR_PRODUCT_TOO_MANY_IMAGES');
        let position = current.reduce((max, i) => Math.max(max, i.position + 1), 0);
        for (const [n, c] of checked.entries()) {
          const key = stored[n]!;
          await products.addImage({
            companyId,
            productId: input.productId,
            key,
            url: blobs.publicUrl(key),
            contentType: c.contentType,
            size: uploadSize(c.file),
            position: position++,
            createdAt: now,
          });
        }
        return productView(this.deps, await findProduct(products, companyId, input.productId));
      });
    } catch (err) {
      await Promise.all(stored.map((k) => blobs.delete(k).catch(() => undefined)));
      throw err;
    }
    await realtime.publish(companyId, { entity: 'product', data: { action: 'update', product: view } });
    return view;
  }
}

/**
 * `DELETE /products/:productId/images/:imageId`: the image goes, its file once the change has
 * committed; another product's image is 404 `ERR_PRODUCT_IMAGE_NOT_FOUND`. Admins only. Emits `product` `update`.
 */
export class RemoveProductImage {
  constructor(private readonly deps: Omit<ImageDeps, 'ids'>) {}

  async execute(input: { readonly actor: Actor; readonly productId: number; readonly imageId: number }): Promise<ProductView> {
    const { products, tx, clock, realtime } = this.deps;
    assertAdmin(input.actor);
    const { companyId } = input.actor;
    const view = await tx.run(async () => {
      if (!(await products.touch(companyId, input.productId, clock.now()))) throw new NotFoundError('ERR_PRODUCT_NOT_FOUND');
      const removed = await products.removeImage(companyId, input.productId, input.imageId);
      if (!removed) throw new NotFoundError('ERR_PRODUCT_IMAGE_NOT_FOUND');
      dropBlobsAfterCommit(this.deps, [removed.key]);
      return productView(this.deps, await findProduct(products, companyId, input.productId));
    });
    await realtime.publish(companyId, { entity: 'product', data: { action: 'update', product: view } });
    return view;
  }
}
