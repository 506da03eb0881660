import ExcelJS from 'exceljs';
import { expect } from 'chai';
import type { CallerApi, ClientCalls, Params } from '../client-call.js';

/**
 * The contacts pages: the list with its search, tag filter, block and delete buttons and import menu
 * (pages/Contacts), the add/edit dialog (ContactModal), the drawer beside a conversation
 * (ContactDrawer, ContactForm), the file and spreadsheet imports (ContactImport, ContactImportWpModal),
 * the pickers (ContactsFilter, ContactSendModal, NewTicketModal's search), a vCard's contact
 * (VcardPreview), the dashboard's count (hooks/useContacts) and the tag's contact list (ContactTagListModal).
 * `company-<id>-contact` is what pages/Contacts listens to: `create`/`update` with the contact, `delete` with its id.
 */

/** What pages/Contacts reads of every row (the avatar, the number, the status icon). */
const ROW = ['contacts[].id', 'contacts[].name', 'contacts[].number', 'contacts[].email', 'contacts[].isGroup', 'contacts[].urlPicture', 'contacts[].active'];
/** What the list reads of a contact pushed by the namespace. */
const PUSHED = ['contact.id', 'contact.name', 'contact.number', 'contact.urlPicture', 'contact.active'];

/** A spreadsheet as the "import from Excel" file input takes it (`.xlsx`). */
async function spreadsheet(): Promise<Uint8Array> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('Contatos');
  sheet.addRow(['name', 'number', 'email']);
  sheet.addRow(['Planilha Um', 5511955550001, 'um@planilha.test']);
  sheet.addRow(['Planilha Dois', '5511955550002', '']);
  return new Uint8Array((await book.xlsx.writeBuffer()) as ArrayBuffer);
}
const xlsx = await spreadsheet();

async function created(api: CallerApi, body: Record<string, unknown>): Promise<number> {
  const res = await api.post('/contacts', body);
  expect(res.status, JSON.stringify(res.body)).to.equal(201);
  return res.body.id as number;
}

/** The GET answer, as a form holds it before sending it back. */
async function shown(api: CallerApi, url: string, pick: (body: any) => unknown = (b) => b): Promise<Params> {
  const res = await api.get(url);
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
  return { shownJson: JSON.stringify(pick(res.body)) };
}

