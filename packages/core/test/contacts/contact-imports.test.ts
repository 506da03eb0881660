import { expect } from 'chai';
import { columnsOf, createApplication, MAX_IMPORT_ROWS, rowsOfTable, type ContactImportStatus, type Contacts, type ImportRowInput } from '../../src/index.js';
import { code, ticketWorld, type TicketWorld } from '../messaging/ticket-world.js';

const importEvents = (w: TicketWorld) =>
  w.ports.realtime.events.filter((e) => e.entity === 'contactImport').map((e) => e.data as unknown as ContactImportStatus & { action: string });

/** `n` good rows (distinct mobiles), with the given rows mixed in at their positions. */
function rows(n: number, extra: Record<number, Partial<ImportRowInput>> = {}): ImportRowInput[] {
  return Array.from({ length: n }, (_, i) => ({ row: i + 2, name: `Pessoa ${i}`, number: `55119${String(70_000_000 + i)}`, email: '', ...extra[i] }));
}

describe('Contact imports (in-memory use cases)', () => {
  describe('column mapping', () => {
    it('finds the columns by Portuguese or English headers, ignoring case, accents and punctuation', () => {
      expect(columnsOf(['Nome', 'Telefone', 'E-mail'])).to.deep.equal({ name: 0, number: 1, email: 2 });
      expect(columnsOf(['ID', 'Número', 'NOME COMPLETO'])).to.deep.equal({ number: 1, name: 2 });
      expect(columnsOf(['phone number', 'Full Name', 'Email Address'])).to.deep.equal({ number: 0, name: 1, email: 2 });
      expect(columnsOf(['Celular', 'Cliente'])).to.deep.equal({ number: 0, name: 1 });
    });

    it('follows an explicit mapping by header or 1-based column number, and says when the number column is missing', () => {
      expect(columnsOf(['Quem', 'Fone fixo', 'Obs'], { name: 'quem', number: 2 })).to.deep.equal({ name: 0, number: 1 });
      expect(() => columnsOf(['Nome', 'Email']))
        .to.throw()
        .with.property('code', 'ERR_IMPORT_NO_NUMBER_COLUMN');
      expect(() => columnsOf(['Nome', 'Telefone'], { email: 'Correio' }))
        .to.throw()
        .with.property('code', 'ERR_IMPORT_UNKNOWN_COLUMN');
      expect(() => columnsOf(['Nome', 'Telefone'], { number: 3 }))
        .to.throw()
        .with.property('code', 'ERR_IMPORT_UNKNOWN_COLUMN');
    });

    it('turns a table into rows with their row numbers, skipping blank ones', () => {
      const table = {
        headers: ['Nome', 'Telefone'],
        rows: [
          { row: 2, cells: ['Ana', '5511988887777'] },
          { row: 3, cells: ['', ' '] },
          { row: 4, cells: ['Bia'] },
        ],
      };
      expect(rowsOfTable(table)).to.deep.equal([
        { row: 2, name: 'Ana', number: '5511988887777', email: undefined },
        { row: 4, name: 'Bia', number: '', email: undefined },
      ]);
    });
  });

  describe('running an import', () => {
    it('writes in batches of 500 with a progress event each, reports bad rows with reasons, merges repeats, and a rerun creates nothing', async () => {
      const w = await ticketWorld();
      const existing = await w.app.contacts.createContact.execute({ actor: w.ana, name: 'Já existe', number: '5511970000001' });
      const input = rows(1200, {
        3: { number: '' },
        10: { number: 'abc' },
        11: { number: '12345' },
        20: { email: 'nope' },
        30: { name: 'x'.repeat(300) },
        40: { number: '551170000000', name: 'Repete a 0 sem o nove' },
        700: { number: '+55 (11) 97000-0005' },
      });
      const started = await w.app.contacts.startContactImport.execute({ actor: w.ana, rows: input, source: 'list' });
      expect(started).to.include({ status: 'running', total: 1200, processed: 0, source: 'list' });
      await w.ports.jobs.idle();
      const report = await w.app.contacts.showContactImport.execute({ actor: w.bia, importId: started.importId });
      expect(report).to.deep.include({ status: 'done', total: 1200, processed: 1200, failed: 5, errorsTruncated: false, error: null });
      expect(report.errors).to.deep.equal([
        { row: 5, reason: 'ERR_MISSING_NUMBER' },
        { row: 12, reason: 'ERR_INVALID_NUMBER' },
        { row: 13, reason: 'ERR_INVALID_NUMBER' },
        { row: 22, reason: 'ERR_INVALID_EMAIL' },
        { row: 32, reason: 'ERR_NAME_TOO_LONG' },
      ]);
      // 1,195 valid rows: row 40 repeats row 0 (no ninth digit), row 700 repeats row 5, row 1 is the existing contact.
      expect(report).to.include({ created: 1192, merged: 3 });
      expect((await w.app.contacts.listContacts.execute({ actor: w.ana })).count).to.equal(1193);
      expect((await w.ports.contacts.findById(w.acme.id, existing.id))!.name).to.equal('Já existe');
      const events = importEvents(w);
      expect(events.map((e) => `${e.action}:${e.processed}`)).to.deep.equal(['progress:500', 'progress:1000', 'progress:1200', 'done:1200']);
      expect(events[0]!.errors).to.have.length(5);
      expect(events[1]!.errors).to.deep.equal([]);
      expect(events[3]).to.deep.include({ importId: started.importId, status: 'done', created: 1192, failed: 5 });
      const again = await w.app.contacts.startContactImport.execute({ actor: w.ana, rows: input, source: 'list' });
      await w.ports.jobs.idle();
      expect(await w.app.contacts.showContactImport.execute({ actor: w.ana, importId: again.importId })).to.deep.include({
        created: 0,
        merged: 1195,
        failed: 5,
      });
      expect((await w.app.contacts.listContacts.execute({ actor: w.ana })).count).to.equal(1193);
    });

    it('lists the first 1,000 row errors and counts them all', async () => {
      const w = await ticketWorld();
      const bad = Object.fromEntries(Array.from({ length: 1100 }, (_, i) => [i, { number: 'bad' }]));
      const started = await w.app.contacts.startContactImport.execute({ actor: w.ana, rows: rows(1200, bad), source: 'file', fileName: 'x.csv' });
      await w.ports.jobs.idle();
      const report = await w.app.contacts.showContactImport.execute({ actor: w.ana, importId: started.importId });
      expect(report).to.deep.include({ failed: 1100, created: 100, errorsTruncated: true, fileName: 'x.csv' });
      expect(report.errors).to.have.length(1000);
      expect(importEvents(w).at(-1)!.errors).to.have.length(1000);
    });

    it("refuses an empty or oversized import, and answers an unknown or another company's import with 404", async () => {
      const w = await ticketWorld();
      expect(await code(w.app.contacts.startContactImport.execute({ actor: w.ana, rows: [], source: 'file' }))).to.equal('ERR_IMPORT_EMPTY');
      expect(await code(w.app.contacts.startContactImport.execute({ actor: w.ana, rows: rows(MAX_IMPORT_ROWS + 1), source: 'list' }))).to.equal(
        'ERR_IMPORT_TOO_MANY_ROWS',
      );
      const started = await w.app.contacts.startContactImport.execute({ actor: w.ana, rows: rows(2), source: 'list' });
      await w.ports.jobs.idle();
      expect(await code(w.app.contacts.showContactImport.execute({ actor: w.otherAdmin, importId: started.importId }))).to.equal('ERR_IMPORT_NOT_FOUND');
      expect(await code(w.app.contacts.showContactImport.execute({ actor: w.ana, importId: 'nope' }))).to.equal('ERR_IMPORT_NOT_FOUND');
    });

    it('stops with a failed report when a batch cannot be written, keeping the batches before it', async () => {
      const w = await ticketWorld();
      let batches = 0;
      const contacts: Contacts = Object.create(w.ports.contacts, {
        importBatch: {
          value: (...args: Parameters<Contacts['importBatch']>) =>
            ++batches === 2 ? Promise.reject(new Error('disk full')) : w.ports.contacts.importBatch(...args),
        },
      });
      const app = createApplication({ ...w.ports, contacts });
      const started = await app.contacts.startContactImport.execute({ actor: w.ana, rows: rows(1200), source: 'list' });
      await w.ports.jobs.idle();
      expect(await app.contacts.showContactImport.execute({ actor: w.ana, importId: started.importId })).to.deep.include({
        status: 'failed',
        error: 'ERR_IMPORT_FAILED',
        processed: 500,
        created: 500,
      });
      expect(importEvents(w).map((e) => `${e.action}:${e.status}`)).to.deep.equal(['progress:running', 'done:failed']);
    });
  });
});
