import { expect } from 'chai';
import ExcelJS from 'exceljs';
import { openNamespace } from '../support/namespace-client.js';
import { eventually } from '../support/sandbox-conversations.js';
import { newCompanyWithAdmin, startTestBackend, type TestBackend } from '../support/test-backend.js';

/** What a bad row holds, by reason; spread over the file. */
const BAD_ROWS: Array<[string, string]> = [
  ['Sem Número,,', 'ERR_MISSING_NUMBER'],
  ['Letras,abc-def,', 'ERR_INVALID_NUMBER'],
  ['Curto,1234,', 'ERR_INVALID_NUMBER'],
  ['E-mail Ruim,5511912345678,nao-e-email', 'ERR_INVALID_EMAIL'],
  [`${'N'.repeat(250)},5511912345679,`, 'ERR_NAME_TOO_LONG'],
];

/** 10,000 data rows, 50 of them bad (every 200th, starting at the 8th); good rows carry formatted numbers and some e-mails. */
function contactsCsv(): { csv: string; bad: Array<{ row: number; reason: string }> } {
  const lines = ['Nome,Telefone,E-mail'];
  const bad: Array<{ row: number; reason: string }> = [];
  for (let i = 0; i < 10_000; i++) {
    if (i % 200 === 7) {
      const [line, reason] = BAD_ROWS[bad.length % BAD_ROWS.length]!;
      lines.push(line);
      bad.push({ row: i + 2, reason });
    } else {
      const n = String(10_000_000 + i);
      lines.push(`"Cliente ${i}, São Paulo",+55 (11) 9${n.slice(0, 4)}-${n.slice(4)},${i % 3 ? '' : `cliente${i}@mail.test`}`);
    }
  }
  return { csv: `${lines.join('\r\n')}\r\n`, bad };
}

function form(file: Buffer | string, filename: string, fields: Record<string, string> = {}) {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.append(k, v);
  f.append('file', new Blob([file]), filename);
  return f;
}

