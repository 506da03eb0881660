import { expect } from 'chai';
import type { Plants } from '../src/core/plants-port.js';

/**
 * Behaviour every Plants adapter must share, so the use cases can rely on the port alone.
 * `makeAdapter` must resolve an adapter over an empty store for each test.
 */
export function describePlantsContract(name: string, makeAdapter: () => Promise<Plants>): void {
  describe(`Plants contract: ${name}`, () => {
    let plants: Plants;

    beforeEach(async () => {
      plants = await makeAdapter();
    });

    it('starts empty', async () => {
      expect(await plants.list()).to.deep.equal([]);
    });

    it('add returns the stored plant with a positive integer id', async () => {
      const plant = await plants.add({ name: 'Monstera', tag: 'tropical' });
      expect(plant.id).to.be.a('number').and.satisfy(Number.isInteger).and.be.greaterThan(0);
      expect(plant).to.deep.equal({ id: plant.id, name: 'Monstera', tag: 'tropical' });
    });

    it('leaves tag absent (not undefined or null) when none was given', async () => {
      const plant = await plants.add({ name: 'Snake plant' });
      const [listed] = await plants.list();
      expect(plant).to.not.have.property('tag');
      expect(listed).to.deep.equal({ id: plant.id, name: 'Snake plant' });
      expect(listed).to.not.have.property('tag');
    });

    it('assigns distinct, increasing ids and lists in insertion order', async () => {
      const added = [];
      for (const plantName of ['Fern', 'Cactus', 'Lavender']) added.push(await plants.add({ name: plantName }));
      const ids = added.map((plant) => plant.id);
      expect(ids[0]).to.be.lessThan(ids[1] as number);
      expect(ids[1]).to.be.lessThan(ids[2] as number);
      expect(await plants.list()).to.deep.equal(added);
    });

    it('list(limit) caps the result, keeping order', async () => {
      for (const plantName of ['a', 'b', 'c']) await plants.add({ name: plantName });
      expect((await plants.list(2)).map((plant) => plant.name)).to.deep.equal(['a', 'b']);
      expect((await plants.list(10)).map((plant) => plant.name)).to.deep.equal(['a', 'b', 'c']);
      expect(await plants.list(0)).to.deep.equal([]);
    });

    it('stores names verbatim, including quotes and SQL-looking text', async () => {
      const tricky = `O'Brien's "fern"; DROP TABLE plants; -- 🌿`;
      await plants.add({ name: tricky, tag: '' });
      expect(await plants.list()).to.have.deep.nested.property('[0].name', tricky);
      expect(await plants.list()).to.have.deep.nested.property('[0].tag', '');
    });

    it('remove deletes an existing plant and reports true', async () => {
      const keep = await plants.add({ name: 'Fern' });
      const gone = await plants.add({ name: 'Cactus' });
      expect(await plants.remove(gone.id)).to.equal(true);
      expect(await plants.list()).to.deep.equal([keep]);
    });

    it('remove reports false for an id that is not stored, also one already removed', async () => {
      const plant = await plants.add({ name: 'Fern' });
      expect(await plants.remove(plant.id)).to.equal(true);
      expect(await plants.remove(plant.id)).to.equal(false);
      expect(await plants.remove(plant.id + 1000)).to.equal(false);
    });

    it('remove reports false (does not throw) for ids no store can hold', async () => {
      await plants.add({ name: 'Fern' });
      for (const id of [0, -1, 2 ** 31, 2 ** 53]) expect(await plants.remove(id), String(id)).to.equal(false);
      expect(await plants.list()).to.have.length(1);
    });

    it('returns copies: mutating a listed plant does not change the store', async () => {
      await plants.add({ name: 'Fern', tag: 'shade' });
      const [listed] = await plants.list();
      (listed as unknown as Record<string, unknown>)['name'] = 'changed';
      expect(await plants.list()).to.have.deep.nested.property('[0].name', 'Fern');
    });
  });
}
