import { expect } from 'chai';
import { parsePriceText } from '../../src/catalog/catalog-rules.js';
import { IMPORT_MAX_ATTEMPTS, PRODUCT_IMPORT_JOB, type ProductImportPayload } from '../../src/catalog/import-products.js';
import { productRowsOfTable, type ProductSheet } from '../../src/catalog/import-rows.js';
import type { ProductImportMode } from '../../src/catalog/product-import.js';
import { catalogWorld, code, type CatalogWorld } from './catalog-world.js';

/** A sheet as the HTTP adapter reads it from a file: the first line is the header, data rows from row 2. */
const sheetOf = (lines: string[][]): ProductSheet =>
  productRowsOfTable({ headers: lines[0]!, rows: lines.slice(1).map((cells, i) => ({ row: i + 2, cells })) });

describe('Catalog: spreadsheet imports', () => {
  let w: CatalogWorld;
  beforeEach(async () => {
    w = await catalogWorld();
  });
  const start = (sheet: ProductSheet, mode: ProductImportMode = 'create') =>
    w.catalog.startProductImport.execute({ actor: w.admin, fileName: 'produtos.csv', mode, sheet });
  const records = () => w.ports.realtime.events.filter((e) => e.entity === 'productImport');

  it('reads prices as spreadsheets write them, in minor units of the currency', () => {
    const cases: Array<[string, string, number]> = [
      ['12,50', 'BRL', 1250],
      ['12.50', 'BRL', 1250],
      ['R$ 12,50', 'BRL', 1250],
      ['12', 'BRL', 1200],
      ['12.5', 'BRL', 1250],
      ['0,99', 'BRL', 99],
      ['1.234,56', 'BRL', 123_456],
      ['1,234.56', 'USD', 123_456],
      ['US$ 7', 'USD', 700],
      ['1.250', 'BRL', 125_000],
      ['1.234.567', 'BRL', 123_456_700],
      ['BRL 3,00', 'BRL', 300],
      ['1.250', 'JPY', 1250],
      ['980', 'JPY', 980],
    ];
    for (const [text, currency, minor] of cases) expect(parsePriceText(text, currency), text).to.equal(minor);
    for (const text of ['', 'abc', '-5', '12,505,5', '1,23,45', '12,,5', '12,345.6.7', '1.234.56', '12,5', '99999999999']) {
      expect(() => parsePriceText(text, text === '12,5' ? 'JPY' : 'BRL'), text)
        .to.throw()
        .with.property('code', 'ERR_PRODUCT_INVALID_PRICE');
    }
  });

  it('finds columns by their headers (case, accents and punctuation ignored), skips blank rows, and needs a name and a price column', () => {
    const sheet = sheetOf([
      ['Produto', 'PREÇO', 'Código', 'Cor', 'Estoque', 'Categoria'],
      ['Café', '12,50', 'C-1', 'preto', '3', 'Bebidas'],
      ['', ' ', '', '', '', ''],
      ['Chá', '8', '', '', '', ''],
    ]);
    expect(sheet.columns).to.deep.equal(['name', 'sku', 'price', 'stock', 'category']);
    expect(sheet.rows).to.deep.equal([
      { row: 2, cells: { name: 'Café', sku: 'C-1', price: '12,50', stock: '3', category: 'Bebidas' } },
      { row: 4, cells: { name: 'Chá', sku: '', price: '8', stock: '', category: '' } },
    ]);
    expect(() =>
      sheetOf([
        ['Nome', 'Cor'],
        ['Café', 'preto'],
      ]),
    )
      .to.throw()
      .with.property('code', 'ERR_PRODUCT_IMPORT_MISSING_COLUMNS');
    expect(() =>
      sheetOf([
        ['Valor', 'Cor'],
        ['12', 'preto'],
      ]),
    )
      .to.throw()
      .with.property('code', 'ERR_PRODUCT_IMPORT_MISSING_COLUMNS');
  });

  it('imports in the background: good rows written, bad ones reported with their column, missing categories created, a known SKU skipped', async () => {
    const sweets = await w.catalog.createCategory.execute({ actor: w.admin, name: 'Doces' });
    await w.catalog.createProduct.execute({ actor: w.admin, name: 'Já existe', price: 100, sku: 'EX-1' });
    const started = await start(
      sheetOf([
        ['Nome', 'Preço', 'SKU', 'Moeda', 'Estoque', 'Ativo', 'Categoria', 'Descrição'],
        ['Café', '12,50', 'C-1', '', '10', 'sim', 'Bebidas', 'Torrado'],
        ['Chá', 'US$ 8,00', '', 'usd', '', '', 'bebidas', ''],
        ['', '5', '', '', '', '', '', ''],
        ['Bolo', 'abc', '', '', '', '', '', ''],
        ['Pão', '1.250', 'C-1', '', '', '', '', ''],
        ['Leite', '5', '', '', '-3', '', '', ''],
        ['Suco', '6', '', '', '', 'talvez', '', ''],
        ['Repetido', '7', 'EX-1', '', '', 'não', 'DOCES', ''],
        ['Brigadeiro', '3', '', '', '', 'não', 'DOCES', ''],
      ]),
    );
    expect(started).to.deep.include({ status: 'queued', mode: 'create', fileName: 'produtos.csv', total: 9, processed: 0, startedAt: null, finishedAt: null });
    expect(await w.drainJobs()).to.equal(1);
    const done = await w.catalog.showProductImport.execute({ actor: w.admin, importId: started.id });
    expect(done).to.deep.include({ status: 'completed', total: 9, processed: 9, created: 3, updated: 0, skipped: 1, failed: 5, error: null });
    expect(done.errors).to.deep.equal([
      { row: 4, field: 'name', error: 'ERR_PRODUCT_INVALID_NAME' },
      { row: 5, field: 'price', error: 'ERR_PRODUCT_INVALID_PRICE' },
      { row: 6, field: 'sku', error: 'ERR_PRODUCT_IMPORT_DUPLICATE_SKU' },
      { row: 7, field: 'stock', error: 'ERR_PRODUCT_INVALID_STOCK' },
      { row: 8, field: 'active', error: 'ERR_PRODUCT_INVALID_ACTIVE' },
    ]);
    expect(done.startedAt).to.be.a('string');
    expect(done.finishedAt).to.be.a('string');
    expect(await w.catalog.showLatestProductImport.execute({ actor: w.admin })).to.deep.equal(done);
    expect(w.events().slice(-3)).to.deep.equal(['category:create', 'productImport:progress', 'productImport:done']);
    expect(records().at(-1)!.data).to.deep.equal({ action: 'done', record: done });

    const all = (await w.catalog.listProducts.execute({ actor: w.admin })).products;
    const drinks = (await w.catalog.listAllCategories.execute({ actor: w.admin })).find((c) => c.name === 'Bebidas')!;
    expect(all.map((p) => [p.name, p.price, p.currency, p.stock, p.trackStock, p.active, p.category?.name ?? null, p.description])).to.deep.equal([
      ['Brigadeiro', 300, 'BRL', 0, false, false, 'Doces', ''],
      ['Café', 1250, 'BRL', 10, true, true, 'Bebidas', 'Torrado'],
      ['Chá', 800, 'USD', 0, false, true, 'Bebidas', ''],
      ['Já existe', 100, 'BRL', 0, false, true, null, ''],
    ]);
    expect([
      drinks.productsCount,
      (await w.catalog.listAllCategories.execute({ actor: w.admin })).find((c) => c.id === sweets.id)!.productsCount,
    ]).to.deep.equal([2, 1]);
    expect([...w.ports.blobs.blobs.keys()]).to.deep.equal([]);
  });

  it("upserts by SKU: the product with the row's SKU takes the columns the file has, others keep theirs; new SKUs are added", async () => {
    const kept = await w.catalog.createProduct.execute({ actor: w.admin, name: 'Café', price: 1000, sku: 'C-1', stock: 8, description: 'Torrado' });
    const started = await start(
      sheetOf([
        ['sku', 'name', 'price'],
        ['C-1', 'Café especial', '14,90'],
        ['C-2', 'Café moído', '11'],
      ]),
      'upsert',
    );
    await w.drainJobs();
    expect(await w.catalog.showProductImport.execute({ actor: w.admin, importId: started.id })).to.deep.include({
      created: 1,
      updated: 1,
      skipped: 0,
      failed: 0,
    });
    expect(await w.catalog.showProduct.execute({ actor: w.admin, productId: kept.id })).to.deep.include({
      name: 'Café especial',
      price: 1490,
      stock: 8,
      trackStock: true,
      description: 'Torrado',
    });
  });

  it('writes 5,123 rows in batches of 500, ten a run, each run enqueuing the next, with a progress record after each batch', async () => {
    const lines = [['nome', 'preco', 'sku']];
    for (let i = 0; i < 5_123; i++) lines.push([`Produto ${i}`, `${i},99`, `P-${i}`]);
    const started = await start(sheetOf(lines));
    expect(await w.drainJobs()).to.equal(2);
    const progress = records()
      .filter((e) => e.data.action === 'progress')
      .map((e) => e.data.record.processed);
    expect(progress).to.deep.equal(Array.from({ length: 11 }, (_, i) => Math.min((i + 1) * 500, 5_123)));
    expect(await w.catalog.showProductImport.execute({ actor: w.admin, importId: started.id })).to.deep.include({
      status: 'completed',
      created: 5_123,
      failed: 0,
    });
    expect((await w.catalog.listProducts.execute({ actor: w.admin })).count).to.equal(5_123);
  });

  it("refuses operators, empty and oversized files, and a second import while one is open; reports 404 for no import or another company's", async () => {
    expect(await code(w.catalog.showLatestProductImport.execute({ actor: w.admin }))).to.equal('ERR_IMPORT_NOT_FOUND');
    const one = sheetOf([
      ['nome', 'preco'],
      ['Café', '1'],
    ]);
    expect(await code(w.catalog.startProductImport.execute({ actor: w.operator, fileName: 'x.csv', sheet: one }))).to.equal('ERR_NO_PERMISSION');
    expect(await code(start({ columns: ['name', 'price'], rows: [] }))).to.equal('ERR_IMPORT_EMPTY');
    const huge = { columns: ['name', 'price'] as const, rows: Array.from({ length: 50_001 }, (_, i) => ({ row: i + 2, cells: { name: 'x', price: '1' } })) };
    expect(await code(start(huge))).to.equal('ERR_IMPORT_TOO_MANY_ROWS');
    const started = await start(one);
    expect(await code(start(one))).to.equal('ERR_PRODUCT_IMPORT_IN_PROGRESS');
    expect([...w.ports.blobs.blobs.keys()]).to.have.length(1);
    expect(await code(w.catalog.showProductImport.execute({ actor: w.otherAdmin, importId: started.id }))).to.equal('ERR_IMPORT_NOT_FOUND');
    expect(await code(w.catalog.showLatestProductImport.execute({ actor: w.otherAdmin }))).to.equal('ERR_IMPORT_NOT_FOUND');
    expect(await code(w.catalog.showProductImport.execute({ actor: w.operator, importId: started.id }))).to.equal('ERR_NO_PERMISSION');
    await w.drainJobs();
    expect(await code(start(one))).to.equal('resolved');
  });

  it('after a crash a rerun goes on from the last batch written; a run failing its last try ends the import as failed', async () => {
    const lines = [['nome', 'preco', 'sku']];
    for (let i = 0; i < 1_200; i++) lines.push([`Produto ${i}`, '1', `P-${i}`]);
    const started = await start(sheetOf(lines));
    const [job] = await w.ports.jobStore.claim({ owner: 'test', limit: 1, leaseMs: new Map([[PRODUCT_IMPORT_JOB, 60_000]]) });
    const payload = job!.payload as ProductImportPayload;
    const products = w.ports.products;
    const original = products.importBatch.bind(products);
    let calls = 0;
    products.importBatch = async (...args) => {
      if (++calls === 2) throw new Error('database went away');
      return original(...args);
    };
    expect(await code(w.catalog.runProductImport.execute(payload, 1))).to.equal(undefined);
    expect(await w.catalog.showProductImport.execute({ actor: w.admin, importId: started.id })).to.deep.include({ status: 'processing', processed: 500 });
    await w.catalog.runProductImport.execute(payload, 2);
    expect(await w.catalog.showProductImport.execute({ actor: w.admin, importId: started.id })).to.deep.include({
      status: 'completed',
      processed: 1_200,
      created: 1_200,
    });
    expect((await w.catalog.listProducts.execute({ actor: w.admin })).count).to.equal(1_200);
    // A late rerun of the same job finds the import ended and writes nothing.
    await w.catalog.runProductImport.execute(payload, 3);
    expect(records().filter((e) => e.data.action === 'done')).to.have.length(1);

    const second = await start(
      sheetOf([
        ['nome', 'preco'],
        ['Café', '1'],
      ]),
    );
    const [next] = await w.ports.jobStore.claim({ owner: 'test', limit: 1, leaseMs: new Map([[PRODUCT_IMPORT_JOB, 60_000]]) });
    products.importBatch = async () => {
      throw new Error('database went away');
    };
    await w.catalog.runProductImport.execute(next!.payload as ProductImportPayload, IMPORT_MAX_ATTEMPTS);
    products.importBatch = original;
    const failed = await w.catalog.showProductImport.execute({ actor: w.admin, importId: second.id });
    expect(failed).to.deep.include({ status: 'failed', error: 'ERR_IMPORT_FAILED', processed: 0 });
    expect(records().at(-1)!.data).to.deep.equal({ action: 'done', record: failed });
    expect([...w.ports.blobs.blobs.keys()]).to.deep.equal([]);
  });
});
