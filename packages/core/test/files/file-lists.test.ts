import { expect } from 'chai';
import { createApplication, type Actor, type BufferedUpload } from '../../src/index.js';
import { createInMemoryPorts } from '../../src/testing.js';
import { sniffFileType } from '../../src/files/file-media.js';
import { MAX_FILE_OPTION_BYTES } from '../../src/files/file-media.js';
import { companyFixture, planFixture, userFixture } from '../contracts/repositories-contract.js';

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(24, 1)]);
const PDF = Buffer.from('%PDF-1.7\n1 0 obj\n<<>>\nendobj\n');
const upload = (filename: string, data: Buffer, contentType = 'application/octet-stream'): BufferedUpload => ({ filename, data, contentType });
const code = (p: Promise<unknown>) =>
  p.then(
    () => 'resolved',
    (e: { code?: string }) => e.code,
  );

async function world() {
  const ports = createInMemoryPorts();
  const app = createApplication(ports);
  const plan = await ports.plans.add(planFixture('Full'));
  const acme = await ports.companies.add(companyFixture(plan.id, 'Acme'));
  const other = await ports.companies.add(companyFixture(plan.id, 'Other'));
  const user = async (companyId: number, email: string, profile: 'admin' | 'user'): Promise<Actor> => {
    const u = await ports.users.add(userFixture(companyId, email, { profile }));
    return { userId: u.id, companyId, profile: u.profile };
  };
  return {
    ports,
    app,
    acme,
    admin: await user(acme.id, 'admin@acme.test', 'admin'),
    operator: await user(acme.id, 'op@acme.test', 'user'),
    otherAdmin: await user(other.id, 'admin@other.test', 'admin'),
  };
}

