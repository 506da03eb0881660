import ExcelJS from 'exceljs';
import { expect } from 'chai';
import type { CallerApi, ClientCalls, Params } from '../client-call.js';

/**
 * The contact lists: the lists page with its search, add/edit dialog and delete button
 * (pages/ContactLists, ContactListDialog), the campaign form's list picker (CampaignModal), and a
 * list's numbers with their import button (pages/ContactListItems, ContactListItemModal).
 * pages/ContactLists listens to `company-<id>-ContactList` (`create`/`update` with `record`,
 * `delete` with `id`), pages/ContactListItems to `company-<id>-ContactListItem` (the same, and
 * `reload` with `records`). The item's `isWhatsappValid` is `isChatappValid` under the naming rule.
 */

/** What pages/ContactLists reads of every row. */
const LIST_ROW = ['records[].id', 'records[].name', 'records[].contactsCount'];
/** What pages/ContactListItems reads of every row (the validity icon, name, number, e-mail). */
const ITEM_ROW = ['contacts[].id', 'contacts[].name', 'contacts[].number', 'contacts[].email', 'contacts[].isChatappValid'];
const PUSHED_ITEM = ['record.id', 'record.name', 'record.number', 'record.email', 'record.isChatappValid'];

/** The spreadsheet the items page's import button takes (`.xlsx`, like the lineage's sample `planilha.xlsx`). */
async function spreadsheet(): Promise<Uint8Array> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('Contatos');
  sheet.addRow(['nome', 'numero', 'email']);
  sheet.addRow(['Planilha Um', 5511944440001, 'um@planilha.test']);
  sheet.addRow(['Planilha Dois', '5511944440002', '']);
  return new Uint8Array((await book.xlsx.writeBuffer()) as ArrayBuffer);
}
const xlsx = await spreadsheet();

async function created(api: CallerApi, url: string, body: Record<string, unknown>): Promise<number> {
  const res = await api.post(url, body);
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
  return res.body.id as number;
}

/** The GET answer, as a dialog holds it before sending it back. */
async function shown(api: CallerApi, url: string): Promise<Params> {
  const res = await api.get(url);
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
  return { shownJson: JSON.stringify(res.body) };
}

