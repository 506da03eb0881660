import { expect } from 'chai';
import type { BufferedUpload } from '../../src/index.js';
import { MAX_PRODUCT_IMAGE_BYTES } from '../../src/catalog/product-images.js';
import { catalogWorld, code, type CatalogWorld } from './catalog-world.js';

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(24, 1)]);
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(24, 2)]);
const image = (filename: string, data: Buffer, contentType = 'image/png'): BufferedUpload => ({ filename, data, contentType });

describe('Catalog: products', () => {
  let w: CatalogWorld;
  beforeEach(async () => {
    w = await catalogWorld();
  });

  it('admins create a product with its defaults; every user of the company reads it, with its category and images; the event carries the view', async () => {
    const shelf = await w.catalog.createCategory.execute({ actor: w.admin, name: 'Cafés' });
    const created = await w.catalog.createProduct.execute({ actor: w.admin, name: '  Espresso duplo ', price: 1250, categoryId: shelf.id, sku: ' ESP-2 ' });
    expect(created).to.deep.include({
      name: 'Espresso duplo',
      description: '',
      sku: 'ESP-2',
      price: 1250,
      currency: 'BRL',
      stock: 0,
      trackStock: false,
      active: true,
      categoryId: shelf.id,
      category: { id: shelf.id, name: 'Cafés' },
      images: [],
      companyId: w.acme.id,
    });
    expect(w.ports.realtime.events.at(-1)).to.deep.include({ entity: 'product', data: { action: 'create', product: created } });
    expect(await w.catalog.showProduct.execute({ actor: w.operator, productId: created.id })).to.deep.equal(created);
    const counted = await w.catalog.createProduct.execute({ actor: w.admin, name: 'Grãos 1kg', price: 8990, currency: 'usd', stock: 12 });
    expect(counted).to.deep.include({ currency: 'USD', stock: 12, trackStock: true, category: null });
    expect(await code(w.catalog.showProduct.execute({ actor: w.otherAdmin, productId: created.id }))).to.equal('ERR_PRODUCT_NOT_FOUND');
  });

  it("refuses bad fields with their codes, another company's category with 404, a taken SKU with 409, and operators with 403", async () => {
    const create = (fields: Record<string, unknown>) => code(w.catalog.createProduct.execute({ actor: w.admin, name: 'Ok', price: 100, ...fields }));
    expect(await create({ name: '   ' })).to.equal('ERR_PRODUCT_INVALID_NAME');
    expect(await create({ name: 'x'.repeat(201) })).to.equal('ERR_PRODUCT_INVALID_NAME');
    expect(await create({ name: 'a\nb' })).to.equal('ERR_PRODUCT_INVALID_NAME');
    expect(await create({ name: undefined })).to.equal('ERR_PRODUCT_INVALID_NAME');
    expect(await create({ price: undefined })).to.equal('ERR_PRODUCT_INVALID_PRICE');
    expect(await create({ price: 12.5 })).to.equal('ERR_PRODUCT_INVALID_PRICE');
    expect(await create({ price: -1 })).to.equal('ERR_PRODUCT_INVALID_PRICE');
    expect(await create({ price: 1_000_000_001 })).to.equal('ERR_PRODUCT_INVALID_PRICE');
    expect(await create({ currency: 'reais' })).to.equal('ERR_PRODUCT_INVALID_CURRENCY');
    expect(await create({ stock: -1 })).to.equal('ERR_PRODUCT_INVALID_STOCK');
    expect(await create({ sku: 'x'.repeat(65) })).to.equal('ERR_PRODUCT_INVALID_SKU');
    expect(await create({ description: 'x'.repeat(5001) })).to.equal('ERR_PRODUCT_INVALID_DESCRIPTION');
    const theirs = await w.catalog.createCategory.execute({ actor: w.otherAdmin, name: 'Deles' });
    expect(await create({ categoryId: theirs.id })).to.equal('ERR_CATEGORY_NOT_FOUND');
    expect(await create({ sku: 'A-1' })).to.equal('resolved');
    expect(await create({ sku: 'A-1' })).to.equal('ERR_PRODUCT_SKU_IN_USE');
    expect(await create({ sku: '' })).to.equal('resolved');
    expect(await code(w.catalog.createProduct.execute({ actor: w.operator, name: 'Ok', price: 1 }))).to.equal('ERR_NO_PERMISSION');
  });

  it("edits the fields given; a stock given is the new count and turns counting on; another company's product is 404", async () => {
    const p = await w.catalog.createProduct.execute({ actor: w.admin, name: 'Bolo', price: 3000, description: 'De cenoura' });
    const edited = await w.catalog.updateProduct.execute({ actor: w.admin, productId: p.id, price: 3200, stock: 4 });
    expect(edited).to.deep.include({ name: 'Bolo', description: 'De cenoura', price: 3200, stock: 4, trackStock: true });
    expect(w.ports.realtime.events.at(-1)).to.deep.include({ entity: 'product', data: { action: 'update', product: edited } });
    expect(await w.ports.products.moveStock(w.acme.id, p.id, -4)).to.equal(true);
    const off = await w.catalog.updateProduct.execute({ actor: w.admin, productId: p.id, trackStock: false, active: false, sku: null, categoryId: null });
    expect(off).to.deep.include({ stock: 0, trackStock: false, active: false, sku: null });
    expect(await code(w.catalog.updateProduct.execute({ actor: w.otherAdmin, productId: p.id, name: 'Roubado' }))).to.equal('ERR_PRODUCT_NOT_FOUND');
    expect(await code(w.catalog.updateProduct.execute({ actor: w.operator, productId: p.id, name: 'x' }))).to.equal('ERR_NO_PERMISSION');
    expect(await code(w.catalog.updateProduct.execute({ actor: w.admin, productId: p.id, price: -5 }))).to.equal('ERR_PRODUCT_INVALID_PRICE');
  });

  it('lists 20 a page by name, searched in the name or SKU, by category and activity', async () => {
    const shelf = await w.catalog.createCategory.execute({ actor: w.admin, name: 'Doces' });
    for (let i = 0; i < 23; i++)
      await w.catalog.createProduct.execute({ actor: w.admin, name: `Item ${String(i).padStart(2, '0')}`, price: i, sku: `IT-${i}` });
    await w.catalog.createProduct.execute({ actor: w.admin, name: 'Brigadeiro', price: 300, categoryId: shelf.id, active: false });
    const first = await w.catalog.listProducts.execute({ actor: w.operator });
    expect([first.products.length, first.count, first.hasMore, first.products[0]!.name]).to.deep.equal([20, 24, true, 'Brigadeiro']);
    const second = await w.catalog.listProducts.execute({ actor: w.operator, pageNumber: 2 });
    expect([second.products.length, second.hasMore]).to.deep.equal([4, false]);
    expect((await w.catalog.listProducts.execute({ actor: w.operator, searchParam: 'it-7' })).products.map((p) => p.sku)).to.deep.equal(['IT-7']);
    expect((await w.catalog.listProducts.execute({ actor: w.operator, categoryId: shelf.id })).products.map((p) => p.name)).to.deep.equal(['Brigadeiro']);
    expect((await w.catalog.listProducts.execute({ actor: w.operator, active: false })).count).to.equal(1);
    expect((await w.catalog.listProducts.execute({ actor: w.otherAdmin })).count).to.equal(0);
  });

  it('adds images recognised by their bytes (public blobs under the company), at most 10, and removes one with its file', async () => {
    const p = await w.catalog.createProduct.execute({ actor: w.admin, name: 'Caneca', price: 4500 });
    const withImages = await w.catalog.addProductImages.execute({
      actor: w.admin,
      productId: p.id,
      files: [image('a.png', PNG), image('b.jpg', JPEG, 'image/png')],
    });
    expect(withImages.images.map((i) => [i.position, i.contentType, i.size])).to.deep.equal([
      [0, 'image/png', PNG.length],
      [1, 'image/jpeg', JPEG.length],
    ]);
    const keys = [...w.ports.blobs.blobs.keys()].filter((k) => k.startsWith(`public/company-${w.acme.id}/products/${p.id}/`));
    expect(keys).to.have.length(2);
    expect(withImages.images[0]!.url).to.equal(`http://localhost/files/${keys.find((k) => k.endsWith('.png'))}`);
    expect(w.ports.realtime.events.at(-1)).to.deep.include({ entity: 'product', data: { action: 'update', product: withImages } });

    expect(
      await code(w.catalog.addProductImages.execute({ actor: w.admin, productId: p.id, files: [image('x.png', Buffer.from('<svg onload=alert(1)>'))] })),
    ).to.equal('ERR_FILE_TYPE_NOT_ALLOWED');
    expect(
      await code(
        w.catalog.addProductImages.execute({
          actor: w.admin,
          productId: p.id,
          files: [image('big.png', Buffer.concat([PNG, Buffer.alloc(MAX_PRODUCT_IMAGE_BYTES)]))],
        }),
      ),
    ).to.equal('ERR_FILE_TOO_LARGE');
    expect(await code(w.catalog.addProductImages.execute({ actor: w.admin, productId: p.id, files: [] }))).to.equal('ERR_NO_FILE');
    const nine = Array.from({ length: 9 }, (_, i) => image(`${i}.png`, PNG));
    expect(await code(w.catalog.addProductImages.execute({ actor: w.admin, productId: p.id, files: nine }))).to.equal('ERR_PRODUCT_TOO_MANY_IMAGES');
    // The refused upload left nothing behind.
    expect([...w.ports.blobs.blobs.keys()].filter((k) => k.includes(`/products/${p.id}/`))).to.have.length(2);
    expect(await code(w.catalog.addProductImages.execute({ actor: w.otherAdmin, productId: p.id, files: [image('a.png', PNG)] }))).to.equal(
      'ERR_PRODUCT_NOT_FOUND',
    );
    expect(await code(w.catalog.addProductImages.execute({ actor: w.operator, productId: p.id, files: [image('a.png', PNG)] }))).to.equal('ERR_NO_PERMISSION');

    const [first, second] = withImages.images;
    const after = await w.catalog.removeProductImage.execute({ actor: w.admin, productId: p.id, imageId: first!.id });
    expect(after.images.map((i) => i.id)).to.deep.equal([second!.id]);
    expect([...w.ports.blobs.blobs.keys()].filter((k) => k.includes(`/products/${p.id}/`))).to.have.length(1);
    expect(await code(w.catalog.removeProductImage.execute({ actor: w.admin, productId: p.id, imageId: first!.id }))).to.equal('ERR_PRODUCT_IMAGE_NOT_FOUND');
    const other = await w.catalog.createProduct.execute({ actor: w.admin, name: 'Outro', price: 1 });
    expect(await code(w.catalog.removeProductImage.execute({ actor: w.admin, productId: other.id, imageId: second!.id }))).to.equal(
      'ERR_PRODUCT_IMAGE_NOT_FOUND',
    );
    expect(await code(w.catalog.removeProductImage.execute({ actor: w.otherAdmin, productId: p.id, imageId: second!.id }))).to.equal('ERR_PRODUCT_NOT_FOUND');
  });

  it('deletes products in bulk, all or none, with their image files; one event names them', async () => {
    const a = await w.catalog.createProduct.execute({ actor: w.admin, name: 'A', price: 1 });
    const b = await w.catalog.createProduct.execute({ actor: w.admin, name: 'B', price: 1 });
    await w.catalog.addProductImages.execute({ actor: w.admin, productId: a.id, files: [image('a.png', PNG)] });
    const theirs = await w.catalog.createProduct.execute({ actor: w.otherAdmin, name: 'C', price: 1 });
    expect(await code(w.catalog.deleteProducts.execute({ actor: w.admin, ids: [a.id, theirs.id] }))).to.equal('ERR_PRODUCT_NOT_FOUND');
    expect(await code(w.catalog.deleteProducts.execute({ actor: w.operator, ids: [a.id] }))).to.equal('ERR_NO_PERMISSION');
    expect((await w.catalog.listProducts.execute({ actor: w.admin })).count).to.equal(2);
    expect(await w.catalog.deleteProducts.execute({ actor: w.admin, ids: [b.id, a.id, a.id] })).to.deep.equal([a.id, b.id].sort((x, y) => x - y));
    expect(w.ports.realtime.events.at(-1)).to.deep.include({ entity: 'product', data: { action: 'delete', productIds: [a.id, b.id].sort((x, y) => x - y) } });
    expect([...w.ports.blobs.blobs.keys()].filter((k) => k.includes('/products/'))).to.deep.equal([]);
    expect((await w.catalog.listProducts.execute({ actor: w.otherAdmin })).count).to.equal(1);
    expect(await w.catalog.deleteProducts.execute({ actor: w.admin, ids: [] })).to.deep.equal([]);
  });
});
