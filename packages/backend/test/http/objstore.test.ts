import { startS3Server, S3_TEST_CREDENTIALS, type TestS3Server } from '@servicedesk/adapters-persistence/testing/s3';
import { expect } from 'chai';
import { openNamespace } from '../support/namespace-client.js';
import { sandboxDesk } from '../support/sandbox-conversations.js';
import { client, login, newCompanyWithAdmin, startTestBackend, type Reply, type TestBackend } from '../support/test-backend.js';

const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201e2a4d1a60000000049454e44ae426082',
  'hex',
);
const PDF = Buffer.from('%PDF-1.7\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n');
/** The secret the s3rver's proxy wants: distinct from the access key id, so an answer holding it would show. */
const SECRET = 'objstore-test-secret-5e3c1a9d';

const expectError = (res: Reply, status: number, body: Record<string, unknown>) => {
  expect(res.status, JSON.stringify(res.body)).to.equal(status);
  expect(res.body).to.deep.equal(body);
};

function uploadForm(fileListId: number, content: Buffer, filename: string, type: string) {
  const form = new FormData();
  form.append('fileId', String(fileListId));
  form.append('files', new Blob([content], { type }), filename);
  form.append('mediaType', type);
  return form;
}

describe("HTTP: object-store configs and uploads routed to a company's bucket", function () {
  this.timeout(60_000);
  let b: TestBackend;
  let s3: TestS3Server;
  /** Every answer of the test, to check the secret is in none of them. */
  const answers: unknown[] = [];
  const seen = <T extends Reply>(res: T) => {
    answers.push(res.body);
    return res;
  };

  before(async () => {
    s3 = await startS3Server(['media'], SECRET);
    b = await startTestBackend({ ALLOW_PRIVATE_URLS: 'true', OUTBOX_RELAY_INTERVAL_MS: '100' });
  });
  after(async () => {
    await b.close();
    await s3.close();
  });
  beforeEach(async () => {
    await b.reset();
  });

  const config = (overrides: Record<string, unknown> = {}) => ({
    name: 'MinIO da loja',
    provider: 'minio',
    endpoint: s3.endpoint,
    bucket: 'media',
    prefix: 'loja',
    accessKeyId: S3_TEST_CREDENTIALS.accessKeyId,
    secretAccessKey: SECRET,
    ...overrides,
  });

  it("tests, saves and activates a bucket; the company's uploads land in it and are served; another company's stay on the default store", async () => {
    const d = await sandboxDesk(b);
    const companyId = 1;
    const ns = await openNamespace(b.url, companyId, (await login(b.url, 'root@example.com', 'root-password-1')).token);

    const tested = seen(await d.admin.post('/objstore-configs/test-connection', config()));
    expect(tested.status, JSON.stringify(tested.body)).to.equal(200);
    expect(tested.body).to.deep.include({ ok: true, canWrite: true, canRead: true, canDelete: true });
    expect(await s3.objectKeys('media', 'loja/.healthcheck')).to.deep.equal([]);

    const created = seen(await d.admin.post('/objstore-configs', config({ active: true })));
    expect(created.status, JSON.stringify(created.body)).to.equal(200);
    expect(created.body).to.deep.include({
      companyId,
      name: 'MinIO da loja',
      provider: 'minio',
      endpoint: s3.endpoint,
      region: 'us-east-1',
      bucket: 'media',
      prefix: 'loja',
      forcePathStyle: true,
      publicBaseUrl: null,
      accessKeyId: 'S3RVER',
      hasSecret: true,
      secretLast4: '1a9d',
      active: true,
    });
    const frame = await ns.waitFor((f) => f.event === `company-${companyId}-objstoreConfig` && f.data.action === 'create');
    expect(frame.data.config).to.deep.equal(created.body);

    // A ticket message with a photo: stored in the bucket, served by the backend from there.
    const t = await d.inbound('5511966660001', 'Manda a foto?');
    const form = new FormData();
    form.append('body', 'a foto');
    form.append('medias', new Blob([PNG], { type: 'image/png' }), 'foto.png');
    const sent = seen(await d.ana.api.post(`/messages/${t.id}`, form));
    expect(sent.status, JSON.stringify(sent.body)).to.equal(200);
    const mediaUrl = new URL(sent.body.messages[0].mediaUrl as string);
    const key = decodeURIComponent(mediaUrl.pathname.slice(1));
    expect(key).to.match(/^public\/company-1\/media\/[\w-]+-foto\.png$/);
    expect(await s3.objectKeys('media', 'loja/')).to.deep.equal([`loja/${key}`]);
    const served = await fetch(`${b.url}${mediaUrl.pathname}`);
    expect(served.status).to.equal(200);
    expect(served.headers.get('content-type')).to.equal('image/png');
    expect(Buffer.from(await served.arrayBuffer()).equals(PNG)).to.equal(true);

    // A file list of the company: private, in the bucket too.
    const list = await d.admin.post('/files', { name: 'Catálogo', message: '', options: [] });
    expect(list.status, JSON.stringify(list.body)).to.equal(200);
    expect((await d.admin.post(`/files/uploadList/${list.body.id}`, uploadForm(list.body.id, PDF, 'precos.pdf', 'application/pdf'))).status).to.equal(200);
    expect(await s3.objectKeys('media', `loja/company-1/file-lists/${list.body.id}/`)).to.have.length(1);

    // Another company, without a config: its upload goes to the default store.
    const other = await newCompanyWithAdmin(b);
    const theirs = await other.api.post('/files', { name: 'Deles', message: '', options: [] });
    const upload = await other.api.post(`/files/uploadList/${theirs.body.id}`, uploadForm(theirs.body.id, PDF, 'deles.pdf', 'application/pdf'));
    expect(upload.status, JSON.stringify(upload.body)).to.equal(200);
    expect(await s3.objectKeys('media', `loja/company-${other.company.id}/`)).to.deep.equal([]);
    expect((await s3.objectKeys('media')).filter((k) => k.includes(`company-${other.company.id}/`))).to.deep.equal([]);
    expect(await b.infra.blobs.usage(`company-${other.company.id}/file-lists/`)).to.equal(PDF.length);

    // Deactivated, the company's new uploads go to the default store; the photo is still served from the bucket.
    const off = seen(await d.admin.put(`/objstore-configs/${created.body.id}`, { active: false }));
    expect(off.body.active).to.equal(false);
    const later = new FormData();
    later.append('medias', new Blob([PNG], { type: 'image/png' }), 'depois.png');
    const local = seen(await d.ana.api.post(`/messages/${t.id}`, later));
    expect(local.status, JSON.stringify(local.body)).to.equal(200);
    expect(await s3.objectKeys('media', 'loja/public/')).to.deep.equal([`loja/${key}`]);
    expect((await fetch(`${b.url}${new URL(local.body.messages[0].mediaUrl).pathname}`)).status).to.equal(200);
    expect((await fetch(`${b.url}${mediaUrl.pathname}`)).status).to.equal(200);

    // With a CDN in front of the bucket, its public files are sent there.
    const cdn = seen(await d.admin.put(`/objstore-configs/${created.body.id}`, { publicBaseUrl: 'https://cdn.loja.test/media' }));
    expect(cdn.status, JSON.stringify(cdn.body)).to.equal(200);
    const redirected = await fetch(`${b.url}${mediaUrl.pathname}`, { redirect: 'manual' });
    expect(redirected.status).to.equal(302);
    expect(redirected.headers.get('location')).to.equal(`https://cdn.loja.test/media/loja${mediaUrl.pathname}`);

    // Files are stored through it: it stays where it is, and cannot be removed.
    expectError(await d.admin.put(`/objstore-configs/${created.body.id}`, { bucket: 'elsewhere' }), 409, { error: 'ERR_OBJSTORE_CONFIG_IN_USE' });
    expectError(await d.admin.delete(`/objstore-configs/${created.body.id}`), 409, { error: 'ERR_OBJSTORE_CONFIG_IN_USE' });

    seen(await d.admin.get('/objstore-configs'));
    seen(await d.admin.get(`/objstore-configs/${created.body.id}`));
    for (const answer of answers) expect(JSON.stringify(answer)).to.not.include(SECRET);
  });

  it('answers 422 with the step when the bucket refuses the keys, and saves nothing active that fails its test', async () => {
    const a = await newCompanyWithAdmin(b);
    expectError(await a.api.post('/objstore-configs/test-connection', config({ secretAccessKey: 'wrong-secret-000000' })), 422, {
      error: 'ERR_OBJSTORE_ACCESS_DENIED',
      step: 'write',
    });
    expectError(await a.api.post('/objstore-configs/test-connection', config({ bucket: 'no-such-bucket' })), 422, {
      error: 'ERR_OBJSTORE_BUCKET_NOT_FOUND',
      step: 'write',
    });
    expectError(await a.api.post('/objstore-configs', config({ secretAccessKey: 'wrong-secret-000000', active: true })), 422, {
      error: 'ERR_OBJSTORE_ACCESS_DENIED',
      step: 'write',
    });
    expect((await a.api.get('/objstore-configs')).body).to.deep.equal([]);
    // Saved inactive, it is not tested; activating it is.
    const saved = await a.api.post('/objstore-configs', config({ secretAccessKey: 'wrong-secret-000000' }));
    expect(saved.body.active).to.equal(false);
    expectError(await a.api.put(`/objstore-configs/${saved.body.id}`, { active: true }), 422, { error: 'ERR_OBJSTORE_ACCESS_DENIED', step: 'write' });
    // A saved config tested with a corrected secret, then saved with it.
    expect((await a.api.post('/objstore-configs/test-connection', { id: saved.body.id, secretAccessKey: SECRET })).status).to.equal(200);
    const fixed = await a.api.put(`/objstore-configs/${saved.body.id}`, { secretAccessKey: SECRET, active: true });
    expect(fixed.status, JSON.stringify(fixed.body)).to.equal(200);
    expect(fixed.body).to.deep.include({ active: true, secretLast4: '1a9d' });
    // Every probe was deleted again.
    expect(await s3.objectKeys('media', 'loja/.healthcheck')).to.deep.equal([]);
  });

  it('keeps each company to its own configs (404), admins only, and refuses bad input with a 4xx', async () => {
    const a = await newCompanyWithAdmin(b);
    const other = await newCompanyWithAdmin(b);
    const created = await a.api.post('/objstore-configs', config());
    expect(created.status, JSON.stringify(created.body)).to.equal(200);
    const id = created.body.id as number;
    expectError(await other.api.get(`/objstore-configs/${id}`), 404, { error: 'ERR_NO_OBJSTORE_CONFIG_FOUND' });
    expectError(await other.api.put(`/objstore-configs/${id}`, { name: 'Meu' }), 404, { error: 'ERR_NO_OBJSTORE_CONFIG_FOUND' });
    expectError(await other.api.delete(`/objstore-configs/${id}`), 404, { error: 'ERR_NO_OBJSTORE_CONFIG_FOUND' });
    expectError(await other.api.post('/objstore-configs/test-connection', { id }), 404, { error: 'ERR_NO_OBJSTORE_CONFIG_FOUND' });
    expect((await other.api.get('/objstore-configs')).body).to.deep.equal([]);

    const email = `op-${a.company.id}@objstore.test`;
    expect((await a.api.post('/users', { name: 'Op', email, password: 'operator-pass-1', profile: 'user' })).status).to.equal(201);
    const operator = client(b.url, (await login(b.url, email, 'operator-pass-1')).token);
    expectError(await operator.get('/objstore-configs'), 403, { error: 'ERR_NO_PERMISSION' });
    expectError(await operator.post('/objstore-configs/test-connection', config()), 403, { error: 'ERR_NO_PERMISSION' });

    expectError(await a.api.post('/objstore-configs', config({ bucket: 'x' })), 422, { error: 'ERR_OBJSTORE_INVALID_BUCKET' });
    expectError(await a.api.post('/objstore-configs', config({ endpoint: 'ftp://files.example.com' })), 422, { error: 'ERR_OBJSTORE_INVALID_ENDPOINT' });
    expectError(await a.api.post('/objstore-configs', config({ prefix: '../escape' })), 422, { error: 'ERR_OBJSTORE_INVALID_PREFIX' });
    expectError(await a.api.post('/objstore-configs', config({ secretAccessKey: undefined })), 422, { error: 'ERR_OBJSTORE_SECRET_REQUIRED' });
    for (const bad of [config({ provider: 'ftp' }), config({ name: undefined }), config({ active: 'yes' }), config({ bucket: 42 })]) {
      const res = await a.api.post('/objstore-configs', bad);
      expect(res.status, JSON.stringify(res.body)).to.equal(422);
      expect(res.body.error).to.equal('ERR_VALIDATION');
    }
    expect((await a.api.get('/objstore-configs/abc')).status).to.equal(422);
    expectError(await a.api.get('/objstore-configs/999999'), 404, { error: 'ERR_NO_OBJSTORE_CONFIG_FOUND' });
    const deleted = await a.api.delete(`/objstore-configs/${id}`);
    expect(deleted.body).to.deep.equal({ message: 'Object storage config deleted' });
    expect((await a.api.get('/objstore-configs')).body).to.deep.equal([]);
  });
});

describe('HTTP: object stores on private addresses, where the deployment does not allow them', function () {
  this.timeout(60_000);
  let b: TestBackend;
  before(async () => {
    b = await startTestBackend();
  });
  after(async () => {
    await b.close();
  });

  it('refuses plain http endpoints, and https ones on a loopback or private address at the connect step', async () => {
    const a = await newCompanyWithAdmin(b);
    const fields = { name: 'Local', provider: 'other', bucket: 'media', accessKeyId: 'S3RVER', secretAccessKey: SECRET };
    expectError(await a.api.post('/objstore-configs/test-connection', { ...fields, endpoint: 'http://127.0.0.1:9000' }), 422, {
      error: 'ERR_OBJSTORE_INVALID_ENDPOINT',
    });
    expectError(await a.api.post('/objstore-configs/test-connection', { ...fields, endpoint: 'https://127.0.0.1:9000' }), 422, {
      error: 'ERR_URL_NOT_ALLOWED',
      step: 'connect',
    });
    expectError(await a.api.post('/objstore-configs', { ...fields, endpoint: 'https://10.0.0.8', active: true }), 422, {
      error: 'ERR_URL_NOT_ALLOWED',
      step: 'connect',
    });
  });
});
