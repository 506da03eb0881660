import { expect } from 'chai';
import type { ContactTable } from '../../src/index.js';
import {
  IMPORT_BATCH_ROWS,
  IMPORT_BATCHES_PER_RUN,
  IMPORT_JOB,
  IMPORT_MAX_ATTEMPTS,
  type ImportJobPayload,
} from '../../src/contact-lists/import-contact-list.js';
import { listRowsOfTable, type ListRowInput } from '../../src/contact-lists/import-rows.js';
import { code, contactListWorld, type ContactListWorld } from './contact-list-world.js';

const table = (headers: string[], rows: string[][]): ContactTable => ({ headers, rows: rows.map((cells, i) => ({ row: i + 2, cells })) });

describe('Contact lists: spreadsheet imports', () => {
  let w: ContactListWorld;
  let listId: number;
  beforeEach(async () => {
    w = await contactListWorld();
    listId = (await w.app.contactLists.createContactList.execute({ actor: w.admin, name: 'Clientes' })).id;
  });
  const start = (rows: ListRowInput[], fileName = 'clientes.xlsx') =>
    w.app.contactLists.startContactListImport.execute({ actor: w.admin, contactListId: listId, rows, fileName });

  it('reads name, number and e-mail by their headers and keeps every other named column as a variable', () => {
    const rows = listRowsOfTable(
      table(
        ['Nome', 'Número', 'E-mail', ' Cidade ', '', 'Plano', 'cidade'],
        [
          ['Ana', '5511988887777', 'ana@mail.test', 'Santos', 'ignored', 'Ouro', 'repeated'],
          ['', '', '', '', '', '', ''],
          ['Bia', '551177776666', '', ' Campinas ', '', '', ''],
        ],
      ),
    );
    expect(rows).to.deep.equal([
      { row: 2, name: 'Ana', number: '5511988887777', email: 'ana@mail.test', variables: { cidade: 'Santos', plano: 'Ouro' } },
      { row: 4, name: 'Bia', number: '551177776666', email: '', variables: { cidade: 'Campinas', plano: '' } },
    ]);
    expect(listRowsOfTable(table(['phone'], [['5511988887777']]))[0]).to.deep.equal({
      row: 2,
      name: undefined,
      number: '5511988887777',
      email: undefined,
      variables: {},
    });
    expect(() => listRowsOfTable(table(['Nome', 'Cidade'], [['Ana', 'Santos']])))
      .to.throw()
      .with.property('code', 'ERR_IMPORT_NO_NUMBER_COLUMN');
    const wide = ['numero', ...Array.from({ length: 51 }, (_, i) => `col ${i}`)];
    expect(() => listRowsOfTable(table(wide, [[]])))
      .to.throw()
      .with.property('code', 'ERR_INVALID_CONTACT_LIST_VARIABLES');
  });

  it('answers at once with a pending import; its job writes the rows, merging duplicates and reporting bad rows', async () => {
    const known = await w.app.contactLists.createContactListItem.execute({
      actor: w.admin,
      contactListId: listId,
      number: '5511988887777',
      variables: { plano: 'prata' },
    });
    const started = await start([
      { row: 2, name: 'Ana', number: '551188887777', email: 'ana@mail.test', variables: { plano: 'ouro', cidade: 'Santos' } },
      { row: 3, name: 'Bia', number: '+55 (11) 97777-6666', variables: {} },
      { row: 4, name: 'Bia de novo', number: '5511977776666', email: 'bia@mail.test', variables: { cidade: 'Campinas' } },
      { row: 5, name: 'Sem número', number: '', variables: {} },
      { row: 6, name: 'Curto', number: '1234', variables: {} },
      { row: 7, name: 'E-mail ruim', number: '5511966665555', email: 'nope', variables: {} },
    ]);
    expect(started).to.include({ status: 'pending', total: 6, processed: 0, fileName: 'clientes.xlsx', contactListId: listId, finishedAt: null });
    expect((await w.app.contactLists.listContactListItems.execute({ actor: w.admin, contactListId: listId })).count).to.equal(1);
    expect(await w.drainJobs()).to.equal(1);
    const items = await w.app.contactLists.listAllContactListItems.execute({ actor: w.admin, contactListId: listId });
    expect(items.map((i) => [i.name, i.number, i.email, i.validity])).to.deep.equal([
      ['Ana', '5511988887777', 'ana@mail.test', 'unknown'],
      ['Bia', '5511977776666', 'bia@mail.test', 'unknown'],
    ]);
    expect(items.find((i) => i.id === known.id)!.variables).to.deep.equal({ plano: 'prata', cidade: 'Santos' });
    expect(items.find((i) => i.name === 'Bia')!.variables).to.deep.equal({ cidade: 'Campinas' });
    const done = w.events('contactListImport').at(-1)!.data;
    expect(done).to.deep.include({
      action: 'done',
      importId: started.importId,
      status: 'done',
      total: 6,
      processed: 6,
      created: 1,
      duplicates: 2,
      invalid: 3,
      errors: [
        { row: 5, reason: 'ERR_MISSING_NUMBER' },
        { row: 6, reason: 'ERR_INVALID_NUMBER' },
        { row: 7, reason: 'ERR_INVALID_EMAIL' },
      ],
    });
    const view = await w.app.contactLists.showContactList.execute({ actor: w.admin, contactListId: listId });
    expect(view.contactsCount).to.equal(2);
    expect(view.lastImport).to.deep.include({ importId: started.importId, status: 'done', created: 1 });
    expect(view.lastImport!.finishedAt).to.be.a('string');
    expect(
      w
        .events()
        .slice(-3)
        .map((e) => `${e.entity}:${e.data.action}`),
    ).to.deep.equal(['contactListImport:done', 'ContactList:update', 'ContactListItem:reload']);
    expect((w.events('ContactListItem').at(-1)!.data as { records: unknown[] }).records).to.have.length(2);
    expect(w.ports.blobs.blobs.size).to.equal(0);
  });

  it('writes large files in batches of 500, ten per run, each run enqueuing the next; a rerun merges everything', async () => {
    const rows = Array.from(
      { length: 5_123 },
      (_, i): ListRowInput => ({ row: i + 2, name: `Cliente ${i}`, number: `55119${String(10_000_000 + i)}`, variables: { n: String(i) } }),
    );
    await start(rows);
    const runs = await w.drainJobs();
    expect(runs).to.equal(Math.ceil(rows.length / (IMPORT_BATCH_ROWS * IMPORT_BATCHES_PER_RUN)));
    const progress = w
      .events('contactListImport')
      .filter((e) => e.data.action === 'progress')
      .map((e) => (e.data as { processed: number }).processed);
    expect(progress).to.deep.equal(Array.from({ length: 11 }, (_, i) => Math.min((i + 1) * 500, rows.length)));
    expect((await w.app.contactLists.listContactListItems.execute({ actor: w.admin, contactListId: listId })).count).to.equal(rows.length);
    await start(rows);
    await w.drainJobs();
    expect(w.events('contactListImport').at(-1)!.data).to.deep.include({ created: 0, duplicates: rows.length, invalid: 0 });
  });

  it('refuses empty and oversized imports; a stale run writes nothing twice; a deleted list drops the stored rows', async () => {
    expect(await code(start([]))).to.equal('ERR_IMPORT_EMPTY');
    expect(await code(start(Array.from({ length: 50_001 }, (_, i) => ({ row: i + 2, number: '5511988887777', variables: {} }))))).to.equal(
      'ERR_IMPORT_TOO_MANY_ROWS',
    );
    expect(w.ports.blobs.blobs.size).to.equal(0);
    await start([{ row: 2, number: '5511988887777', variables: {} }]);
    const [job] = await w.ports.jobStore.claim({ owner: 'test', limit: 1, leaseMs: new Map([[IMPORT_JOB, 60_000]]) });
    const payload = job!.payload as ImportJobPayload;
    await w.app.contactLists.runContactListImport.execute(payload);
    await w.app.contactLists.runContactListImport.execute(payload);
    expect(w.events('contactListImport').map((e) => e.data.action)).to.deep.equal(['progress', 'done']);
    expect((await w.ports.contactListImports.findById(w.acme.id, payload.importId))!).to.include({ processed: 1, created: 1, blobKey: null });

    const second = await start([{ row: 2, number: '5511977776666', variables: {} }]);
    await w.app.contactLists.deleteContactList.execute({ actor: w.admin, contactListId: listId });
    expect(w.ports.blobs.blobs.size).to.equal(1);
    expect(await w.drainJobs()).to.equal(1);
    expect(w.ports.blobs.blobs.size).to.equal(0);
    expect(await w.ports.contactListImports.findById(w.acme.id, second.importId)).to.equal(null);
  });

  it('retries a failing run and marks the import failed after its last try', async () => {
    const started = await start([{ row: 2, number: '5511988887777', variables: {} }]);
    const [job] = await w.ports.jobStore.claim({ owner: 'test', limit: 1, leaseMs: new Map([[IMPORT_JOB, 60_000]]) });
    const payload = job!.payload as ImportJobPayload;
    const items = w.ports.contactListItems;
    const original = items.importBatch.bind(items);
    items.importBatch = async () => {
      throw new Error('database went away');
    };
    expect(await code(w.app.contactLists.runContactListImport.execute(payload, 1))).to.equal(undefined);
    expect((await w.ports.contactListImports.findById(w.acme.id, started.importId))!.status).to.equal('pending');
    await w.app.contactLists.runContactListImport.execute(payload, IMPORT_MAX_ATTEMPTS);
    items.importBatch = original;
    const failed = (await w.ports.contactListImports.findById(w.acme.id, started.importId))!;
    expect(failed).to.include({ status: 'failed', error: 'ERR_IMPORT_FAILED', processed: 0 });
    expect(w.events('contactListImport').at(-1)!.data).to.deep.include({ action: 'done', status: 'failed', error: 'ERR_IMPORT_FAILED' });
    expect(w.ports.blobs.blobs.size).to.equal(0);
  });
});
