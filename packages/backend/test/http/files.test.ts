import { expect } from 'chai';
import { openNamespace } from '../support/namespace-client.js';
import { eventually } from '../support/eventually.js';
import { client, login, newCompanyWithAdmin, startTestBackend, type Reply, type TestBackend } from '../support/test-backend.js';

const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201e2a4d1a60000000049454e44ae426082',
  'hex',
);
const PDF = Buffer.from('%PDF-1.7\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n');

const expectError = (res: Reply, status: number, error: string) => {
  expect(res.status, JSON.stringify(res.body)).to.equal(status);
  expect(res.body).to.deep.equal({ error });
};

/** The form FileModal posts: per picked file, `files`, `mediaType`, `name` and `id` (the option's), plus `fileId` and `typeArch`. */
function uploadForm(
  fileId: number | string,
  entries: Array<{ content: Buffer | string; filename: string; type: string; name?: string; id?: number | string }>,
) {
  const form = new FormData();
  form.append('fileId', String(fileId));
  form.append('typeArch', 'fileList');
  for (const e of entries) {
    form.append('files', new Blob([e.content], { type: e.type }), e.filename);
    form.append('mediaType', e.type);
    if (e.name !== undefined) form.append('name', e.name);
    if (e.id !== undefined) form.append('id', String(e.id));
  }
  return form;
}

