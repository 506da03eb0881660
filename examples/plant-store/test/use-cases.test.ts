import { expect } from 'chai';
import { InMemoryPlants } from '../src/adapters/in-memory-plants.js';
import { DeletePlant } from '../src/core/delete-plant.js';
import { PlantNotFoundError } from '../src/core/errors.js';
import { ListPlants } from '../src/core/list-plants.js';

describe('use cases', () => {
  it('ListPlants passes the limit through to the port', async () => {
    const listPlants = new ListPlants(new InMemoryPlants([{ name: 'a' }, { name: 'b' }]));
    expect(await listPlants.execute()).to.have.length(2);
    expect(await listPlants.execute(1)).to.deep.equal([{ id: 1, name: 'a' }]);
  });

  it('ListPlants rejects limits that are not non-negative integers', async () => {
    const listPlants = new ListPlants(new InMemoryPlants());
    for (const limit of [-1, 1.5, NaN, Infinity]) {
      const failure = await listPlants.execute(limit).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(failure, String(limit)).to.be.instanceOf(RangeError);
    }
  });

  it('DeletePlant removes, then reports PlantNotFoundError for the same id', async () => {
    const plants = new InMemoryPlants([{ name: 'a' }]);
    const deletePlant = new DeletePlant(plants);
    await deletePlant.execute(1);
    expect(await plants.list()).to.deep.equal([]);
    const failure = await deletePlant.execute(1).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).to.be.instanceOf(PlantNotFoundError).and.have.property('id', 1);
  });
});