export default {
  area: 'contact lists',
  async prepare(_p, api) {
    const contactListId = await created(api.admin, '/contact-lists', { name: 'Clientes da loja' });
    const contactListItemId = await created(api.admin, '/contact-list-items', {
      name: 'Renata Alves',
      number: '5511944440010',
      email: 'renata@loja.test',
      contactListId,
    });
    return { contactListId, contactListItemId };
  },
  calls: [
    {
      page: 'pages/ContactLists (list, infinite scroll)',
      method: 'GET',
      path: '/contact-lists/',
      query: { searchParam: '', pageNumber: 1 },
      reads: [...LIST_ROW, 'hasMore'],
    },
    {
      page: 'pages/ContactLists (search)',
      method: 'GET',
      path: '/contact-lists/',
      query: { searchParam: 'loja', pageNumber: 1 },
      reads: LIST_ROW,
    },
    {
      page: 'components/ContactListDialog (open to edit), pages/ContactListItems (the title)',
      method: 'GET',
      path: '/contact-lists/:contactListId',
      reads: ['id', 'name'],
    },
    {
      page: 'components/ContactListDialog (add)',
      method: 'POST',
      path: '/contact-lists',
      body: { name: 'Promoção de inverno' },
      reads: ['id', 'name'],
      emits: [{ event: 'ContactList', action: 'create', reads: ['record.id', 'record.name', 'record.contactsCount'] }],
    },
    {
      page: 'components/ContactListDialog (save an opened list)',
      method: 'PUT',
      path: '/contact-lists/:target',
      setup: async (_p, api) => {
        const target = await created(api.admin, '/contact-lists', { name: 'Para renomear' });
        return { target, ...(await shown(api.admin, `/contact-lists/${target}`)) };
      },
      body: (p: Params) => ({ ...JSON.parse(String(p.shownJson)), name: 'Renomeada' }),
      reads: ['id', 'name'],
      emits: [{ event: 'ContactList', action: 'update', reads: ['record.id', 'record.name', 'record.contactsCount'] }],
      note: 'the dialog sends the GET answer merged with its form (id, counts, lastImport...): only `name` is read',
    },
    {
      page: 'pages/ContactLists (delete)',
      method: 'DELETE',
      path: '/contact-lists/:doomedListId',
      setup: async (_p, api) => ({ doomedListId: await created(api.admin, '/contact-lists', { name: 'Descartável' }) }),
      reads: ['message'],
      emits: [{ event: 'ContactList', action: 'delete', reads: ['id'] }],
    },
    {
      page: 'components/CampaignModal (the list picker)',
      method: 'GET',
      path: '/contact-lists/list',
      query: (p) => ({ companyId: p.companyId }),
      returns: 'array',
      reads: ['[].id', '[].name'],
      note: "the client sends its companyId in the query: the company is the token's",
    },
    {
      page: 'pages/ContactListItems (list, infinite scroll)',
      method: 'GET',
      path: '/contact-list-items',
      query: (p) => ({ searchParam: '', pageNumber: 1, contactListId: p.contactListId }),
      reads: [...ITEM_ROW, 'hasMore'],
      note: '`contacts`, not `records`, as the lineage answers it',
    },
    {
      page: 'pages/ContactListItems (search)',
      method: 'GET',
      path: '/contact-list-items',
      query: (p) => ({ searchParam: 'renata', pageNumber: 1, contactListId: p.contactListId }),
      reads: ITEM_ROW,
    },
    {
      page: 'components/ContactListItemModal (open to edit)',
      method: 'GET',
      path: '/contact-list-items/:contactListItemId',
      reads: ['id', 'name', 'number', 'email'],
    },
    {
      page: 'components/ContactListItemModal (add)',
      method: 'POST',
      path: '/contact-list-items',
      body: (p: Params) => ({ name: 'Sérgio Dias', number: '5511944440020', email: '', companyId: p.companyId, contactListId: String(p.contactListId) }),
      reads: ['id', 'name', 'number'],
      emits: [{ event: 'ContactListItem', action: 'create', reads: PUSHED_ITEM }],
      note: "`contactListId` comes from the route (a string) and `companyId` from the session; the company is the token's",
    },
    {
      page: 'components/ContactListItemModal (save an opened item)',
      method: 'PUT',
      path: '/contact-list-items/:target',
      setup: async (p, api) => {
        const target = await created(api.admin, '/contact-list-items', { name: 'Para editar', number: '5511944440030', contactListId: p.contactListId });
        return { target, ...(await shown(api.admin, `/contact-list-items/${target}`)) };
      },
      body: (p: Params) => ({ ...JSON.parse(String(p.shownJson)), name: 'Editado', companyId: p.companyId, contactListId: String(p.contactListId) }),
      reads: ['id', 'name'],
      emits: [{ event: 'ContactListItem', action: 'update', reads: PUSHED_ITEM }],
      note: "the whole GET answer goes back with the form's values: read-only fields are ignored",
    },
    {
      page: 'pages/ContactListItems (delete)',
      method: 'DELETE',
      path: '/contact-list-items/:doomedItemId',
      setup: async (p, api) => ({ doomedItemId: await created(api.admin, '/contact-list-items', { number: '5511944440040', contactListId: p.contactListId }) }),
      reads: ['message'],
      emits: [{ event: 'ContactListItem', action: 'delete', reads: ['id'] }],
    },
    {
      page: 'pages/ContactListItems (import a spreadsheet)',
      method: 'POST',
      path: '/contact-lists/:contactListId/upload',
      status: 202,
      form: { files: [{ field: 'file', name: 'planilha.xlsx', type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', content: xlsx }] },
      emits: [{ event: 'ContactListItem', action: 'reload', reads: ['records[].id', 'records[].name', 'records[].number', 'records[].isChatappValid'] }],
      note: 'the page ignores the answer (the import, at once) and merges the `reload` records it is sent when the rows are written',
    },
  ],
} satisfies ClientCalls;