describe('HTTP: file lists', () => {
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
    const email = `op-${a.company.id}@files.test`;
    const res = await a.api.post('/users', { name: 'Op', email, password: 'operator-pass-1', profile: 'user' });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    return client(b.url, (await login(b.url, email, 'operator-pass-1')).token);
  }

  it('creates, uploads, edits, lists and deletes a list as the Files page and FileModal do, with its events', async () => {
    const a = await newCompanyWithAdmin(b);
    const ns = await openNamespace(b.url, a.company.id, a.token);
    // FileModal posts its form values: the picked file (serialised as `{}`), empty path and type, and the user id.
    const created = await a.api.post('/files', {
      name: 'Catálogo',
      message: 'Segue o catálogo',
      userId: a.admin.id,
      options: [
        { name: 'Preços', path: '', mediaType: '', file: {} },
        { name: 'Foto', path: '', mediaType: '', file: {} },
      ],
    });
    expect(created.status, JSON.stringify(created.body)).to.equal(200);
    expect(created.body).to.include({ name: 'Catálogo', message: 'Segue o catálogo', companyId: a.company.id });
    const [prices, photo] = created.body.options;
    expect([prices.name, prices.fileId, prices.path, photo.name, photo.position]).to.deep.equal(['Preços', created.body.id, null, 'Foto', 1]);
    const listId = created.body.id as number;
    await ns.waitFor((f) => f.event === `company-${a.company.id}-file` && f.data.action === 'create' && f.data.files.id === listId);

    // Then the files, each bound to its option by id; the claimed type is ignored, the bytes decide.
    const uploaded = await a.api.post(
      `/files/uploadList/${listId}`,
      uploadForm(listId, [
        { content: PDF, filename: 'tabela de preços.pdf', type: 'image/png', name: 'Preços', id: prices.id },
        { content: PNG, filename: 'foto.png', type: 'image/png', name: 'Foto', id: photo.id },
      ]),
    );
    expect(uploaded.status, JSON.stringify(uploaded.body)).to.equal(200);
    expect(uploaded.body.options.map((o: any) => [o.id, o.path, o.mediaType, o.size])).to.deep.equal([
      [prices.id, 'tabela de preços.pdf', 'application/pdf', PDF.length],
      [photo.id, 'foto.png', 'image/png', PNG.length],
    ]);
    const pushed = await ns.waitFor((f) => f.event === `company-${a.company.id}-file` && f.data.action === 'update' && f.data.files.options[0]?.path !== null);
    expect(pushed.data.files).to.deep.equal(uploaded.body);
    const stored = await b.infra.blobs.usage(`company-${a.company.id}/file-lists/${listId}/`);
    expect(stored).to.equal(PDF.length + PNG.length);

    const shown = await a.api.get(`/files/${listId}`);
    expect(shown.body).to.deep.equal(uploaded.body);
    // The modal sends the list back with one option removed and one added.
    const edited = await a.api.put(`/files/${listId}`, {
      ...shown.body,
      name: 'Catálogo 2026',
      userId: a.admin.id,
      options: [shown.body.options[1], { name: 'Novo', path: '', mediaType: '' }],
    });
    expect(edited.status, JSON.stringify(edited.body)).to.equal(200);
    expect(edited.body.options.map((o: any) => [o.name, o.position, o.path])).to.deep.equal([
      ['Foto', 0, 'foto.png'],
      ['Novo', 1, null],
    ]);
    // Removed files are deleted after the commit: the answer may come first.
    await eventually('the dropped file deleted', async () => (await b.infra.blobs.usage(`company-${a.company.id}/file-lists/${listId}/`)) === PNG.length);

    expect((await a.api.get('/files/?searchParam=catalogo&pageNumber=1')).body).to.deep.equal({ files: [edited.body], count: 1, hasMore: false });
    expect((await a.api.get(`/files/?companyId=${a.company.id}`)).body.files).to.have.length(1);
    expect((await a.api.get('/files/list?searchParam=2026')).body).to.deep.equal([edited.body]);

    expect((await a.api.delete(`/files/${listId}`)).body).to.deep.equal({ message: 'File List deleted' });
    const gone = await ns.waitFor((f) => f.event === `company-${a.company.id}-file` && f.data.action === 'delete');
    expect(gone.data).to.deep.equal({ action: 'delete', fileId: listId });
    expectError(await a.api.get(`/files/${listId}`), 404, 'ERR_NO_FILE_LIST_FOUND');
    await eventually("the list's files deleted", async () => (await b.infra.blobs.usage(`company-${a.company.id}/file-lists/`)) === 0);
    ns.close();
  });

  it("lets operators read but not write; another company's list is 404 everywhere; DELETE /files empties only the caller's company", async () => {
    const a = await newCompanyWithAdmin(b);
    const beta = await newCompanyWithAdmin(b);
    const op = await operatorOf(a);
    const list = (await a.api.post('/files', { name: 'Catálogo', message: '', options: [{ name: 'x' }] })).body;
    expect((await op.get('/files')).body.count).to.equal(1);
    expect((await op.get(`/files/${list.id}`)).body.id).to.equal(list.id);
    expectError(await op.post('/files', { name: 'Outro', message: '' }), 403, 'ERR_NO_PERMISSION');
    expectError(await op.put(`/files/${list.id}`, { name: 'Outro' }), 403, 'ERR_NO_PERMISSION');
    expectError(await op.delete(`/files/${list.id}`), 403, 'ERR_NO_PERMISSION');
    expectError(await op.delete('/files'), 403, 'ERR_NO_PERMISSION');
    expectError(
      await op.post(`/files/uploadList/${list.id}`, uploadForm(list.id, [{ content: PNG, filename: 'a.png', type: 'image/png', id: list.options[0].id }])),
      403,
      'ERR_NO_PERMISSION',
    );

    expectError(await beta.api.get(`/files/${list.id}`), 404, 'ERR_NO_FILE_LIST_FOUND');
    expectError(await beta.api.put(`/files/${list.id}`, { name: 'Roubado' }), 404, 'ERR_NO_FILE_LIST_FOUND');
    expectError(await beta.api.delete(`/files/${list.id}`), 404, 'ERR_NO_FILE_LIST_FOUND');
    expectError(
      await beta.api.post(`/files/uploadList/${list.id}`, uploadForm(list.id, [{ content: PNG, filename: 'a.png', type: 'image/png' }])),
      404,
      'ERR_NO_FILE_LIST_FOUND',
    );
    expect((await beta.api.get('/files')).body).to.deep.equal({ files: [], count: 0, hasMore: false });
    // An option of another company's list is not an option of mine.
    const mine = (await beta.api.post('/files', { name: 'Meu', message: '' })).body;
    expectError(
      await beta.api.post(
        `/files/uploadList/${mine.id}`,
        uploadForm(mine.id, [{ content: PNG, filename: 'a.png', type: 'image/png', id: list.options[0].id }]),
      ),
      404,
      'ERR_NO_FILE_OPTION_FOUND',
    );
    expectError(await beta.api.put(`/files/${mine.id}`, { options: [{ id: list.options[0].id, name: 'x' }] }), 404, 'ERR_NO_FILE_OPTION_FOUND');

    await a.api.post('/files', { name: 'Segundo', message: '' });
    expect((await a.api.delete('/files')).body).to.deep.equal({ deleted: 2 });
    expect((await a.api.get('/files')).body.count).to.equal(0);
    expect((await beta.api.get('/files')).body.count).to.equal(1);
  });

  it('answers bad input with a 4xx code: names, duplicates, types by their bytes, sizes, misaligned forms', async () => {
    const a = await newCompanyWithAdmin(b);
    const list = (await a.api.post('/files', { name: 'Catálogo', message: '', options: [{ name: 'x' }] })).body;
    const optionId = list.options[0].id;
    expectError(await a.api.post('/files', { name: 'Catálogo', message: '' }), 409, 'ERR_FILE_LIST_NAME_IN_USE');
    expectError(await a.api.post('/files', { name: '  ', message: '' }), 422, 'ERR_INVALID_FILE_LIST_NAME');
    expect((await a.api.post('/files', { message: '' })).body.error).to.equal('ERR_VALIDATION');
    expect((await a.api.post('/files', { name: 'X', options: 'nope' })).body.error).to.equal('ERR_VALIDATION');
    expectError(await a.api.post('/files', { name: 'Muitos', options: Array.from({ length: 21 }, () => ({ name: 'a' })) }), 422, 'ERR_TOO_MANY_FILE_OPTIONS');
    expect((await a.api.get('/files/abc')).body.error).to.equal('ERR_VALIDATION');
    expect((await a.api.get('/files/99999999999')).body.error).to.equal('ERR_VALIDATION');
    const up = (entries: Parameters<typeof uploadForm>[1], fileId: number | string = list.id) =>
      a.api.post(`/files/uploadList/${list.id}`, uploadForm(fileId, entries));
    expectError(
      await up([{ content: '<script>alert(1)</script>', filename: 'x.pdf', type: 'application/pdf', id: optionId }]),
      422,
      'ERR_FILE_TYPE_NOT_ALLOWED',
    );
    expectError(
      await up([{ content: '<svg xmlns="http://www.w3.org/2000/svg"/>', filename: 'x.svg', type: 'image/svg+xml' }]),
      422,
      'ERR_FILE_TYPE_NOT_ALLOWED',
    );
    expectError(await up([{ content: PNG, filename: 'a.png', type: 'image/png', id: optionId }], list.id + 1), 422, 'ERR_INVALID_FILE_OPTION');
    expectError(await up([{ content: PNG, filename: 'a.png', type: 'image/png', id: 'abc' }]), 422, 'ERR_INVALID_FILE_OPTION');
    expectError(
      await up([
        { content: PNG, filename: 'a.png', type: 'image/png', id: optionId },
        { content: PNG, filename: 'b.png', type: 'image/png', id: optionId },
      ]),
      422,
      'ERR_INVALID_FILE_OPTION',
    );
    const misaligned = uploadForm(list.id, [
      { content: PNG, filename: 'a.png', type: 'image/png', id: optionId },
      { content: PNG, filename: 'b.png', type: 'image/png' },
    ]);
    expectError(await a.api.post(`/files/uploadList/${list.id}`, misaligned), 422, 'ERR_INVALID_FILE_OPTION');
    // No file picked (the lineage's dialog posts the form after every save): the list as it is.
    const none = await a.api.post(`/files/uploadList/${list.id}`, uploadForm(list.id, []));
    expect([none.status, none.body]).to.deep.equal([200, (await a.api.get(`/files/${list.id}`)).body]);
    expectError(await up([{ content: '', filename: 'vazio.pdf', type: 'application/pdf', id: optionId }]), 422, 'ERR_EMPTY_FILE');
    const tooBig = Buffer.concat([PDF, Buffer.alloc(16 * 1024 * 1024)]);
    expectError(await up([{ content: tooBig, filename: 'big.pdf', type: 'application/pdf', id: optionId }]), 413, 'ERR_FILE_TOO_LARGE');
    const other = new FormData();
    other.append('avatar', new Blob([PNG], { type: 'image/png' }), 'a.png');
    expectError(await a.api.post(`/files/uploadList/${list.id}`, other), 422, 'ERR_UNEXPECTED_FILE_FIELD');
    expect(await b.infra.blobs.usage(`company-${a.company.id}/`)).to.equal(0);
    // A file without an id becomes a new option, captioned by its name.
    const added = await up([{ content: PNG, filename: 'extra.png', type: 'image/png', name: 'Extra' }]);
    expect(added.status, JSON.stringify(added.body)).to.equal(200);
    expect(added.body.options.map((o: any) => [o.name, o.path])).to.deep.equal([
      ['x', null],
      ['Extra', 'extra.png'],
    ]);
  });
});
