import { expect } from 'chai';
import type { Companies, Plans, Transaction } from '../../src/index.js';
import type { Categories, ImportedProduct, ProductImports, Products } from '../../src/catalog/ports.js';
import type { NewCategory, NewProduct, NewProductImage } from '../../src/catalog/product.js';
import type { NewProductImport } from '../../src/catalog/product-import.js';
import { twoCompanies } from './repositories-contract.js';

export interface CatalogFixture {
  readonly products: Products;
  readonly categories: Categories;
  readonly productImports: ProductImports;
  readonly companies: Companies;
  readonly plans: Plans;
  readonly tx: Transaction;
}

const T0 = new Date('2026-03-01T10:00:00.000Z');
const T1 = new Date('2026-03-02T10:00:00.000Z');

export function productFixture(companyId: number, name: string, overrides: Partial<NewProduct> = {}): NewProduct {
  return {
    companyId,
    name,
    description: '',
    sku: null,
    price: 1000,
    currency: 'BRL',
    stock: 0,
    trackStock: false,
    active: true,
    categoryId: null,
    createdAt: T0,
    updatedAt: T0,
    ...overrides,
  };
}

export function categoryFixture(companyId: number, name: string, overrides: Partial<NewCategory> = {}): NewCategory {
  return { companyId, name, description: '', parentId: null, position: 0, active: true, createdAt: T0, updatedAt: T0, ...overrides };
}

function imageFixture(companyId: number, productId: number, position: number): NewProductImage {
  const key = `public/company-${companyId}/products/${productId}/${position}.png`;
  return { companyId, productId, key, url: `http://files.test/${key}`, contentType: 'image/png', size: 68, position, createdAt: T0 };
}

function importFixture(companyId: number, overrides: Partial<NewProductImport> = {}): NewProductImport {
  return {
    companyId,
    userId: null,
    status: 'queued',
    mode: 'create',
    fileName: 'produtos.csv',
    total: 3,
    processed: 0,
    created: 0,
    updated: 0,
    skipped: 0,
    failed: 0,
    errors: [],
    error: null,
    createdAt: T0,
    startedAt: null,
    finishedAt: null,
    ...overrides,
  };
}

const row = (name: string, overrides: Partial<ImportedProduct> = {}): ImportedProduct => ({
  name,
  description: '',
  sku: null,
  price: 500,
  currency: 'BRL',
  stock: 0,
  trackStock: false,
  active: true,
  categoryId: null,
  ...overrides,
});

/** Plain data, whatever class the adapter builds its rows with. */
const plain = <T extends object>(value: T | null) => (value ? { ...value } : value);
const code = (p: Promise<unknown>) =>
  p.then(
    () => 'resolved',
    (e: { code?: string }) => e.code,
  );