describe('File lists', () => {
  let w: Awaited<ReturnType<typeof world>>;
  beforeEach(async () => {
    w = await world();
  });
  const files = () => w.app.files;

  it('creates a list with its captions, pages, searches, shows, renames and deletes it; the events carry the view', async () => {
    const list = await files().createFileList.execute({
      actor: w.admin,
      name: '  Catálogo   2026 ',
      message: 'Segue o catálogo',
      options: [{ name: 'Preços' }, { name: 'Fotos' }],
    });
    expect(list).to.include({ name: 'Catálogo 2026', message: 'Segue o catálogo', companyId: w.acme.id });
    expect(list.options.map((o) => [o.name, o.position, o.path, o.fileId])).to.deep.equal([
      ['Preços', 0, null, list.id],
      ['Fotos', 1, null, list.id],
    ]);
    await files().createFileList.execute({ actor: w.admin, name: 'Apresentação' });
    const page = await files().listFileLists.execute({ actor: w.operator });
    expect(page.files.map((l) => l.name)).to.deep.equal(['Apresentação', 'Catálogo 2026']);
    expect(page).to.include({ count: 2, hasMore: false });
    expect((await files().listFileLists.execute({ actor: w.admin, searchParam: 'CATALOGO' })).files.map((l) => l.id)).to.deep.equal([list.id]);
    expect((await files().listAllFileLists.execute({ actor: w.operator, searchParam: 'apres' })).map((l) => l.name)).to.deep.equal(['Apresentação']);
    expect((await files().showFileList.execute({ actor: w.operator, fileListId: list.id })).options).to.have.length(2);
    const renamed = await files().updateFileList.execute({ actor: w.admin, fileListId: list.id, name: 'Catálogo' });
    expect(renamed).to.include({ name: 'Catálogo', message: 'Segue o catálogo' });
    expect(renamed.options).to.have.length(2);
    await files().deleteFileList.execute({ actor: w.admin, fileListId: list.id });
    expect(await code(files().showFileList.execute({ actor: w.admin, fileListId: list.id }))).to.equal('ERR_NO_FILE_LIST_FOUND');
    const events = w.ports.realtime.events.filter((e) => e.entity === 'file');
    expect(events.map((e) => e.data.action)).to.deep.equal(['create', 'create', 'update', 'delete']);
    expect(events.at(-1)!.data).to.deep.equal({ action: 'delete', fileId: list.id });
  });

  it('refuses a name another list of the company has (409), bad names and messages (422), too many options', async () => {
    await files().createFileList.execute({ actor: w.admin, name: 'Catálogo' });
    const b = await files().createFileList.execute({ actor: w.admin, name: 'Outro' });
    expect(await code(files().createFileList.execute({ actor: w.admin, name: 'Catálogo' }))).to.equal('ERR_FILE_LIST_NAME_IN_USE');
    expect(await code(files().updateFileList.execute({ actor: w.admin, fileListId: b.id, name: 'Catálogo' }))).to.equal('ERR_FILE_LIST_NAME_IN_USE');
    // Another company may use the name.
    expect(await code(files().createFileList.execute({ actor: w.otherAdmin, name: 'Catálogo' }))).to.equal('resolved');
    expect(await code(files().createFileList.execute({ actor: w.admin, name: '   ' }))).to.equal('ERR_INVALID_FILE_LIST_NAME');
    expect(await code(files().createFileList.execute({ actor: w.admin, name: 'x'.repeat(256) }))).to.equal('ERR_INVALID_FILE_LIST_NAME');
    expect(await code(files().createFileList.execute({ actor: w.admin, name: 'Longo', message: 'x'.repeat(4097) }))).to.equal('ERR_INVALID_FILE_LIST_MESSAGE');
    const many = Array.from({ length: 21 }, (_, i) => ({ name: `Arquivo ${i}` }));
    expect(await code(files().createFileList.execute({ actor: w.admin, name: 'Muitos', options: many }))).to.equal('ERR_TOO_MANY_FILE_OPTIONS');
    expect(await code(files().createFileList.execute({ actor: w.admin, name: 'Com id', options: [{ id: 1, name: 'a' }] }))).to.equal('ERR_INVALID_FILE_OPTION');
  });

  it("writes are for admins; another company's list and options are 404", async () => {
    const list = await files().createFileList.execute({ actor: w.admin, name: 'Catálogo', options: [{ name: 'Preços' }] });
    for (const attempt of [
      files().createFileList.execute({ actor: w.operator, name: 'x' }),
      files().updateFileList.execute({ actor: w.operator, fileListId: list.id, name: 'y' }),
      files().deleteFileList.execute({ actor: w.operator, fileListId: list.id }),
      files().deleteAllFileLists.execute({ actor: w.operator }),
      files().uploadFileListFiles.execute({ actor: w.operator, fileListId: list.id, uploads: [{ file: upload('a.png', PNG) }] }),
    ])
      expect(await code(attempt)).to.equal('ERR_NO_PERMISSION');
    for (const attempt of [
      files().showFileList.execute({ actor: w.otherAdmin, fileListId: list.id }),
      files().updateFileList.execute({ actor: w.otherAdmin, fileListId: list.id, name: 'y' }),
      files().deleteFileList.execute({ actor: w.otherAdmin, fileListId: list.id }),
      files().uploadFileListFiles.execute({ actor: w.otherAdmin, fileListId: list.id, uploads: [{ file: upload('a.png', PNG) }] }),
    ])
      expect(await code(attempt)).to.equal('ERR_NO_FILE_LIST_FOUND');
    expect((await files().listFileLists.execute({ actor: w.otherAdmin })).files).to.deep.equal([]);
    // An option of another list is not this list's.
    const mine = await files().createFileList.execute({ actor: w.admin, name: 'Outro', options: [{ name: 'x' }] });
    expect(
      await code(files().updateFileList.execute({ actor: w.admin, fileListId: mine.id, options: [{ id: list.options[0]!.id, name: 'roubado' }] })),
    ).to.equal('ERR_NO_FILE_OPTION_FOUND');
    expect(
      await code(
        files().uploadFileListFiles.execute({ actor: w.admin, fileListId: mine.id, uploads: [{ file: upload('a.png', PNG), optionId: list.options[0]!.id }] }),
      ),
    ).to.equal('ERR_NO_FILE_OPTION_FOUND');
  });

  it('uploads files to options by id and as new options, typed by their bytes; replacing or dropping an option deletes its file', async () => {
    const list = await files().createFileList.execute({ actor: w.admin, name: 'Catálogo', options: [{ name: 'Preços' }, { name: 'Foto' }] });
    const [prices, photo] = list.options;
    const after = await files().uploadFileListFiles.execute({
      actor: w.admin,
      fileListId: list.id,
      uploads: [
        { file: upload('tabela.pdf', PDF, 'image/png'), optionId: prices!.id },
        { file: upload('foto.png', PNG), optionId: photo!.id, name: 'Foto da loja' },
        { file: upload('extra.png', PNG), name: 'Extra' },
      ],
    });
    expect(after.options.map((o) => [o.name, o.path, o.mediaType, o.position])).to.deep.equal([
      ['Preços', 'tabela.pdf', 'application/pdf', 0],
      ['Foto da loja', 'foto.png', 'image/png', 1],
      ['Extra', 'extra.png', 'image/png', 2],
    ]);
    const keys = () => [...w.ports.blobs.blobs.keys()].sort();
    expect(keys()).to.have.length(3);
    expect(keys().every((k) => k.startsWith(`company-${w.acme.id}/file-lists/${list.id}/`))).to.equal(true);
    const stored = await w.ports.fileLists.options(w.acme.id, [list.id]);
    expect((await w.ports.blobs.get(stored[0]!.blobKey!))!.data.equals(PDF)).to.equal(true);

    // Replacing a file deletes the previous one.
    const before = stored[1]!.blobKey!;
    await files().uploadFileListFiles.execute({ actor: w.admin, fileListId: list.id, uploads: [{ file: upload('nova.png', PNG), optionId: photo!.id }] });
    expect(keys()).to.have.length(3);
    expect(keys()).to.not.include(before);

    // An update that leaves an option out removes it and its file; kept options move.
    const updated = await files().updateFileList.execute({
      actor: w.admin,
      fileListId: list.id,
      options: [{ id: after.options[2]!.id, name: 'Extra' }, { id: prices!.id, name: 'Preços' }, { name: 'Novo' }],
    });
    expect(updated.options.map((o) => [o.name, o.position, o.path])).to.deep.equal([
      ['Extra', 0, 'extra.png'],
      ['Preços', 1, 'tabela.pdf'],
      ['Novo', 2, null],
    ]);
    expect(keys()).to.have.length(2);

    // Deleting the list deletes its files.
    await files().deleteFileList.execute({ actor: w.admin, fileListId: list.id });
    expect(keys()).to.deep.equal([]);
  });

  it('refuses files whose bytes are not an accepted type, empty or too large files, one option twice; stores nothing then', async () => {
    const list = await files().createFileList.execute({ actor: w.admin, name: 'Catálogo', options: [{ name: 'Preços' }] });
    const id = list.options[0]!.id;
    const run = (uploads: Parameters<ReturnType<typeof files>['uploadFileListFiles']['execute']>[0]['uploads']) =>
      code(files().uploadFileListFiles.execute({ actor: w.admin, fileListId: list.id, uploads }));
    expect(await run([{ file: upload('virus.pdf', Buffer.from('<script>alert(1)</script>'), 'application/pdf') }])).to.equal('ERR_FILE_TYPE_NOT_ALLOWED');
    expect(await run([{ file: upload('logo.svg', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'), 'image/svg+xml') }])).to.equal(
      'ERR_FILE_TYPE_NOT_ALLOWED',
    );
    expect(await run([{ file: upload('a.png', PNG), optionId: id }, { file: upload('b.png', Buffer.from('MZ\x90\x00')) }])).to.equal(
      'ERR_FILE_TYPE_NOT_ALLOWED',
    );
    expect(await run([{ file: upload('vazio.pdf', Buffer.alloc(0)) }])).to.equal('ERR_NO_FILE');
    expect(await run([{ file: upload('grande.pdf', Buffer.concat([PDF, Buffer.alloc(MAX_FILE_OPTION_BYTES)])) }])).to.equal('ERR_FILE_TOO_LARGE');
    expect(
      await run([
        { file: upload('a.png', PNG), optionId: id },
        { file: upload('b.png', PNG), optionId: id },
      ]),
    ).to.equal('ERR_INVALID_FILE_OPTION');
    expect(w.ports.blobs.blobs.size).to.equal(0);
    // Nothing to store is the list as it is.
    expect(await files().uploadFileListFiles.execute({ actor: w.admin, fileListId: list.id, uploads: [] })).to.deep.equal(list);
    expect((await files().showFileList.execute({ actor: w.admin, fileListId: list.id })).options[0]!.path).to.equal(null);
  });

  it('recognises types by their bytes; the claimed type only names the document inside an Office container', () => {
    expect(sniffFileType(PNG, 'application/pdf')).to.equal('image/png');
    expect(sniffFileType(Buffer.from('ID3\x04\x00'), '')).to.equal('audio/mpeg');
    expect(sniffFileType(Buffer.from([0xff, 0xfb, 0x90, 0x00]), '')).to.equal('audio/mpeg');
    expect(sniffFileType(Buffer.from('OggS\x00\x02'), '')).to.equal('audio/ogg');
    expect(sniffFileType(Buffer.from('\x00\x00\x00\x20ftypisom', 'latin1'), '')).to.equal('video/mp4');
    expect(sniffFileType(Buffer.from('\x00\x00\x00\x20ftypM4A ', 'latin1'), '')).to.equal('audio/mp4');
    const docx = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
    expect(sniffFileType(Buffer.from('PK\x03\x04\x14\x00', 'latin1'), docx)).to.equal(docx);
    expect(sniffFileType(Buffer.from('PK\x03\x04\x14\x00', 'latin1'), 'text/html')).to.equal('application/zip');
    const ole = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0]);
    expect(sniffFileType(ole, 'application/msword')).to.equal('application/msword');
    expect(sniffFileType(ole, 'application/x-msdownload')).to.equal(null);
    expect(sniffFileType(Buffer.from('nome;numero\n'), 'text/csv')).to.equal(null);
  });

  it("DELETE /files removes every list of the caller's company only, with its files", async () => {
    const a = await files().createFileList.execute({ actor: w.admin, name: 'A', options: [{ name: 'x' }] });
    await files().uploadFileListFiles.execute({ actor: w.admin, fileListId: a.id, uploads: [{ file: upload('a.png', PNG), optionId: a.options[0]!.id }] });
    await files().createFileList.execute({ actor: w.admin, name: 'B' });
    const theirs = await files().createFileList.execute({ actor: w.otherAdmin, name: 'C' });
    expect(await files().deleteAllFileLists.execute({ actor: w.admin })).to.deep.equal({ deleted: 2 });
    expect((await files().listFileLists.execute({ actor: w.admin })).count).to.equal(0);
    expect((await files().showFileList.execute({ actor: w.otherAdmin, fileListId: theirs.id })).name).to.equal('C');
    expect(w.ports.blobs.blobs.size).to.equal(0);
    expect(w.ports.realtime.events.filter((e) => e.entity === 'file' && e.data.action === 'delete')).to.have.length(2);
  });
});