describe('HTTP: contact imports', () => {
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

  it('imports a CSV of 10,000 contacts with 50 bad rows in the background: 9,950 contacts, a report of the 50, progress on the namespace; a rerun creates nothing', async function () {
    this.timeout(180_000);
    const a = await newCompanyWithAdmin(b);
    const ns = await openNamespace(b.url, a.company.id, a.token);
    const { csv, bad } = contactsCsv();
    const startedAt = Date.now();
    const started = await a.api.post('/contacts/upload', form(csv, 'contatos.csv'));
    expect(started.status, JSON.stringify(started.body)).to.equal(202);
    expect(started.body).to.include({ status: 'running', total: 10_000, processed: 0, fileName: 'contatos.csv', source: 'file' });
    const importId = started.body.importId as string;
    const done = await ns.waitFor((f) => f.data.action === 'done' && f.data.importId === importId, 120_000);
    const seconds = (Date.now() - startedAt) / 1000;
    expect(seconds, `took ${seconds}s`).to.be.below(50);
    expect(done.event).to.equal(`company-${a.company.id}-contactImport`);
    expect(done.data).to.include({ status: 'done', total: 10_000, processed: 10_000, created: 9_950, merged: 0, failed: 50, errorsTruncated: false });
    expect(done.data.errors).to.deep.equal(bad);
    const progress = ns.of('contactImport').filter((f) => f.data.action === 'progress' && f.data.importId === importId);
    expect(progress.map((f) => f.data.processed)).to.deep.equal(Array.from({ length: 20 }, (_, i) => (i + 1) * 500));
    expect(progress.reduce((n, f) => n + f.data.errors.length, 0)).to.equal(50);
    const report = await a.api.post('/contactsImport', { importId });
    expect(report.status).to.equal(200);
    expect(report.body).to.deep.include({ status: 'done', created: 9_950, failed: 50 });
    expect(report.body.errors).to.deep.equal(bad);
    expect((await a.api.get('/contacts')).body.count).to.equal(9_950);
    const joana = (await a.api.get('/contacts?searchParam=cliente%2012,%20sao%20paulo')).body.contacts;
    expect(joana).to.have.length(1);
    expect(joana[0]).to.include({ name: 'Cliente 12, São Paulo', number: '5511910000012', email: 'cliente12@mail.test' });

    const again = await a.api.post('/contacts/upload', form(csv, 'contatos.csv'));
    const second = await ns.waitFor((f) => f.data.action === 'done' && f.data.importId === again.body.importId, 120_000);
    expect(second.data).to.include({ created: 0, merged: 9_950, failed: 50 });
    expect((await a.api.get('/contacts')).body.count).to.equal(9_950);
    ns.close();
  });

  it('imports an XLSX with Portuguese headers and numbers typed as numbers, merging the ninth-digit form of a known contact', async () => {
    const a = await newCompanyWithAdmin(b);
    const known = await a.api.post('/contacts', { name: '5511988887777', number: '5511988887777' });
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Contatos');
    sheet.addRow(['Nome do contato', 'Celular', 'Email']);
    sheet.addRow(['Ana', 551188887777, { text: 'ana@mail.test', hyperlink: 'mailto:ana@mail.test' }]);
    sheet.addRow(['Bruno', 5521977776666, null]);
    sheet.addRow([]);
    sheet.addRow([{ richText: [{ text: 'Car' }, { text: 'la' }] }, '+55 31 98765-4321', 'carla@mail.test']);
    sheet.addRow(['Sem número', null, 'x@mail.test']);
    const xlsx = Buffer.from(await workbook.xlsx.writeBuffer());
    const started = await a.api.post('/contactsImport', form(xlsx, 'contatos.xlsx'));
    expect(started.status, JSON.stringify(started.body)).to.equal(200);
    const report = await eventually('the import', async () => {
      const res = await a.api.post('/contactsImport', { importId: started.body.importId });
      return res.body.status === 'done' && res.body;
    });
    expect(report).to.deep.include({ total: 4, created: 2, merged: 1, failed: 1, errors: [{ row: 6, reason: 'ERR_MISSING_NUMBER' }] });
    expect((await a.api.get(`/contacts/${known.body.id}`)).body).to.include({ name: 'Ana', email: 'ana@mail.test', number: '5511988887777' });
    const list = (await a.api.get('/contacts/list')).body.map((c: { name: string; number: string }) => `${c.name}:${c.number}`);
    expect(list).to.deep.equal(['Ana:5511988887777', 'Bruno:5521977776666', 'Carla:5531987654321']);
  });

  it('follows an explicit column mapping, reads semicolon CSV in Latin-1, and imports JSON lists and single rows', async () => {
    const a = await newCompanyWithAdmin(b);
    const latin1 = Buffer.from('Quem;Fone;Obs\r\nJoão;(11) 97777-0001;cliente antigo\r\n', 'latin1');
    const mapped = await a.api.post('/contacts/upload', form(latin1, 'x.csv', { mapping: JSON.stringify({ name: 'quem', number: 2 }) }));
    expect(mapped.status, JSON.stringify(mapped.body)).to.equal(202);
    const list = await a.api.post('/contactsImport', {
      contacts: [
        { name: 'Lia', number: 5511977770002 },
        { name: 'Mau', number: '1' },
      ],
    });
    expect(list.status, JSON.stringify(list.body)).to.equal(200);
    expect(list.body).to.include({ source: 'list', total: 2 });
    const single = await a.api.post('/contactsImport', { name: 'Rui', number: '5511977770003', email: 'rui@mail.test' });
    expect(single.body).to.include({ total: 1 });
    await eventually('the three imports', async () => {
      const states = await Promise.all([mapped, list, single].map((r) => a.api.post('/contactsImport', { importId: r.body.importId })));
      return states.every((s) => s.body.status === 'done') && states;
    });
    expect((await a.api.post('/contactsImport', { importId: list.body.importId })).body.errors).to.deep.equal([{ row: 2, reason: 'ERR_INVALID_NUMBER' }]);
    const names = (await a.api.get('/contacts/list')).body.map((c: { name: string }) => c.name);
    expect(names).to.deep.equal(['João', 'Lia', 'Rui']);
  });

  it('refuses files and requests it cannot import with a 4xx error, and keeps reports to their company', async () => {
    const a = await newCompanyWithAdmin(b);
    const o = await newCompanyWithAdmin(b);
    const expectError = (res: { status: number; body: { error?: string } }, status: number, error: string) => {
      expect(res.status, JSON.stringify(res.body)).to.equal(status);
      expect(res.body.error).to.equal(error);
    };
    expectError(await a.api.post('/contacts/upload', form('Nome,Email\r\nAna,a@x.test\r\n', 'x.csv')), 422, 'ERR_IMPORT_NO_NUMBER_COLUMN');
    expectError(await a.api.post('/contacts/upload', form('Nome,Telefone\r\n', 'x.csv')), 422, 'ERR_IMPORT_EMPTY');
    expectError(await a.api.post('/contacts/upload', form('', 'x.csv')), 422, 'ERR_EMPTY_FILE'); // the multipart reader refuses any empty file
    expectError(
      await a.api.post('/contacts/upload', form(Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), 'old.xls')),
      422,
      'ERR_IMPORT_UNSUPPORTED_FILE',
    );
    expectError(await a.api.post('/contacts/upload', form(Buffer.from([0x50, 0x4b, 0x03, 0x04, 1, 2, 3]), 'broken.xlsx')), 422, 'ERR_IMPORT_INVALID_FILE');
    expectError(await a.api.post('/contacts/upload', form('Nome,Telefone\r\nAna,1\r\n', 'x.csv', { mapping: '{not json' })), 422, 'ERR_VALIDATION');
    expectError(
      await a.api.post('/contacts/upload', form('Nome,Telefone\r\nAna,1\r\n', 'x.csv', { mapping: '{"number":"Fone"}' })),
      422,
      'ERR_IMPORT_UNKNOWN_COLUMN',
    );
    const noFile = new FormData();
    noFile.append('mapping', '{}');
    expectError(await a.api.post('/contacts/upload', noFile), 422, 'ERR_IMPORT_NO_FILE');
    expectError(await a.api.post('/contacts/upload', { file: 'x' }), 415, 'ERR_UNSUPPORTED_CONTENT_TYPE');
    expectError(await a.api.post('/contactsImport', {}), 422, 'ERR_IMPORT_EMPTY');
    expectError(await a.api.post('/contactsImport', { contacts: 'x' }), 422, 'ERR_VALIDATION');
    expectError(await a.api.post('/contactsImport', { importId: 'nope' }), 404, 'ERR_IMPORT_NOT_FOUND');
    const started = await a.api.post('/contactsImport', { contacts: [{ number: '5511977770009' }] });
    expectError(await o.api.post('/contactsImport', { importId: started.body.importId }), 404, 'ERR_IMPORT_NOT_FOUND');
    expectError(await a.api.post('/contacts/import', { chatappId: 'x' }), 422, 'ERR_VALIDATION');
    await eventually('the import to end', async () => (await a.api.post('/contactsImport', { importId: started.body.importId })).body.status === 'done');
  });
});
