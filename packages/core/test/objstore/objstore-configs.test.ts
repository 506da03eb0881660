import { expect } from 'chai';
import { createObjstore } from '../../src/compose/objstore.js';
import { companyOfBlobKey } from '../../src/objstore/blob-keys.js';
import { openObjstoreSecret } from '../../src/objstore/objstore-config.js';
import { LocatedValidationError } from '../../src/shared/errors.js';
import { code, eventsOf, ticketWorld, type TicketWorld } from '../messaging/ticket-world.js';

const SECRET = 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY';
const FIELDS = {
  name: 'MinIO',
  provider: 'minio' as const,
  endpoint: 'https://minio.example.com',
  bucket: 'media',
  accessKeyId: 'AKIAEXAMPLE',
  secretAccessKey: SECRET,
};

describe("Objstore: configs of a company's own bucket", () => {
  let w: TicketWorld;
  let changed: number[];
  let app: ReturnType<typeof createObjstore>;
  beforeEach(async () => {
    w = await ticketWorld();
    changed = [];
    app = createObjstore({ ...w.ports, objstoreChanges: { changed: (companyId) => changed.push(companyId) } });
  });

  it('creates a config with defaults, the secret sealed and never shown', async () => {
    const view = await app.createObjstoreConfig.execute({ actor: w.admin, ...FIELDS, prefix: '/desk/uploads/' });
    expect(view).to.deep.include({
      companyId: w.acme.id,
      name: 'MinIO',
      provider: 'minio',
      endpoint: 'https://minio.example.com',
      region: 'us-east-1',
      bucket: 'media',
      prefix: 'desk/uploads',
      forcePathStyle: true,
      publicBaseUrl: null,
      accessKeyId: 'AKIAEXAMPLE',
      hasSecret: true,
      secretLast4: 'EKEY',
      active: false,
    });
    expect(JSON.stringify(view)).to.not.include(SECRET);
    const stored = (await w.ports.objstoreConfigs.findById(w.acme.id, view.id))!;
    expect(stored.secretSealed).to.not.include(SECRET);
    expect(openObjstoreSecret(w.ports.secretCipher, stored)).to.equal(SECRET);
    // Sealed for its company: copied into another company's row, it does not open.
    expect(await code(Promise.resolve().then(() => openObjstoreSecret(w.ports.secretCipher, { ...stored, companyId: w.other.id })))).to.equal(
      'ERR_OBJSTORE_SECRET_UNREADABLE',
    );
    expect(w.ports.objstoreProbe.calls).to.deep.equal([]);
    expect(eventsOf(w)).to.deep.equal(['objstoreConfig:create']);
    expect(changed).to.deep.equal([w.acme.id]);
  });

  it("derives AWS's endpoint and virtual-hosted addressing for `s3`, `auto` as R2's region", async () => {
    const s3 = await app.createObjstoreConfig.execute({ actor: w.admin, ...FIELDS, provider: 's3', endpoint: null, region: 'sa-east-1' });
    expect(s3).to.deep.include({ endpoint: 'https://s3.sa-east-1.amazonaws.com', forcePathStyle: false, region: 'sa-east-1' });
    const r2 = await app.createObjstoreConfig.execute({ actor: w.admin, ...FIELDS, provider: 'r2', endpoint: 'https://acct.r2.cloudflarestorage.com/' });
    expect(r2).to.deep.include({ endpoint: 'https://acct.r2.cloudflarestorage.com', region: 'auto', forcePathStyle: false });
  });

  it('refuses bad fields with their codes (422)', async () => {
    const refused = (fields: object) => code(app.createObjstoreConfig.execute({ actor: w.admin, ...FIELDS, ...fields }));
    expect(await refused({ name: '  ' })).to.equal('ERR_OBJSTORE_INVALID_NAME');
    expect(await refused({ endpoint: null })).to.equal('ERR_OBJSTORE_INVALID_ENDPOINT');
    expect(await refused({ endpoint: 'http://minio.example.com' })).to.equal('ERR_OBJSTORE_INVALID_ENDPOINT');
    expect(await refused({ endpoint: 'https://user:pw@minio.example.com' })).to.equal('ERR_OBJSTORE_INVALID_ENDPOINT');
    expect(await refused({ endpoint: 'https://minio.example.com/bucket' })).to.equal('ERR_OBJSTORE_INVALID_ENDPOINT');
    expect(await refused({ endpoint: 'ftp://minio.example.com' })).to.equal('ERR_OBJSTORE_INVALID_ENDPOINT');
    expect(await refused({ region: 'US East' })).to.equal('ERR_OBJSTORE_INVALID_REGION');
    expect(await refused({ bucket: 'ab' })).to.equal('ERR_OBJSTORE_INVALID_BUCKET');
    expect(await refused({ bucket: 'has space' })).to.equal('ERR_OBJSTORE_INVALID_BUCKET');
    expect(await refused({ prefix: 'a/../b' })).to.equal('ERR_OBJSTORE_INVALID_PREFIX');
    expect(await refused({ prefix: 'a//b' })).to.equal('ERR_OBJSTORE_INVALID_PREFIX');
    expect(await refused({ publicBaseUrl: 'http://cdn.example.com' })).to.equal('ERR_OBJSTORE_INVALID_PUBLIC_URL');
    expect(await refused({ publicBaseUrl: 'https://cdn.example.com/?x=1' })).to.equal('ERR_OBJSTORE_INVALID_PUBLIC_URL');
    expect(await refused({ accessKeyId: 'has space' })).to.equal('ERR_OBJSTORE_INVALID_ACCESS_KEY');
    expect(await refused({ secretAccessKey: 'has space' })).to.equal('ERR_OBJSTORE_INVALID_SECRET');
    expect(await refused({ secretAccessKey: '' })).to.equal('ERR_OBJSTORE_SECRET_REQUIRED');
    expect(await w.ports.objstoreConfigs.list(w.acme.id)).to.deep.equal([]);
  });

  it('takes plain http endpoints and public URLs where the deployment allows them', async () => {
    const lenient = createObjstore({ ...w.ports, objstoreSettings: { allowHttp: true } });
    const view = await lenient.createObjstoreConfig.execute({
      actor: w.admin,
      ...FIELDS,
      endpoint: 'http://127.0.0.1:9000',
      publicBaseUrl: 'http://cdn.lan/media/',
    });
    expect(view).to.deep.include({ endpoint: 'http://127.0.0.1:9000', publicBaseUrl: 'http://cdn.lan/media' });
  });

  it('tests the connection before activating: nothing saved when a step fails (422 with the step)', async () => {
    w.ports.objstoreProbe.failAt = { step: 'write', error: 'ERR_OBJSTORE_ACCESS_DENIED' };
    const failure = await app.createObjstoreConfig.execute({ actor: w.admin, ...FIELDS, active: true }).catch((e: unknown) => e);
    expect(failure).to.be.instanceOf(LocatedValidationError);
    expect(failure).to.deep.include({ code: 'ERR_OBJSTORE_ACCESS_DENIED', located: { step: 'write' } });
    expect(await w.ports.objstoreConfigs.list(w.acme.id)).to.deep.equal([]);
    const [call] = w.ports.objstoreProbe.calls;
    expect(call!.connection).to.deep.equal({
      endpoint: 'https://minio.example.com',
      region: 'us-east-1',
      bucket: 'media',
      prefix: '',
      forcePathStyle: true,
      publicBaseUrl: null,
      accessKeyId: 'AKIAEXAMPLE',
      secretAccessKey: SECRET,
    });
    expect(call!.probeKey).to.match(/^\.healthcheck-[\w-]+$/);
    expect(eventsOf(w)).to.deep.equal([]);
  });

  it('keeps one active config: activating another deactivates the first, in one go', async () => {
    const first = await app.createObjstoreConfig.execute({ actor: w.admin, ...FIELDS, active: true });
    expect(first.active).to.equal(true);
    const second = await app.createObjstoreConfig.execute({ actor: w.admin, ...FIELDS, name: 'Second', active: true });
    expect((await w.ports.objstoreConfigs.findActive(w.acme.id))?.id).to.equal(second.id);
    expect((await app.showObjstoreConfig.execute({ actor: w.admin, configId: first.id })).active).to.equal(false);
    expect(eventsOf(w)).to.deep.equal(['objstoreConfig:create', 'objstoreConfig:create', 'objstoreConfig:update']);
    const back = await app.updateObjstoreConfig.execute({ actor: w.admin, configId: first.id, active: true });
    expect(back.active).to.equal(true);
    expect((await app.listObjstoreConfigs.execute({ actor: w.admin })).map((c) => [c.name, c.active])).to.deep.equal([
      ['MinIO', true],
      ['Second', false],
    ]);
    expect(w.ports.objstoreProbe.calls).to.have.length(3);
    await app.updateObjstoreConfig.execute({ actor: w.admin, configId: first.id, active: false });
    expect(await w.ports.objstoreConfigs.findActive(w.acme.id)).to.equal(null);
  });

  it('edits only the fields given; the secret only when a new one is sent; an active config is tested when it connects differently', async () => {
    const created = await app.createObjstoreConfig.execute({ actor: w.admin, ...FIELDS, active: true });
    const sealed = (await w.ports.objstoreConfigs.findById(w.acme.id, created.id))!.secretSealed;
    const renamed = await app.updateObjstoreConfig.execute({ actor: w.admin, configId: created.id, name: 'Renamed', secretAccessKey: '' });
    expect(renamed).to.deep.include({ name: 'Renamed', bucket: 'media', active: true, secretLast4: 'EKEY' });
    expect((await w.ports.objstoreConfigs.findById(w.acme.id, created.id))!.secretSealed).to.equal(sealed);
    expect(w.ports.objstoreProbe.calls).to.have.length(1);
    await app.updateObjstoreConfig.execute({ actor: w.admin, configId: created.id, secretAccessKey: null });
    expect(w.ports.objstoreProbe.calls).to.have.length(1);
    w.ports.objstoreProbe.failAt = { step: 'read', error: 'ERR_OBJSTORE_CHECK_FAILED' };
    expect(await code(app.updateObjstoreConfig.execute({ actor: w.admin, configId: created.id, secretAccessKey: 'another-secret-0000' }))).to.equal(
      'ERR_OBJSTORE_CHECK_FAILED',
    );
    expect((await w.ports.objstoreConfigs.findById(w.acme.id, created.id))!.secretSealed).to.equal(sealed);
    w.ports.objstoreProbe.failAt = null;
    const rekeyed = await app.updateObjstoreConfig.execute({ actor: w.admin, configId: created.id, secretAccessKey: 'another-secret-0000' });
    expect(rekeyed.secretLast4).to.equal('0000');
    expect(w.ports.objstoreProbe.calls.at(-1)!.connection.secretAccessKey).to.equal('another-secret-0000');
  });

  it('keeps the place of stored files: no move of endpoint, bucket or prefix, no removal while it holds files (409)', async () => {
    const created = await app.createObjstoreConfig.execute({ actor: w.admin, ...FIELDS, active: true });
    await w.ports.blobLocations.save({
      key: `public/company-${w.acme.id}/media/a.png`,
      companyId: w.acme.id,
      configId: created.id,
      size: 10,
      createdAt: w.ports.clock.now(),
    });
    expect(await code(app.updateObjstoreConfig.execute({ actor: w.admin, configId: created.id, bucket: 'elsewhere' }))).to.equal('ERR_OBJSTORE_CONFIG_IN_USE');
    expect(await code(app.updateObjstoreConfig.execute({ actor: w.admin, configId: created.id, prefix: 'x' }))).to.equal('ERR_OBJSTORE_CONFIG_IN_USE');
    expect(await code(app.deleteObjstoreConfig.execute({ actor: w.admin, configId: created.id }))).to.equal('ERR_OBJSTORE_CONFIG_IN_USE');
    // Its keys and name may change, and it may be deactivated.
    await app.updateObjstoreConfig.execute({ actor: w.admin, configId: created.id, name: 'Old bucket', accessKeyId: 'AKIANEW', active: false });
    await w.ports.blobLocations.forget(`public/company-${w.acme.id}/media/a.png`);
    await app.deleteObjstoreConfig.execute({ actor: w.admin, configId: created.id });
    expect(await w.ports.objstoreConfigs.list(w.acme.id)).to.deep.equal([]);
    expect(eventsOf(w).at(-1)).to.equal('objstoreConfig:delete');
  });

  it('tests a config without saving it, or a saved one with its stored secret and the fields given', async () => {
    expect(await app.testObjstoreConnection.execute({ actor: w.admin, ...FIELDS })).to.deep.equal({
      ok: true,
      latencyMs: 12,
      canWrite: true,
      canRead: true,
      canDelete: true,
    });
    expect(await w.ports.objstoreConfigs.list(w.acme.id)).to.deep.equal([]);
    const saved = await app.createObjstoreConfig.execute({ actor: w.admin, ...FIELDS });
    await app.testObjstoreConnection.execute({ actor: w.admin, configId: saved.id, bucket: 'other-bucket' });
    expect(w.ports.objstoreProbe.calls.at(-1)!.connection).to.deep.include({ bucket: 'other-bucket', secretAccessKey: SECRET });
    expect(await code(app.testObjstoreConnection.execute({ actor: w.admin, name: 'x', bucket: 'media', accessKeyId: 'AKIA' }))).to.equal(
      'ERR_OBJSTORE_SECRET_REQUIRED',
    );
    w.ports.objstoreProbe.failAt = { step: 'connect', error: 'ERR_URL_NOT_ALLOWED' };
    const failure = await app.testObjstoreConnection.execute({ actor: w.admin, configId: saved.id }).catch((e: unknown) => e);
    expect(failure).to.deep.include({ code: 'ERR_URL_NOT_ALLOWED', located: { step: 'connect' } });
  });

  it("is an admin's business, within their company (another company's config is not found)", async () => {
    const saved = await app.createObjstoreConfig.execute({ actor: w.admin, ...FIELDS });
    expect(await code(app.listObjstoreConfigs.execute({ actor: w.ana }))).to.equal('ERR_NO_PERMISSION');
    expect(await code(app.createObjstoreConfig.execute({ actor: w.ana, ...FIELDS }))).to.equal('ERR_NO_PERMISSION');
    expect(await code(app.showObjstoreConfig.execute({ actor: w.otherAdmin, configId: saved.id }))).to.equal('ERR_NO_OBJSTORE_CONFIG_FOUND');
    expect(await code(app.updateObjstoreConfig.execute({ actor: w.otherAdmin, configId: saved.id, name: 'Mine' }))).to.equal('ERR_NO_OBJSTORE_CONFIG_FOUND');
    expect(await code(app.deleteObjstoreConfig.execute({ actor: w.otherAdmin, configId: saved.id }))).to.equal('ERR_NO_OBJSTORE_CONFIG_FOUND');
    expect(await code(app.testObjstoreConnection.execute({ actor: w.otherAdmin, configId: saved.id }))).to.equal('ERR_NO_OBJSTORE_CONFIG_FOUND');
    expect(await app.listObjstoreConfigs.execute({ actor: w.otherAdmin })).to.deep.equal([]);
  });
});

describe('Objstore: the company of a blob key', () => {
  it('reads the company folder of every kind of key the features build, and nothing else', () => {
    expect(companyOfBlobKey('public/company-12/media/a.png')).to.equal(12);
    expect(companyOfBlobKey('private/company-3/contact-list-imports/x.json')).to.equal(3);
    expect(companyOfBlobKey('company-7/file-lists/1/x.pdf')).to.equal(7);
    expect(companyOfBlobKey('public/company5/user/avatar.png')).to.equal(5);
    expect(companyOfBlobKey('public/logo.png')).to.equal(null);
    expect(companyOfBlobKey('public/company-0/a.png')).to.equal(null);
    expect(companyOfBlobKey('public/company-12')).to.equal(null);
    expect(companyOfBlobKey('other/company-12/a.png')).to.equal(null);
    expect(companyOfBlobKey('public/company-99999999999/a.png')).to.equal(null);
  });
});