/** One suite for every adapter of the catalog's ports. */
export function describeCatalogContract(name: string, make: () => Promise<CatalogFixture>) {
  describe(`Catalog repositories contract: ${name}`, () => {
    let r: CatalogFixture;
    let c1: number;
    let c2: number;
    beforeEach(async () => {
      r = await make();
    });

    /** Two companies. Called by each test body (database adapters run bodies in a unit of work). */
    async function given() {
      [c1, c2] = await twoCompanies(r);
    }
    const product = (companyId: number, n: string, overrides: Partial<NewProduct> = {}) => r.products.add(productFixture(companyId, n, overrides));
    const category = (companyId: number, n: string, overrides: Partial<NewCategory> = {}) => r.categories.add(categoryFixture(companyId, n, overrides));

    it('stores a product as given and finds it only within its company, by id, ids and SKU', async () => {
      await given();
      const shelf = await category(c1, 'Cafés');
      const added = await product(c1, 'Espresso', {
        description: 'Curto',
        sku: 'ESP-1',
        price: 650,
        currency: 'USD',
        stock: 4,
        trackStock: true,
        categoryId: shelf.id,
      });
      expect(plain(await r.products.findById(c1, added.id))).to.deep.equal(added);
      expect(await r.products.findById(c2, added.id)).to.equal(null);
      expect(await r.products.findById(c1, 2_147_483_648)).to.equal(null);
      expect((await r.products.findByIds(c1, [added.id, 999_999, 2_147_483_648])).map(plain)).to.deep.equal([added]);
      expect(await r.products.findByIds(c2, [added.id])).to.deep.equal([]);
      expect(plain(await r.products.findBySku(c1, 'ESP-1'))).to.deep.equal(added);
      expect(await r.products.findBySku(c1, 'esp-1')).to.equal(null);
      expect(await r.products.findBySku(c2, 'ESP-1')).to.equal(null);
    });

    it('keeps a SKU unique per company on add and update (409 ERR_PRODUCT_SKU_IN_USE), many products without one, and refuses a category that is gone', async () => {
      await given();
      await product(c1, 'A', { sku: 'X-1' });
      const b = await product(c1, 'B', { sku: 'X-2' });
      expect(await code(product(c1, 'C', { sku: 'X-1' }))).to.equal('ERR_PRODUCT_SKU_IN_USE');
      expect(await code(r.products.update({ ...b, sku: 'X-1' }))).to.equal('ERR_PRODUCT_SKU_IN_USE');
      expect(await code(product(c2, 'A', { sku: 'X-1' }))).to.equal('resolved');
      expect(await code(product(c1, 'D'))).to.equal('resolved');
      expect(await code(product(c1, 'E'))).to.equal('resolved');
      expect(await code(product(c1, 'F', { categoryId: 2_000_000_000 }))).to.equal('ERR_CATEGORY_NOT_FOUND');
      expect(await code(r.products.update({ ...b, categoryId: 2_000_000_000 }))).to.equal('ERR_CATEGORY_NOT_FOUND');
    });

    it('updates every field but the company, the creation time and the stock; touches updatedAt alone; only within the company', async () => {
      await given();
      const shelf = await category(c1, 'Chás');
      const a = await product(c1, 'A', { stock: 5, trackStock: true });
      await r.products.update({ ...a, companyId: c2, name: 'Roubado' });
      expect((await r.products.findById(c1, a.id))!.name).to.equal('A');
      const edited = {
        ...a,
        name: 'B',
        description: 'd',
        sku: 'S',
        price: 1,
        currency: 'EUR',
        trackStock: false,
        active: false,
        categoryId: shelf.id,
        updatedAt: T1,
      };
      await r.products.update({ ...edited, stock: 99, createdAt: T1 });
      expect(plain(await r.products.findById(c1, a.id))).to.deep.equal(edited);
      const T2 = new Date('2026-03-03T10:00:00.000Z');
      expect(await r.products.touch(c2, a.id, T2)).to.equal(false);
      expect(await r.products.touch(c1, a.id, T2)).to.equal(true);
      expect(await r.products.touch(c1, 2_147_483_648, T2)).to.equal(false);
      expect(plain(await r.products.findById(c1, a.id))).to.deep.equal({ ...edited, updatedAt: T2 });
    });

    it('lists by name (accents and case folded) then id, searched in the name or the SKU, by category and by activity, paged', async () => {
      await given();
      const shelf = await category(c1, 'Bebidas');
      for (const [n, sku, active] of [
        ['Suco', 'BEB-01', true],
        ['água', 'BEB-02', true],
        ['Bolo', 'DOC-01', false],
        ['Açaí', null, true],
      ] as const) {
        await product(c1, n, { sku, active, categoryId: sku?.startsWith('BEB') ? shelf.id : null });
      }
      await product(c2, 'Água da outra');
      const all = await r.products.list({ companyId: c1, page: { offset: 0, limit: 20 } });
      expect([all.rows.map((p) => p.name), all.count]).to.deep.equal([['Açaí', 'água', 'Bolo', 'Suco'], 4]);
      const page = await r.products.list({ companyId: c1, page: { offset: 1, limit: 2 } });
      expect([page.rows.map((p) => p.name), page.count]).to.deep.equal([['água', 'Bolo'], 4]);
      const names = async (q: Partial<Parameters<Products['list']>[0]>) =>
        (await r.products.list({ companyId: c1, page: { offset: 0, limit: 20 }, ...q })).rows.map((p) => p.name);
      expect(await names({ search: 'AGUA' })).to.deep.equal(['água']);
      expect(await names({ search: 'beb-0' })).to.deep.equal(['água', 'Suco']);
      expect(await names({ search: '100%_' })).to.deep.equal([]);
      expect(await names({ categoryId: shelf.id })).to.deep.equal(['água', 'Suco']);
      expect(await names({ categoryId: 2_147_483_648 })).to.deep.equal([]);
      expect(await names({ active: false })).to.deep.equal(['Bolo']);
      expect(await names({ active: true, categoryId: shelf.id, search: 'suc' })).to.deep.equal(['Suco']);
    });

    it('moves stock of a product that tracks it, never below zero; one that does not track it answers true unchanged', async () => {
      await given();
      const counted = await product(c1, 'Contado', { stock: 2, trackStock: true });
      const free = await product(c1, 'Livre', { stock: 0 });
      expect(await r.products.moveStock(c1, counted.id, -2)).to.equal(true);
      expect(await r.products.moveStock(c1, counted.id, -1)).to.equal(false);
      expect((await r.products.findById(c1, counted.id))!.stock).to.equal(0);
      expect(await r.products.moveStock(c1, counted.id, 3)).to.equal(true);
      expect((await r.products.findById(c1, counted.id))!.stock).to.equal(3);
      expect(await r.products.moveStock(c1, free.id, -5)).to.equal(true);
      expect((await r.products.findById(c1, free.id))!.stock).to.equal(0);
      expect(await r.products.moveStock(c2, counted.id, -1)).to.equal(false);
      expect(await r.products.moveStock(c1, 2_000_000_000, -1)).to.equal(false);
      expect((await r.products.findById(c1, counted.id))!.stock).to.equal(3);
      expect(await r.products.setStock(c1, counted.id, 10, T1)).to.equal(true);
      expect(await r.products.setStock(c2, counted.id, 0, T1)).to.equal(false);
      expect(plain(await r.products.findById(c1, counted.id))).to.deep.include({ stock: 10, updatedAt: T1 });
    });

    it('of 20 concurrent reservations of the last unit, each in its transaction, exactly one gets it', async () => {
      await given();
      const last = await product(c1, 'Último', { stock: 1, trackStock: true });
      const taken = await Promise.all(Array.from({ length: 20 }, () => r.tx.run(() => r.products.moveStock(c1, last.id, -1))));
      expect(taken.filter(Boolean)).to.have.length(1);
      expect((await r.products.findById(c1, last.id))!.stock).to.equal(0);
    });

    it('keeps images by product, position and id; removes one only from its product and company; removing products removes theirs', async () => {
      await given();
      const a = await product(c1, 'A');
      const b = await product(c1, 'B');
      const a2 = await r.products.addImage(imageFixture(c1, a.id, 1));
      const a1 = await r.products.addImage(imageFixture(c1, a.id, 0));
      const b1 = await r.products.addImage(imageFixture(c1, b.id, 0));
      expect((await r.products.images(c1, [b.id, a.id])).map((i) => i.id)).to.deep.equal(a.id < b.id ? [a1.id, a2.id, b1.id] : [b1.id, a1.id, a2.id]);
      expect((await r.products.images(c1, [a.id])).map(plain)).to.deep.equal([a1, a2]);
      expect(await r.products.images(c2, [a.id])).to.deep.equal([]);
      expect(await r.products.removeImage(c2, a.id, a1.id)).to.equal(null);
      expect(await r.products.removeImage(c1, b.id, a1.id)).to.equal(null);
      expect(plain(await r.products.removeImage(c1, a.id, a1.id))).to.deep.equal(a1);
      expect(await r.products.removeImage(c1, a.id, a1.id)).to.equal(null);
      const other = await product(c2, 'Other');
      expect(await r.products.remove(c1, [a.id, other.id, 2_147_483_648])).to.deep.equal([a.id]);
      expect(await r.products.findById(c2, other.id)).to.not.equal(null);
      expect(await r.products.images(c1, [a.id])).to.deep.equal([]);
      expect((await r.products.images(c1, [b.id])).map((i) => i.id)).to.deep.equal([b1.id]);
      expect(await r.products.remove(c1, [])).to.deep.equal([]);
    });

    it('counts products per category and takes them out of categories, only within the company', async () => {
      await given();
      const shelf = await category(c1, 'A');
      const empty = await category(c1, 'B');
      const p1 = await product(c1, 'P1', { categoryId: shelf.id });
      await product(c1, 'P2', { categoryId: shelf.id });
      await product(c1, 'P3');
      expect([...(await r.products.countByCategories(c1, [shelf.id, empty.id]))]).to.deep.equal([[shelf.id, 2]]);
      expect((await r.products.countByCategories(c2, [shelf.id])).size).to.equal(0);
      await r.products.detachCategories(c2, [shelf.id], T1);
      expect((await r.products.countByCategories(c1, [shelf.id])).get(shelf.id)).to.equal(2);
      await r.products.detachCategories(c1, [shelf.id], T1);
      expect((await r.products.countByCategories(c1, [shelf.id])).size).to.equal(0);
      expect(plain(await r.products.findById(c1, p1.id))).to.deep.include({ categoryId: null, updatedAt: T1 });
    });

    it('imports a batch: `create` skips a SKU the company has; `upsert` updates it (only the columns given) or inserts', async () => {
      await given();
      const shelf = await category(c1, 'A');
      const kept = await product(c1, 'Antigo', { sku: 'S-1', price: 100, description: 'fica', stock: 7, trackStock: true, categoryId: shelf.id });
      await product(c2, 'Outra empresa', { sku: 'S-2' });
      const created = await r.products.importBatch(
        c1,
        [row('Novo', { sku: 'S-1' }), row('Sem SKU'), row('Outro', { sku: 'S-2', categoryId: shelf.id })],
        { mode: 'create', columns: ['sku', 'category'] },
        T1,
      );
      expect(created).to.deep.equal({ created: 2, updated: 0, skipped: 1 });
      expect(plain(await r.products.findById(c1, kept.id))).to.deep.equal(kept);
      expect(plain(await r.products.findBySku(c1, 'S-2'))).to.deep.include({ name: 'Outro', price: 500, categoryId: shelf.id, createdAt: T1, updatedAt: T1 });
      const T2 = new Date('2026-03-03T10:00:00.000Z');
      const upserted = await r.products.importBatch(
        c1,
        [
          row('Antigo 2', { sku: 'S-1', price: 250, description: 'ignorada', stock: 1, trackStock: true, active: false }),
          row('Terceiro', { sku: 'S-3', price: 300, active: false }),
        ],
        { mode: 'upsert', columns: ['sku', 'active'] },
        T2,
      );
      expect(upserted).to.deep.equal({ created: 1, updated: 1, skipped: 0 });
      expect(plain(await r.products.findById(c1, kept.id))).to.deep.equal({ ...kept, name: 'Antigo 2', price: 250, active: false, updatedAt: T2 });
      expect(plain(await r.products.findBySku(c1, 'S-3'))).to.deep.include({ name: 'Terceiro', price: 300, active: false, stock: 0, trackStock: false });
      expect(plain(await r.products.findBySku(c2, 'S-2'))).to.deep.include({ name: 'Outra empresa' });
      expect(await r.products.importBatch(c1, [], { mode: 'upsert', columns: [] }, T2)).to.deep.equal({ created: 0, updated: 0, skipped: 0 });
    });

    it('stores categories, finds them only within their company, lists them by position then name, searched and paged', async () => {
      await given();
      const b = await category(c1, 'Bebidas', { position: 1, description: 'Frias e quentes' });
      const a = await category(c1, 'Açougue', { position: 1 });
      const z = await category(c1, 'Zebra', { position: 0, active: false });
      await category(c2, 'Outra');
      expect(plain(await r.categories.findById(c1, b.id))).to.deep.equal(b);
      expect(await r.categories.findById(c2, b.id)).to.equal(null);
      expect(await r.categories.findById(c1, 2_147_483_648)).to.equal(null);
      expect((await r.categories.findByIds(c1, [a.id, b.id, 2_147_483_648])).map((c) => c.id).sort()).to.deep.equal([a.id, b.id].sort());
      expect((await r.categories.all(c1)).map((c) => c.name)).to.deep.equal(['Zebra', 'Açougue', 'Bebidas']);
      const page = await r.categories.list({ companyId: c1, page: { offset: 1, limit: 1 } });
      expect([page.rows.map((c) => c.id), page.count]).to.deep.equal([[a.id], 3]);
      expect((await r.categories.list({ companyId: c1, search: 'ACOU', page: { offset: 0, limit: 20 } })).rows.map((c) => c.id)).to.deep.equal([a.id]);
      await r.categories.update({ ...z, companyId: c2, name: 'Roubada' });
      await r.categories.update({ ...z, name: 'Zoo', position: 3, active: true, description: 'x', updatedAt: T1, createdAt: T1 });
      expect(plain(await r.categories.findById(c1, z.id))).to.deep.equal({ ...z, name: 'Zoo', position: 3, active: true, description: 'x', updatedAt: T1 });
    });

    it('keeps a name unique among siblings ignoring case (409 ERR_CATEGORY_NAME_IN_USE), not across parents or companies', async () => {
      await given();
      const top = await category(c1, 'Bebidas');
      const other = await category(c1, 'Doces');
      expect(await code(category(c1, 'BEBIDAS'))).to.equal('ERR_CATEGORY_NAME_IN_USE');
      expect(await code(r.categories.update({ ...other, name: 'bebidas' }))).to.equal('ERR_CATEGORY_NAME_IN_USE');
      expect(await code(category(c1, 'Bebidas', { parentId: other.id }))).to.equal('resolved');
      expect(await code(category(c1, 'bebidas', { parentId: other.id }))).to.equal('ERR_CATEGORY_NAME_IN_USE');
      expect(await code(category(c2, 'Bebidas'))).to.equal('resolved');
      expect(await code(category(c1, 'Sub', { parentId: top.id }))).to.equal('resolved');
      expect(await code(category(c1, 'Órfã', { parentId: 2_000_000_000 }))).to.equal('ERR_CATEGORY_NOT_FOUND');
    });

    it('removes categories of the company only; their children move to the top; refuses one holding products or a child whose name the top has', async () => {
      await given();
      const parent = await category(c1, 'Mercado');
      const child = await category(c1, 'Frutas', { parentId: parent.id });
      const foreign = await category(c2, 'Alheia');
      expect(await r.categories.remove(c1, [parent.id, foreign.id, 2_147_483_648])).to.deep.equal([parent.id]);
      expect(await r.categories.findById(c2, foreign.id)).to.not.equal(null);
      expect((await r.categories.findById(c1, child.id))!.parentId).to.equal(null);

      const used = await category(c1, 'Usada');
      await product(c1, 'Dentro', { categoryId: used.id });
      expect(await r.tx.run(() => code(r.categories.remove(c1, [used.id])))).to.equal('ERR_CATEGORY_IN_USE');
      expect(await r.categories.findById(c1, used.id)).to.not.equal(null);

      const second = await category(c1, 'Feira');
      await category(c1, 'frutas', { parentId: second.id });
      expect(await r.tx.run(() => code(r.categories.remove(c1, [second.id])))).to.equal('ERR_CATEGORY_NAME_IN_USE');
      expect(await r.categories.findById(c1, second.id)).to.not.equal(null);
      expect(await r.categories.remove(c1, [])).to.deep.equal([]);
    });

    it('records imports: one open per company (409 ERR_PRODUCT_IMPORT_IN_PROGRESS), the latest, advancing by compare-and-set, errors capped at 100, ended once', async () => {
      await given();
      const first = await r.productImports.add(importFixture(c1));
      expect(plain(await r.productImports.findById(c1, first.id))).to.deep.equal(first);
      expect(await r.productImports.findById(c2, first.id)).to.equal(null);
      expect(await code(r.productImports.add(importFixture(c1)))).to.equal('ERR_PRODUCT_IMPORT_IN_PROGRESS');
      expect(await code(r.productImports.add(importFixture(c2)))).to.equal('resolved');
      const errors = Array.from({ length: 80 }, (_, i) => ({ row: i + 2, field: 'price', error: 'ERR_PRODUCT_INVALID_PRICE' }));
      const step = { processed: 80, created: 0, updated: 0, skipped: 0, failed: 80, errors };
      expect(await r.productImports.advance(c1, first.id, 0, step, T1)).to.equal(true);
      expect(await r.productImports.advance(c1, first.id, 0, step, T1)).to.equal(false);
      expect(await r.productImports.advance(c2, first.id, 80, step, T1)).to.equal(false);
      const T2 = new Date('2026-03-03T10:00:00.000Z');
      expect(await r.productImports.advance(c1, first.id, 80, { processed: 5, created: 2, updated: 1, skipped: 1, failed: 80, errors }, T2)).to.equal(true);
      const advanced = (await r.productImports.findById(c1, first.id))!;
      expect(plain(advanced)).to.deep.include({ status: 'processing', startedAt: T1, processed: 85, created: 2, updated: 1, skipped: 1, failed: 160 });
      expect(advanced.errors).to.have.length(100);
      expect(advanced.errors[99]).to.deep.equal({ row: 21, field: 'price', error: 'ERR_PRODUCT_INVALID_PRICE' });
      expect(await r.productImports.finish(c2, first.id, 'completed', null, T2)).to.equal(false);
      expect(await r.productImports.finish(c1, first.id, 'failed', 'ERR_IMPORT_FAILED', T2)).to.equal(true);
      expect(await r.productImports.finish(c1, first.id, 'completed', null, T2)).to.equal(false);
      expect(await r.productImports.advance(c1, first.id, 85, step, T2)).to.equal(false);
      expect(plain(await r.productImports.findById(c1, first.id))).to.deep.include({ status: 'failed', error: 'ERR_IMPORT_FAILED', finishedAt: T2 });
      const second = await r.productImports.add(importFixture(c1, { mode: 'upsert' }));
      expect((await r.productImports.latest(c1))!.id).to.equal(second.id);
      expect((await r.productImports.latest(c2))!.companyId).to.equal(c2);
      expect(await r.productImports.latest(2_000_000_000)).to.equal(null);
    });
  });
}
