import { expect } from 'chai';
import type { Companies, Plans, Transaction } from '../../src/index.js';
import type { NewObjstoreConfig } from '../../src/objstore/objstore-config.js';
import type { BlobLocations, ObjstoreConfigs } from '../../src/objstore/ports.js';
import { twoCompanies } from './repositories-contract.js';

export interface ObjstoreFixture {
  readonly objstoreConfigs: ObjstoreConfigs;
  readonly blobLocations: BlobLocations;
  readonly companies: Companies;
  readonly plans: Plans;
  readonly tx: Transaction;
}

const T0 = new Date('2026-03-01T10:00:00.000Z');

export function objstoreConfigFixture(companyId: number, name: string, overrides: Partial<NewObjstoreConfig> = {}): NewObjstoreConfig {
  return {
    companyId,
    name,
    provider: 'minio',
    endpoint: 'https://minio.example.com',
    region: 'us-east-1',
    bucket: 'media',
    prefix: 'desk/uploads',
    forcePathStyle: true,
    publicBaseUrl: null,
    accessKeyId: 'AKIAEXAMPLE',
    secretSealed: 'sealed-secret',
    secretHint: 'WXYZ',
    active: false,
    createdAt: T0,
    updatedAt: T0,
    ...overrides,
  };
}

/** Plain data, whatever class the adapter builds its rows with. */
const plain = <T extends object>(row: T | null) => (row ? { ...row } : row);

