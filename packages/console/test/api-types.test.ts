import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { apiTypes } from '../scripts/api-types.js';

describe('console: the API types', function () {
  this.timeout(60_000);
  it('are the ones generated from the route declarations as they are now (`npm run generate:api -w packages/console`)', async () => {
    const committed = readFileSync(fileURLToPath(new URL('../src/api/schema.gen.ts', import.meta.url)), 'utf8');
    const fresh = await apiTypes();
    // A route whose shape changed fails here until the types are regenerated; then `tsc -b` shows what in the console breaks.
    expect(committed === fresh, 'src/api/schema.gen.ts is stale: run `npm run generate:api -w packages/console`').to.equal(true);
  });
});
