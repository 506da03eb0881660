import { expect } from 'chai';
import { catalogWorld, code, type CatalogWorld } from './catalog-world.js';

describe('Catalog: categories', () => {
  let w: CatalogWorld;
  beforeEach(async () => {
    w = await catalogWorld();
  });

  it('admins create, nest one level, edit and list categories; every user reads them with their product counts', async () => {
    const drinks = await w.catalog.createCategory.execute({ actor: w.admin, name: ' Bebidas ', description: 'Frias', position: 2 });
    expect(drinks).to.deep.include({ name: 'Bebidas', description: 'Frias', position: 2, parentId: null, active: true, productsCount: 0 });
    expect(w.ports.realtime.events.at(-1)).to.deep.include({ entity: 'category', data: { action: 'create', category: drinks } });
    const juices = await w.catalog.createCategory.execute({ actor: w.admin, name: 'Sucos', parentId: drinks.id });
    await w.catalog.createProduct.execute({ actor: w.admin, name: 'Laranja', price: 800, categoryId: juices.id });
    const all = await w.catalog.listAllCategories.execute({ actor: w.operator });
    expect(all.map((c) => [c.name, c.parentId, c.productsCount])).to.deep.equal([
      ['Sucos', drinks.id, 1],
      ['Bebidas', null, 0],
    ]);
    const page = await w.catalog.listCategories.execute({ actor: w.operator, searchParam: 'suc' });
    expect([page.categories.map((c) => c.id), page.count, page.hasMore]).to.deep.equal([[juices.id], 1, false]);
    const edited = await w.catalog.updateCategory.execute({ actor: w.admin, categoryId: juices.id, name: 'Sucos naturais', active: false, parentId: null });
    expect(edited).to.deep.include({ name: 'Sucos naturais', active: false, parentId: null, productsCount: 1 });
    expect(w.ports.realtime.events.at(-1)).to.deep.include({ entity: 'category', data: { action: 'update', category: edited } });
    expect(await w.catalog.listAllCategories.execute({ actor: w.otherAdmin })).to.deep.equal([]);
  });

  it("refuses bad names, positions and parents, a sibling's name, another company's category, and operators", async () => {
    const top = await w.catalog.createCategory.execute({ actor: w.admin, name: 'Mercado' });
    const child = await w.catalog.createCategory.execute({ actor: w.admin, name: 'Frutas', parentId: top.id });
    const other = await w.catalog.createCategory.execute({ actor: w.admin, name: 'Padaria' });
    const theirs = await w.catalog.createCategory.execute({ actor: w.otherAdmin, name: 'Deles' });
    expect(await code(w.catalog.createCategory.execute({ actor: w.admin, name: ' ' }))).to.equal('ERR_CATEGORY_INVALID_NAME');
    expect(await code(w.catalog.createCategory.execute({ actor: w.admin, name: 'x'.repeat(101) }))).to.equal('ERR_CATEGORY_INVALID_NAME');
    expect(await code(w.catalog.createCategory.execute({ actor: w.admin, name: 'Ok', description: 'x'.repeat(1001) }))).to.equal(
      'ERR_CATEGORY_INVALID_DESCRIPTION',
    );
    expect(await code(w.catalog.createCategory.execute({ actor: w.admin, name: 'Ok', position: -1 }))).to.equal('ERR_CATEGORY_INVALID_POSITION');
    expect(await code(w.catalog.createCategory.execute({ actor: w.admin, name: 'mercado' }))).to.equal('ERR_CATEGORY_NAME_IN_USE');
    // One level only: no parent below a child, no parent for a category with children, not itself.
    expect(await code(w.catalog.createCategory.execute({ actor: w.admin, name: 'Cítricos', parentId: child.id }))).to.equal('ERR_CATEGORY_INVALID_PARENT');
    expect(await code(w.catalog.updateCategory.execute({ actor: w.admin, categoryId: top.id, parentId: other.id }))).to.equal('ERR_CATEGORY_INVALID_PARENT');
    expect(await code(w.catalog.updateCategory.execute({ actor: w.admin, categoryId: other.id, parentId: other.id }))).to.equal('ERR_CATEGORY_INVALID_PARENT');
    expect(await code(w.catalog.createCategory.execute({ actor: w.admin, name: 'Ok', parentId: theirs.id }))).to.equal('ERR_CATEGORY_NOT_FOUND');
    expect(await code(w.catalog.updateCategory.execute({ actor: w.admin, categoryId: theirs.id, name: 'Roubada' }))).to.equal('ERR_CATEGORY_NOT_FOUND');
    expect(await code(w.catalog.createCategory.execute({ actor: w.operator, name: 'Ok' }))).to.equal('ERR_NO_PERMISSION');
    expect(await code(w.catalog.updateCategory.execute({ actor: w.operator, categoryId: top.id, name: 'Ok' }))).to.equal('ERR_NO_PERMISSION');
    expect(await code(w.catalog.deleteCategories.execute({ actor: w.operator, ids: [top.id] }))).to.equal('ERR_NO_PERMISSION');
  });

  it('deletes in bulk, all or none; refuses categories holding products unless detached in the same transaction; subcategories move to the top', async () => {
    const top = await w.catalog.createCategory.execute({ actor: w.admin, name: 'Mercado' });
    const child = await w.catalog.createCategory.execute({ actor: w.admin, name: 'Frutas', parentId: top.id });
    const used = await w.catalog.createCategory.execute({ actor: w.admin, name: 'Usada' });
    const theirs = await w.catalog.createCategory.execute({ actor: w.otherAdmin, name: 'Deles' });
    const inside = await w.catalog.createProduct.execute({ actor: w.admin, name: 'Dentro', price: 1, categoryId: used.id });
    expect(await code(w.catalog.deleteCategories.execute({ actor: w.admin, ids: [top.id, theirs.id] }))).to.equal('ERR_CATEGORY_NOT_FOUND');
    expect(await code(w.catalog.deleteCategories.execute({ actor: w.admin, ids: [top.id, used.id] }))).to.equal('ERR_CATEGORY_IN_USE');
    expect((await w.catalog.listAllCategories.execute({ actor: w.admin })).length).to.equal(3);

    const before = w.ports.realtime.events.length;
    expect(await w.catalog.deleteCategories.execute({ actor: w.admin, ids: [used.id, top.id], detach: true })).to.deep.equal([top.id, used.id]);
    expect(w.events().slice(before)).to.deep.equal(['category:delete', 'category:update']);
    expect(w.ports.realtime.events.at(-2)).to.deep.include({ entity: 'category', data: { action: 'delete', categoryIds: [top.id, used.id] } });
    expect((w.ports.realtime.events.at(-1)!.data as { category: { id: number; parentId: number | null } }).category).to.deep.include({
      id: child.id,
      parentId: null,
    });
    expect(await w.catalog.showProduct.execute({ actor: w.admin, productId: inside.id })).to.deep.include({ categoryId: null, category: null });
    expect((await w.catalog.listAllCategories.execute({ actor: w.admin })).map((c) => c.name)).to.deep.equal(['Frutas']);
  });
});
