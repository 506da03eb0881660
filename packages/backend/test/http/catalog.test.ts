import { expect } from 'chai';
import ExcelJS from 'exceljs';
import { openNamespace } from '../support/namespace-client.js';
import { eventually } from '../support/eventually.js';
import { client, login, newCompanyWithAdmin, startTestBackend, type Reply, type TestBackend } from '../support/test-backend.js';

const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201e2a4d1a60000000049454e44ae426082',
  'hex',
);
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]), Buffer.from('JFIF'), Buffer.alloc(40, 7)]);
const SVG = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>');

const expectError = (res: Reply, status: number, error: string) => {
  expect(res.status, JSON.stringify(res.body)).to.equal(status);
  expect(res.body).to.deep.include({ error });
};

function imagesForm(files: Array<{ content: Buffer; filename: string; type?: string }>, field = 'images') {
  const form = new FormData();
  for (const f of files) form.append(field, new Blob([f.content], { type: f.type ?? 'image/png' }), f.filename);
  return form;
}

function importForm(content: Buffer | string, filename: string, mode?: string) {
  const form = new FormData();
  if (mode) form.append('mode', mode);
  form.append('file', new Blob([content]), filename);
  return form;
}

describe('HTTP: the catalog (products, categories, images, imports)', () => {
  let b: TestBackend;
  before(async () => {
    b = await startTestBackend();
  });
  after(async () => {
    await b.close();
  });
  beforeEach(async () => {
    await b.reset();
  });

  async function operatorOf(a: Awaited<ReturnType<typeof newCompanyWithAdmin>>) {
    const email = `op-${a.company.id}@catalog.test`;
    const res = await a.api.post('/users', { name: 'Op', email, password: 'operator-pass-1', profile: 'user' });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    return client(b.url, (await login(b.url, email, 'operator-pass-1')).token);
  }

  it('admins build the catalog, every user of the company reads it; frames reach the company', async () => {
    const a = await newCompanyWithAdmin(b);
    const op = await operatorOf(a);
    const ns = await openNamespace(b.url, a.company.id, a.token);
    const drinks = await a.api.post('/categories', { name: 'Bebidas', description: 'Frias e quentes' });
    expect(drinks.status, JSON.stringify(drinks.body)).to.equal(200);
    expect(drinks.body).to.include({ name: 'Bebidas', parentId: null, position: 0, active: true, productsCount: 0, companyId: a.company.id });
    await ns.waitFor((f) => f.event === `company-${a.company.id}-category` && f.data.action === 'create' && f.data.category.id === drinks.body.id);
    const coffee = await a.api.post('/categories', { name: 'Cafés', parentId: drinks.body.id, position: 1 });
    expect(coffee.body).to.include({ parentId: drinks.body.id, position: 1 });

    const created = await a.api.post('/products', { name: 'Espresso', price: 650, sku: 'ESP-1', categoryId: coffee.body.id, stock: 20 });
    expect(created.status, JSON.stringify(created.body)).to.equal(200);
    expect(created.body).to.deep.include({
      name: 'Espresso',
      price: 650,
      currency: 'BRL',
      sku: 'ESP-1',
      stock: 20,
      trackStock: true,
      active: true,
      images: [],
      category: { id: coffee.body.id, name: 'Cafés' },
    });
    const pushed = await ns.waitFor((f) => f.event === `company-${a.company.id}-product` && f.data.action === 'create');
    expect(pushed.data.product).to.deep.equal(created.body);
    await a.api.post('/products', { name: 'Chá gelado', price: 900, currency: 'brl', active: false });

    expect((await op.get(`/products/${created.body.id}`)).body).to.deep.equal(created.body);
    const page = await op.get(`/products?searchParam=esp&pageNumber=1&categoryId=${coffee.body.id}&active=true`);
    expect(page.body).to.deep.equal({ products: [created.body], count: 1, hasMore: false });
    expect((await op.get('/products?active=false')).body.products.map((p: { name: string }) => p.name)).to.deep.equal(['Chá gelado']);
    expect((await op.get('/products')).body.count).to.equal(2);
    expect((await op.get('/categories/all')).body.map((c: { name: string; productsCount: number }) => [c.name, c.productsCount])).to.deep.equal([
      ['Bebidas', 0],
      ['Cafés', 1],
    ]);
    expect((await op.get('/categories?searchParam=CAFE')).body).to.deep.include({ count: 1, hasMore: false });

    // The edit form sends the whole product back; only the fields it may change are read.
    const edited = await a.api.put(`/products/${created.body.id}`, { ...created.body, name: 'Espresso duplo', price: 900, id: 999, companyId: 999 });
    expect(edited.status, JSON.stringify(edited.body)).to.equal(200);
    expect(edited.body).to.deep.include({ id: created.body.id, name: 'Espresso duplo', price: 900, stock: 20, companyId: a.company.id });
    await ns.waitFor((f) => f.event === `company-${a.company.id}-product` && f.data.action === 'update' && f.data.product.name === 'Espresso duplo');
    const renamed = await a.api.put(`/categories/${coffee.body.id}`, { name: 'Cafés especiais' });
    expect(renamed.body).to.deep.include({ name: 'Cafés especiais', productsCount: 1 });
    expect((await op.get(`/products/${created.body.id}`)).body.category).to.deep.equal({ id: coffee.body.id, name: 'Cafés especiais' });
    ns.close();
  });

  it("keeps companies apart (another company's product, image, category or import is 404) and operators to reading (403)", async () => {
    const a = await newCompanyWithAdmin(b);
    const beta = await newCompanyWithAdmin(b);
    const op = await operatorOf(a);
    const shelf = (await a.api.post('/categories', { name: 'Doces' })).body;
    const product = (await a.api.post('/products', { name: 'Bolo', price: 3000, categoryId: shelf.id })).body;
    const withImage = (await a.api.post(`/products/${product.id}/images`, imagesForm([{ content: PNG, filename: 'bolo.png' }]))).body;
    const started = await a.api.post('/products/import', importForm('nome;preco\nPão;1,00\n', 'p.csv'));
    expect(started.status, JSON.stringify(started.body)).to.equal(202);

    expectError(await beta.api.get(`/products/${product.id}`), 404, 'ERR_PRODUCT_NOT_FOUND');
    expectError(await beta.api.put(`/products/${product.id}`, { name: 'Roubado' }), 404, 'ERR_PRODUCT_NOT_FOUND');
    expectError(await beta.api.call('DELETE', '/products', { ids: [product.id] }), 404, 'ERR_PRODUCT_NOT_FOUND');
    expectError(await beta.api.post(`/products/${product.id}/images`, imagesForm([{ content: PNG, filename: 'x.png' }])), 404, 'ERR_PRODUCT_NOT_FOUND');
    expectError(await beta.api.delete(`/products/${product.id}/images/${withImage.images[0].id}`), 404, 'ERR_PRODUCT_NOT_FOUND');
    expectError(await beta.api.put(`/categories/${shelf.id}`, { name: 'Roubada' }), 404, 'ERR_CATEGORY_NOT_FOUND');
    expectError(await beta.api.call('DELETE', '/categories', { ids: [shelf.id] }), 404, 'ERR_CATEGORY_NOT_FOUND');
    expectError(await beta.api.post('/products', { name: 'X', price: 1, categoryId: shelf.id }), 404, 'ERR_CATEGORY_NOT_FOUND');
    expectError(await beta.api.post('/categories', { name: 'X', parentId: shelf.id }), 404, 'ERR_CATEGORY_NOT_FOUND');
    expectError(await beta.api.get(`/products/import/${started.body.id}`), 404, 'ERR_IMPORT_NOT_FOUND');
    expectError(await beta.api.get('/products/import/status'), 404, 'ERR_IMPORT_NOT_FOUND');
    expect((await beta.api.get('/products')).body).to.deep.equal({ products: [], count: 0, hasMore: false });
    expect((await beta.api.get('/categories/all')).body).to.deep.equal([]);
    const mine = (await beta.api.post('/products', { name: 'Meu', price: 1 })).body;
    expectError(await beta.api.delete(`/products/${mine.id}/images/${withImage.images[0].id}`), 404, 'ERR_PRODUCT_IMAGE_NOT_FOUND');

    expect((await op.get(`/products/${product.id}`)).status).to.equal(200);
    expect((await op.get('/categories')).body.count).to.equal(1);
    expectError(await op.post('/products', { name: 'X', price: 1 }), 403, 'ERR_NO_PERMISSION');
    expectError(await op.put(`/products/${product.id}`, { name: 'X' }), 403, 'ERR_NO_PERMISSION');
    expectError(await op.call('DELETE', '/products', { ids: [product.id] }), 403, 'ERR_NO_PERMISSION');
    expectError(await op.post(`/products/${product.id}/images`, imagesForm([{ content: PNG, filename: 'x.png' }])), 403, 'ERR_NO_PERMISSION');
    expectError(await op.delete(`/products/${product.id}/images/${withImage.images[0].id}`), 403, 'ERR_NO_PERMISSION');
    expectError(await op.post('/categories', { name: 'X' }), 403, 'ERR_NO_PERMISSION');
    expectError(await op.put(`/categories/${shelf.id}`, { name: 'X' }), 403, 'ERR_NO_PERMISSION');
    expectError(await op.call('DELETE', '/categories', { ids: [shelf.id] }), 403, 'ERR_NO_PERMISSION');
    expectError(await op.post('/products/import', importForm('nome;preco\nPão;1\n', 'p.csv')), 403, 'ERR_NO_PERMISSION');
    expectError(await op.get('/products/import/status'), 403, 'ERR_NO_PERMISSION');
    expectError(await op.get(`/products/import/${started.body.id}`), 403, 'ERR_NO_PERMISSION');
    expect((await a.api.get(`/products/${product.id}`)).body.images).to.have.length(1);
  });

  it('answers bad input with a 4xx code, never a 500', async () => {
    const a = await newCompanyWithAdmin(b);
    const product = (await a.api.post('/products', { name: 'Bolo', price: 3000, sku: 'B-1' })).body;
    expectError(await a.api.post('/products', { name: '  ', price: 1 }), 422, 'ERR_PRODUCT_INVALID_NAME');
    expectError(await a.api.post('/products', { price: 1 }), 422, 'ERR_PRODUCT_INVALID_NAME');
    expectError(await a.api.post('/products', { name: 'X' }), 422, 'ERR_PRODUCT_INVALID_PRICE');
    expectError(await a.api.post('/products', { name: 'X', price: 12.5 }), 422, 'ERR_PRODUCT_INVALID_PRICE');
    expectError(await a.api.post('/products', { name: 'X', price: -1 }), 422, 'ERR_PRODUCT_INVALID_PRICE');
    expectError(await a.api.post('/products', { name: 'X', price: 1e12 }), 422, 'ERR_PRODUCT_INVALID_PRICE');
    expectError(await a.api.post('/products', { name: 'X', price: '12,50' }), 422, 'ERR_VALIDATION');
    expectError(await a.api.post('/products', { name: 'X', price: 1, currency: 'real' }), 422, 'ERR_PRODUCT_INVALID_CURRENCY');
    expectError(await a.api.post('/products', { name: 'X', price: 1, stock: -2 }), 422, 'ERR_PRODUCT_INVALID_STOCK');
    expectError(await a.api.post('/products', { name: 'X', price: 1, sku: 'B-1' }), 409, 'ERR_PRODUCT_SKU_IN_USE');
    expectError(await a.api.post('/products', { name: 'X', price: 1, categoryId: 2_147_483_647 }), 404, 'ERR_CATEGORY_NOT_FOUND');
    expectError(await a.api.post('/products', { name: 'X', price: 1, categoryId: 'abc' }), 422, 'ERR_VALIDATION');
    expectError(await a.api.post('/products', '{"name": '), 400, 'ERR_INVALID_JSON');
    expectError(await a.api.get('/products/abc'), 422, 'ERR_VALIDATION');
    expectError(await a.api.get('/products/99999999999'), 422, 'ERR_VALIDATION');
    expectError(await a.api.get('/products/2147483647'), 404, 'ERR_PRODUCT_NOT_FOUND');
    expectError(await a.api.get('/products?active=maybe'), 422, 'ERR_VALIDATION');
    expectError(await a.api.call('DELETE', '/products'), 422, 'ERR_VALIDATION');
    expectError(await a.api.call('DELETE', '/products', { ids: [] }), 422, 'ERR_VALIDATION');
    expectError(await a.api.delete('/products?ids=1,x'), 422, 'ERR_VALIDATION');
    expectError(await a.api.delete(`/products?ids=${product.id},2147483647`), 404, 'ERR_PRODUCT_NOT_FOUND');
    expectError(await a.api.post('/categories', { name: '' }), 422, 'ERR_CATEGORY_INVALID_NAME');
    expectError(await a.api.post('/categories', { name: 'X', position: 1.5 }), 422, 'ERR_CATEGORY_INVALID_POSITION');
    const top = (await a.api.post('/categories', { name: 'Top' })).body;
    const child = (await a.api.post('/categories', { name: 'Child', parentId: top.id })).body;
    expectError(await a.api.post('/categories', { name: 'Top' }), 409, 'ERR_CATEGORY_NAME_IN_USE');
    expectError(await a.api.post('/categories', { name: 'Grandchild', parentId: child.id }), 422, 'ERR_CATEGORY_INVALID_PARENT');
    expectError(await a.api.put(`/categories/${top.id}`, { parentId: top.id }), 422, 'ERR_CATEGORY_INVALID_PARENT');

    expectError(await a.api.post(`/products/${product.id}/images`, imagesForm([{ content: SVG, filename: 'x.png' }])), 422, 'ERR_FILE_TYPE_NOT_ALLOWED');
    expectError(await a.api.post(`/products/${product.id}/images`, new FormData()), 422, 'ERR_NO_FILE');
    expectError(
      await a.api.post(`/products/${product.id}/images`, imagesForm([{ content: PNG, filename: 'x.png' }], 'photo')),
      422,
      'ERR_UNEXPECTED_FILE_FIELD',
    );
    expectError(await a.api.post(`/products/${product.id}/images`, { images: [] }), 415, 'ERR_UNSUPPORTED_CONTENT_TYPE');
    const eleven = Array.from({ length: 11 }, (_, i) => ({ content: PNG, filename: `${i}.png` }));
    expectError(await a.api.post(`/products/${product.id}/images`, imagesForm(eleven)), 413, 'ERR_TOO_MANY_FILES');
    expectError(
      await a.api.post(`/products/${product.id}/images`, imagesForm([{ content: Buffer.concat([PNG, Buffer.alloc(5 * 1024 * 1024)]), filename: 'big.png' }])),
      413,
      'ERR_FILE_TOO_LARGE',
    );

    expectError(await a.api.post('/products/import', importForm('Nome;Cor\nPão;branco\n', 'p.csv')), 422, 'ERR_PRODUCT_IMPORT_MISSING_COLUMNS');
    expectError(await a.api.post('/products/import', importForm('Nome;Preço\n', 'p.csv')), 422, 'ERR_IMPORT_EMPTY');
    expectError(
      await a.api.post('/products/import', importForm(Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), 'old.xls')),
      422,
      'ERR_IMPORT_UNSUPPORTED_FILE',
    );
    expectError(
      await a.api.post('/products/import', importForm(Buffer.from([0x50, 0x4b, 0x03, 0x04, 1, 2, 3]), 'broken.xlsx')),
      422,
      'ERR_IMPORT_INVALID_FILE',
    );
    expectError(await a.api.post('/products/import', new FormData()), 422, 'ERR_IMPORT_NO_FILE');
    expectError(await a.api.post('/products/import', importForm('nome;preco\nPão;1\n', 'p.csv', 'replace')), 422, 'ERR_VALIDATION');
    expectError(await a.api.get('/products/import/abc'), 422, 'ERR_VALIDATION');
    expectError(await a.api.get('/products/import/status'), 404, 'ERR_IMPORT_NOT_FOUND');
  });

  it('uploads images recognised by their bytes as public files under the company, up to ten, and deletes them with their files', async () => {
    const a = await newCompanyWithAdmin(b);
    const ns = await openNamespace(b.url, a.company.id, a.token);
    const product = (await a.api.post('/products', { name: 'Caneca', price: 4500 })).body;
    const prefix = `public/company-${a.company.id}/products/${product.id}/`;
    // Ids start again after each reset while files stay on disk: an earlier test may have left some under this prefix.
    const leftover = await b.infra.blobs.usage(prefix);
    const uploaded = await a.api.post(
      `/products/${product.id}/images`,
      imagesForm([
        { content: PNG, filename: 'frente.png', type: 'image/jpeg' },
        { content: JPEG, filename: 'lado.jpg', type: 'application/octet-stream' },
      ]),
    );
    expect(uploaded.status, JSON.stringify(uploaded.body)).to.equal(200);
    expect(uploaded.body.images.map((i: any) => [i.position, i.contentType, i.size])).to.deep.equal([
      [0, 'image/png', PNG.length],
      [1, 'image/jpeg', JPEG.length],
    ]);
    expect(uploaded.body.images[0].url).to.match(new RegExp(`^https?://[^/]+/${prefix}[0-9a-f-]+\\.png$`));
    expect(await b.infra.blobs.usage(prefix)).to.equal(leftover + PNG.length + JPEG.length);
    await ns.waitFor((f) => f.event === `company-${a.company.id}-product` && f.data.action === 'update' && f.data.product.images.length === 2);
    // The field `file` is read too; past ten in all the upload is refused and stores nothing.
    expect((await a.api.post(`/products/${product.id}/images`, imagesForm([{ content: PNG, filename: 'c.png' }], 'file'))).body.images).to.have.length(3);
    const eight = Array.from({ length: 8 }, (_, i) => ({ content: PNG, filename: `${i}.png` }));
    expectError(await a.api.post(`/products/${product.id}/images`, imagesForm(eight)), 422, 'ERR_PRODUCT_TOO_MANY_IMAGES');
    expect(await b.infra.blobs.usage(prefix)).to.equal(leftover + 2 * PNG.length + JPEG.length);

    const removed = await a.api.delete(`/products/${product.id}/images/${uploaded.body.images[0].id}`);
    expect(removed.status, JSON.stringify(removed.body)).to.equal(200);
    expect(removed.body.images.map((i: any) => i.id)).to.not.include(uploaded.body.images[0].id);
    await eventually('the image file deleted', async () => (await b.infra.blobs.usage(prefix)) === leftover + PNG.length + JPEG.length);
    expectError(await a.api.delete(`/products/${product.id}/images/${uploaded.body.images[0].id}`), 404, 'ERR_PRODUCT_IMAGE_NOT_FOUND');

    expect((await a.api.delete(`/products?ids=${product.id}`)).body).to.deep.equal({ deleted: 1, ids: [product.id] });
    await eventually('every image file deleted', async () => (await b.infra.blobs.usage(prefix)) === leftover);
    ns.close();
  });

  it('deletes products and categories in bulk, all or none; a category holding products only with `detach`', async () => {
    const a = await newCompanyWithAdmin(b);
    const beta = await newCompanyWithAdmin(b);
    const ns = await openNamespace(b.url, a.company.id, a.token);
    const shelf = (await a.api.post('/categories', { name: 'Doces' })).body;
    const sub = (await a.api.post('/categories', { name: 'Bolos', parentId: shelf.id })).body;
    const ids: number[] = [];
    for (const name of ['A', 'B', 'C']) ids.push((await a.api.post('/products', { name, price: 100, categoryId: shelf.id })).body.id);
    const theirs = (await beta.api.post('/products', { name: 'Deles', price: 1 })).body;
    expectError(await a.api.call('DELETE', '/products', { ids: [ids[0], theirs.id] }), 404, 'ERR_PRODUCT_NOT_FOUND');
    expect((await a.api.get('/products')).body.count).to.equal(3);
    expect((await a.api.call('DELETE', '/products', { ids: [ids[0], ids[1], ids[0]] })).body).to.deep.equal({ deleted: 2, ids: [ids[0], ids[1]] });
    const gone = await ns.waitFor((f) => f.event === `company-${a.company.id}-product` && f.data.action === 'delete');
    expect(gone.data).to.deep.equal({ action: 'delete', productIds: [ids[0], ids[1]] });

    expectError(await a.api.call('DELETE', '/categories', { ids: [shelf.id] }), 409, 'ERR_CATEGORY_IN_USE');
    expect((await a.api.get(`/products/${ids[2]}`)).body.categoryId).to.equal(shelf.id);
    const deleted = await a.api.delete(`/categories?ids=${shelf.id}&detach=true`);
    expect(deleted.body).to.deep.equal({ deleted: 1, ids: [shelf.id] });
    expect((await a.api.get(`/products/${ids[2]}`)).body).to.deep.include({ categoryId: null, category: null });
    const moved = await ns.waitFor((f) => f.event === `company-${a.company.id}-category` && f.data.action === 'update' && f.data.category.id === sub.id);
    expect(moved.data.category.parentId).to.equal(null);
    await ns.waitFor((f) => f.event === `company-${a.company.id}-category` && f.data.action === 'delete' && f.data.categoryIds[0] === shelf.id);
    expect((await beta.api.get(`/products/${theirs.id}`)).status).to.equal(200);
    ns.close();
  });

  it('imports 5,000 CSV rows in the background: 202 at once, bad rows reported, polled through /products/import/:id and /status; then an XLSX upsert', async function () {
    this.timeout(120_000);
    const a = await newCompanyWithAdmin(b);
    const ns = await openNamespace(b.url, a.company.id, a.token);
    await a.api.post('/products', { name: 'Já cadastrado', price: 100, sku: 'P-10' });
    const lines = ['Produto;Preço;SKU;Estoque;Categoria;Ativo'];
    for (let i = 0; i < 5_000; i++) {
      if (i === 100) lines.push(';5,00;;;;');
      else if (i === 200) lines.push('Sem preço;abc;;;;');
      else if (i === 300) lines.push('Repetido;1,00;P-1;;;');
      else if (i === 400) lines.push('Estoque ruim;1,00;;-1;;');
      else lines.push(`Produto ${i};R$ ${i},90;P-${i};${i % 7};${i % 2 ? 'Ímpares' : 'Pares'};${i % 10 ? 'sim' : 'não'}`);
    }
    const started = await a.api.post('/products/import', importForm(Buffer.from(`${lines.join('\r\n')}\r\n`, 'latin1'), 'catalogo.csv'));
    expect(started.status, JSON.stringify(started.body)).to.equal(202);
    expect(started.body).to.deep.include({ status: 'queued', mode: 'create', fileName: 'catalogo.csv', total: 5_000, processed: 0 });
    expectError(await a.api.post('/products/import', importForm('nome;preco\nPão;1\n', 'p.csv')), 409, 'ERR_PRODUCT_IMPORT_IN_PROGRESS');

    const done = await eventually(
      'the import to complete',
      async () => {
        const polled = await a.api.get(`/products/import/${started.body.id}`);
        return polled.body.status === 'completed' ? polled.body : null;
      },
      90_000,
    );
    expect(done).to.deep.include({ total: 5_000, processed: 5_000, created: 4_995, updated: 0, skipped: 1, failed: 4, error: null });
    expect(done.errors).to.deep.equal([
      { row: 102, field: 'name', error: 'ERR_PRODUCT_INVALID_NAME' },
      { row: 202, field: 'price', error: 'ERR_PRODUCT_INVALID_PRICE' },
      { row: 302, field: 'sku', error: 'ERR_PRODUCT_IMPORT_DUPLICATE_SKU' },
      { row: 402, field: 'stock', error: 'ERR_PRODUCT_INVALID_STOCK' },
    ]);
    expect((await a.api.get('/products/import/status')).body).to.deep.equal(done);
    const last = await ns.waitFor((f) => f.event === `company-${a.company.id}-productImport` && f.data.action === 'done');
    expect(last.data.record).to.deep.equal(done);
    expect(
      ns
        .of('productImport')
        .filter((f) => f.data.action === 'progress')
        .map((f) => f.data.record.processed),
    ).to.deep.equal(Array.from({ length: 10 }, (_, i) => (i + 1) * 500));
    expect((await a.api.get('/products')).body.count).to.equal(4_996);
    const p7 = (await a.api.get('/products?searchParam=P-7')).body.products.find((p: { sku: string }) => p.sku === 'P-7');
    expect(p7).to.deep.include({ name: 'Produto 7', price: 790, stock: 0, trackStock: true, active: true, category: { id: p7.categoryId, name: 'Ímpares' } });
    expect((await a.api.get('/products?active=false')).body.count).to.equal(495);
    expect((await a.api.get('/categories/all')).body.map((c: { name: string; productsCount: number }) => [c.name, c.productsCount])).to.deep.equal([
      ['Ímpares', 2_500],
      ['Pares', 2_495],
    ]);

    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet('Produtos');
    sheet.addRow(['SKU', 'Nome', 'Valor']);
    sheet.addRow(['P-7', 'Produto sete', 12.5]);
    sheet.addRow(['NOVO-1', 'Novo', 3]);
    const second = await a.api.post('/products/import', importForm(Buffer.from(await book.xlsx.writeBuffer()), 'ajuste.xlsx', 'upsert'));
    expect(second.status, JSON.stringify(second.body)).to.equal(202);
    const secondDone = await eventually(
      'the upsert to complete',
      async () => {
        const polled = await a.api.get('/products/import/status');
        return polled.body.id === second.body.id && polled.body.status === 'completed' ? polled.body : null;
      },
      30_000,
    );
    expect(secondDone).to.deep.include({ mode: 'upsert', created: 1, updated: 1, failed: 0 });
    expect((await a.api.get(`/products/${p7.id}`)).body).to.deep.include({
      name: 'Produto sete',
      price: 1250,
      stock: 0,
      trackStock: true,
      categoryId: p7.categoryId,
    });
    ns.close();
  });
});