export default {
  area: 'contacts',
  async prepare(p, api) {
    const editContactId = await created(api.admin, {
      name: 'Marcos Lima',
      number: '5511966660001',
      email: 'marcos@cliente.test',
      extraInfo: [{ name: 'CPF', value: '123.456.789-09' }],
    });
    const synced = await api.admin.post('/tags/sync', { contactId: editContactId, tags: [{ id: p.tagId }] });
    expect(synced.status, JSON.stringify(synced.body)).to.be.within(200, 299);
    return { editContactId };
  },
  calls: [
    {
      page: 'pages/Contacts (list, infinite scroll), components/ContactImportWpModal (export)',
      method: 'GET',
      path: '/contacts/',
      query: { searchParam: '', pageNumber: 1, contactTag: '[]' },
      reads: [...ROW, 'hasMore', 'count'],
    },
    {
      page: 'pages/Contacts (TagsFilter)',
      method: 'GET',
      path: '/contacts/',
      query: (p) => ({ searchParam: '', pageNumber: 1, contactTag: JSON.stringify([p.tagId]) }),
      reads: [...ROW, 'hasMore'],
      note: '`contactTag` is a JSON list of tag ids: only contacts with one of them',
    },
    {
      page: 'pages/Contacts (search)',
      method: 'GET',
      path: '/contacts/',
      query: { searchParam: 'marcos', pageNumber: 1, contactTag: '[]' },
      reads: ROW,
    },
    {
      page: "hooks/useContacts (pages/Dashboard's count)",
      method: 'GET',
      path: '/contacts',
      query: () => ({ dateStart: '2020-01-01', dateEnd: new Date().toISOString().slice(0, 10) }),
      reads: ['contacts', 'count', 'hasMore'],
    },
    {
      page: 'components/ContactModal (open to edit)',
      method: 'GET',
      path: '/contacts/:editContactId',
      reads: ['id', 'name', 'number', 'email', 'disableBot', 'extraInfo[].name', 'extraInfo[].value'],
    },
    {
      page: 'components/ContactModal (add)',
      method: 'POST',
      path: '/contacts',
      body: {
        name: 'Renata Dias',
        number: '5511966660002',
        email: '',
        disableBot: false,
        lgpdAcceptedAt: '',
        extraInfo: [
          { name: 'Origem', value: 'Site' },
          { name: '', value: '' },
        ],
      },
      status: 201,
      reads: ['id', 'name', 'number', 'email', 'urlPicture', 'extraInfo'],
      emits: [{ event: 'contact', action: 'create', reads: PUSHED }],
      note: 'the form\'s initial values (`lgpdAcceptedAt: ""`) and an "add extra info" row left blank come along',
    },
    {
      page: 'components/ContactModal (add)',
      method: 'POST',
      path: '/contacts',
      body: { name: 'Marcos de novo', number: '5511966660001', email: '', disableBot: false, lgpdAcceptedAt: '' },
      status: 409,
      reads: ['error'],
      note: 'the toast shows `backendErrors.ERR_DUPLICATED_CONTACT`',
    },
    {
      page: 'components/ContactModal (save an edit)',
      method: 'PUT',
      path: '/contacts/:editContactId',
      setup: (p, api) => shown(api.admin, `/contacts/${p.editContactId}`),
      body: (p: Params) => {
        const form = JSON.parse(String(p.shownJson));
        return { ...form, name: 'Marcos Lima Souza', extraInfo: [...form.extraInfo, { name: 'Plano', value: 'Ouro' }], disableBot: true };
      },
      reads: ['id', 'name', 'disableBot', 'extraInfo[].name'],
      emits: [{ event: 'contact', action: 'update', reads: PUSHED }],
      note: 'the whole GET answer goes back (id, tags, identifiers, urlPicture, createdAt...): read-only fields are ignored',
    },
    {
      page: 'components/ContactForm (in ContactDrawer)',
      method: 'PUT',
      path: '/contacts/:contactId',
      setup: (p, api) => shown(api.admin, `/tickets/${p.ticketId}`, (ticket) => ticket.contact),
      body: (p: Params) => ({ ...JSON.parse(String(p.shownJson)), email: 'joana@cliente.test' }),
      reads: ['id', 'name', 'email'],
      emits: [{ event: 'contact', action: 'update', reads: PUSHED }],
      note: "the form's values are the ticket's contact as the ticket answered it",
    },
    {
      page: 'components/ContactDrawer (accept audio switch)',
      method: 'PUT',
      path: '/contacts/toggleAcceptAudio/:editContactId',
      reads: ['acceptAudioMessage'],
    },
    {
      page: 'pages/Contacts, components/ContactDrawer (block)',
      method: 'PUT',
      path: '/contacts/block/:editContactId',
      body: { active: false },
      emits: [{ event: 'contact', action: 'update', reads: [...PUSHED, 'contact.blocked'] }],
    },
    {
      page: 'pages/Contacts, components/ContactDrawer (unblock)',
      method: 'PUT',
      path: '/contacts/block/:editContactId',
      body: { active: true },
      emits: [{ event: 'contact', action: 'update', reads: PUSHED }],
    },
    {
      page: 'components/ContactsFilter',
      method: 'GET',
      path: '/contacts/list',
      returns: 'array',
      reads: ['[].id', '[].name'],
    },
    {
      page: 'components/ContactSendModal (search)',
      method: 'GET',
      path: '/contacts',
      query: { searchParam: 'joa', channel: 'whatsapp', isGroup: 'false' },
      reads: ['contacts[].id', 'contacts[].name', 'contacts[].number'],
    },
    {
      page: 'components/NewTicketModal (contact search)',
      method: 'GET',
      path: '/contacts',
      query: { searchParam: 'joa' },
      reads: ['contacts[].id', 'contacts[].name', 'contacts[].number'],
    },
    {
      page: 'components/VcardPreview (a known number)',
      method: 'GET',
      path: '/contacts/profile/:contactNumber',
      reads: ['contactId', 'urlPicture'],
      note: 'a contactId lets the card open a ticket with that contact',
    },
    {
      page: 'components/VcardPreview (a new number)',
      method: 'GET',
      path: '/contacts/profile/5511966660099',
      reads: ['contactId'],
      note: 'no contact: contactId is null, and the card creates one (next entry)',
    },
    {
      page: 'components/VcardPreview (a new number)',
      method: 'POST',
      path: '/contacts',
      body: (p: Params) => ({ name: 'Contato do cartão', number: '5511966660099', email: '', companyId: p.companyId }),
      status: 201,
      reads: ['id', 'name', 'number', 'urlPicture'],
    },
    {
      page: 'components/ContactImport (one request per selected row)',
      method: 'POST',
      path: '/contactsImport',
      body: { name: 'Linha Importada', number: '5511955550010', email: 'linha@planilha.test', tags: 'VIP', validateContact: 'false' },
      status: 200,
      note: 'the page counts a row as imported when the answer is exactly 200',
    },
    {
      page: 'components/ContactImportWpModal (import a spreadsheet, row by row)',
      method: 'POST',
      path: '/contactsImport',
      body: { name: 'Outra Linha', number: '5511955550011' },
      status: 200,
    },
    {
      page: 'pages/Contacts (import from Excel)',
      method: 'POST',
      path: '/contacts/upload',
      form: { files: [{ field: 'file', name: 'contatos.xlsx', type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', content: xlsx }] },
    },
    {
      page: 'pages/Contacts (import from the phone)',
      method: 'POST',
      path: '/contacts/import',
      note: 'no body: the default connection, or the first connected chat-application session',
    },
    {
      page: 'components/ContactTagListModal (remove the contact from the tag)',
      method: 'DELETE',
      path: '/tags-contacts/:tagId/:taggedContactId',
      setup: async (p, api) => {
        const taggedContactId = await created(api.admin, { name: 'Com Etiqueta', number: '5511966660003' });
        const synced = await api.admin.post('/tags/sync', { contactId: taggedContactId, tags: [{ id: p.tagId }] });
        expect(synced.status, JSON.stringify(synced.body)).to.be.within(200, 299);
        return { taggedContactId };
      },
    },
    {
      page: 'pages/Contacts (delete)',
      method: 'DELETE',
      path: '/contacts/:doomedContactId',
      setup: async (_p, api) => ({ doomedContactId: await created(api.admin, { name: 'Contato Descartável', number: '5511966660004' }) }),
      emits: [{ event: 'contact', action: 'delete', reads: ['contactId'] }],
    },
  ],
} satisfies ClientCalls;