/** One suite for every adapter of the ObjstoreConfigs and BlobLocations ports. */
export function describeObjstoreContract(name: string, make: () => Promise<ObjstoreFixture>) {
  describe(`Objstore repositories contract: ${name}`, () => {
    let r: ObjstoreFixture;
    let c1: number;
    let c2: number;
    beforeEach(async () => {
      r = await make();
    });

    /** Two companies. Called by each test body (database adapters run bodies in a unit of work). */
    async function given() {
      [c1, c2] = await twoCompanies(r);
    }

    it('stores every field as given (inactive until activated) and finds it only within its company', async () => {
      await given();
      const added = await r.objstoreConfigs.add(objstoreConfigFixture(c1, 'MinIO', { publicBaseUrl: 'https://cdn.example.com', active: true }));
      expect(added.active).to.equal(false);
      expect(plain(await r.objstoreConfigs.findById(c1, added.id))).to.deep.equal(added);
      expect(added).to.deep.include({ publicBaseUrl: 'https://cdn.example.com', prefix: 'desk/uploads', forcePathStyle: true, secretSealed: 'sealed-secret' });
      expect(await r.objstoreConfigs.findById(c2, added.id)).to.equal(null);
      expect(await r.objstoreConfigs.findById(c1, 2_147_483_648)).to.equal(null);
      expect(await r.objstoreConfigs.remove(c2, added.id)).to.equal(false);
      expect(await r.objstoreConfigs.findById(c1, added.id)).to.not.equal(null);
    });

    it("lists a company's configs by name (accents and case folded), then id", async () => {
      await given();
      for (const n of ['wasabi', 'Área B', 'area a', 'Zeta']) await r.objstoreConfigs.add(objstoreConfigFixture(c1, n));
      await r.objstoreConfigs.add(objstoreConfigFixture(c2, 'Aaa'));
      expect((await r.objstoreConfigs.list(c1)).map((c) => c.name)).to.deep.equal(['area a', 'Área B', 'wasabi', 'Zeta']);
      expect(await r.objstoreConfigs.list(c1 + c2 + 100)).to.deep.equal([]);
    });

    it('saves every field but the creation time and whether it is active, within its company only', async () => {
      await given();
      const added = await r.objstoreConfigs.add(objstoreConfigFixture(c1, 'MinIO'));
      await r.tx.run(() => r.objstoreConfigs.activate(c1, added.id));
      const later = new Date('2026-03-02T10:00:00.000Z');
      await r.objstoreConfigs.update({
        ...added,
        name: 'R2',
        provider: 'r2',
        endpoint: 'https://acct.r2.cloudflarestorage.com',
        region: 'auto',
        bucket: 'other',
        prefix: '',
        forcePathStyle: false,
        publicBaseUrl: 'https://media.example.com',
        accessKeyId: 'NEWKEY',
        secretSealed: 'sealed-2',
        secretHint: null,
        active: false,
        createdAt: later,
        updatedAt: later,
      });
      expect(plain(await r.objstoreConfigs.findById(c1, added.id))).to.deep.equal({
        ...added,
        name: 'R2',
        provider: 'r2',
        endpoint: 'https://acct.r2.cloudflarestorage.com',
        region: 'auto',
        bucket: 'other',
        prefix: '',
        forcePathStyle: false,
        publicBaseUrl: 'https://media.example.com',
        accessKeyId: 'NEWKEY',
        secretSealed: 'sealed-2',
        secretHint: null,
        active: true,
        updatedAt: later,
      });
      await r.objstoreConfigs.update({ ...added, companyId: c2, name: 'Theirs' });
      expect((await r.objstoreConfigs.findById(c1, added.id))?.name).to.equal('R2');
    });

    it('keeps one active config per company: activating one deactivates the others, and names them', async () => {
      await given();
      const a = await r.objstoreConfigs.add(objstoreConfigFixture(c1, 'A'));
      const b = await r.objstoreConfigs.add(objstoreConfigFixture(c1, 'B'));
      const theirs = await r.objstoreConfigs.add(objstoreConfigFixture(c2, 'Theirs'));
      expect(await r.objstoreConfigs.findActive(c1)).to.equal(null);
      expect(await r.tx.run(() => r.objstoreConfigs.activate(c1, a.id))).to.deep.equal([]);
      expect(await r.tx.run(() => r.objstoreConfigs.activate(c2, theirs.id))).to.deep.equal([]);
      expect((await r.objstoreConfigs.findActive(c1))?.id).to.equal(a.id);
      expect(await r.tx.run(() => r.objstoreConfigs.activate(c1, b.id))).to.deep.equal([a.id]);
      expect((await r.objstoreConfigs.findActive(c1))?.id).to.equal(b.id);
      expect((await r.objstoreConfigs.findById(c1, a.id))?.active).to.equal(false);
      expect((await r.objstoreConfigs.findActive(c2))?.id).to.equal(theirs.id);
      // Another company's id changes nothing.
      expect(await r.tx.run(() => r.objstoreConfigs.activate(c2, b.id))).to.deep.equal([]);
      expect((await r.objstoreConfigs.findActive(c2))?.id).to.equal(theirs.id);
      await r.objstoreConfigs.deactivate(c2, b.id);
      expect((await r.objstoreConfigs.findActive(c1))?.id).to.equal(b.id);
      await r.objstoreConfigs.deactivate(c1, b.id);
      expect(await r.objstoreConfigs.findActive(c1)).to.equal(null);
    });

    it('records where blobs are, replaces a record, sums sizes under a prefix and counts them per config', async () => {
      await given();
      const a = await r.objstoreConfigs.add(objstoreConfigFixture(c1, 'A'));
      const b = await r.objstoreConfigs.add(objstoreConfigFixture(c1, 'B'));
      const at = (key: string, configId: number, size: number) => ({ key, companyId: c1, configId, size, createdAt: T0 });
      await r.blobLocations.save(at(`public/company-${c1}/media/a.png`, a.id, 3));
      await r.blobLocations.save(at(`public/company-${c1}/media/b_%.png`, a.id, 5_000_000_000));
      await r.blobLocations.save(at(`private/company-${c1}/x.json`, b.id, 7));
      expect(plain(await r.blobLocations.find(`public/company-${c1}/media/a.png`))).to.deep.equal(at(`public/company-${c1}/media/a.png`, a.id, 3));
      expect(await r.blobLocations.find('public/company-1/none.png')).to.equal(null);
      expect(await r.blobLocations.usage(`public/company-${c1}/`)).to.equal(5_000_000_003);
      // LIKE wildcards in the prefix are taken literally.
      expect(await r.blobLocations.usage(`public/company-${c1}/media/b_%`)).to.equal(5_000_000_000);
      expect(await r.blobLocations.usage(`public/company-${c1}/media/b__`)).to.equal(0);
      expect(await r.blobLocations.countOf(c1, a.id)).to.equal(2);
      expect(await r.blobLocations.countOf(c2, a.id)).to.equal(0);
      await r.blobLocations.save(at(`public/company-${c1}/media/a.png`, b.id, 4));
      expect(await r.blobLocations.countOf(c1, a.id)).to.equal(1);
      expect(await r.blobLocations.usage(`public/company-${c1}/media/a`)).to.equal(4);
      await r.blobLocations.forget(`public/company-${c1}/media/a.png`);
      await r.blobLocations.forget('never/recorded');
      expect(await r.blobLocations.find(`public/company-${c1}/media/a.png`)).to.equal(null);
      expect(await r.blobLocations.countOf(c1, b.id)).to.equal(1);
    });

    it('refuses to remove a config that holds blobs (409), and removes it once they are gone', async () => {
      await given();
      const a = await r.objstoreConfigs.add(objstoreConfigFixture(c1, 'A'));
      await r.blobLocations.save({ key: `public/company-${c1}/a.png`, companyId: c1, configId: a.id, size: 1, createdAt: T0 });
      const refused = await r.objstoreConfigs.remove(c1, a.id).then(
        () => 'removed',
        (e: { code?: string }) => e.code,
      );
      expect(refused).to.equal('ERR_OBJSTORE_CONFIG_IN_USE');
      await r.blobLocations.forget(`public/company-${c1}/a.png`);
      expect(await r.objstoreConfigs.remove(c1, a.id)).to.equal(true);
      expect(await r.objstoreConfigs.findById(c1, a.id)).to.equal(null);
    });
  });
}
