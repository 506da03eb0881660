import type { CallerApis, ClientCalls, Params } from '../client-call.js';

/**
 * File lists: the lineage's Files page (list, search, delete, the `company-<id>-file` frames it
 * listens for), FileModal (open, create, edit, then the upload of the picked files) and the queue
 * and chatbot forms that pick a list. FileModal posts its form values as they are: each option with
 * `path` and `mediaType` empty and the picked file (serialised as `{}`), plus `userId`; then one
 * multipart form whose i-th `files` part goes to option `id[i]`.
 */

const PDF = '%PDF-1.7\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n';
/** What the page's table, the modal and the pickers read of a list. */
const LIST = ['id', 'name', 'message', 'options', 'options[].id', 'options[].name', 'options[].path'];

let n = 0;
/** A list of its own with one caption, for an entry that edits, uploads into or deletes it. */
async function ownList(_p: Params, api: CallerApis): Promise<Params> {
  n += 1;
  const res = await api.admin.post('/files', modalForm(`Lista ${n}`));
  if (res.status !== 200) throw new Error(`file list: ${res.status} ${JSON.stringify(res.body)}`);
  return { target: res.body.id as number, option: res.body.options[0].id as number };
}

/** What FileModal submits: its form values with the user's id. */
function modalForm(name: string) {
  return { name, message: 'Segue nosso catálogo:', userId: 1, options: [{ name: 'Tabela de preços', path: '', mediaType: '', file: {} }] };
}

export default {
  area: 'files',
  async prepare(_p, api) {
    const res = await api.admin.post('/files', modalForm('Catálogo de vendas'));
    if (res.status !== 200) throw new Error(`file list: ${res.status} ${JSON.stringify(res.body)}`);
    return { fileListId: res.body.id as number };
  },
  calls: [
    {
      page: 'pages/Files',
      method: 'GET',
      path: '/files/',
      as: 'admin',
      query: { searchParam: '', pageNumber: 1 },
      reads: ['files', 'hasMore', 'files[].id', 'files[].name'],
    },
    {
      page: 'components/QueueModal',
      method: 'GET',
      path: '/files/',
      as: 'admin',
      query: (p: Params) => ({ companyId: p.companyId }),
      reads: ['files[].id', 'files[].name'],
      note: 'the queue form (and the chatbot options) pick a list from `files`; the `companyId` they send is ignored',
    },
    {
      page: 'components/ChatBots/options',
      method: 'GET',
      path: '/files/',
      as: 'user',
      query: (p: Params) => ({ companyId: p.companyId }),
      reads: ['files[].id', 'files[].name'],
      note: 'reads are open to every operator of the company',
    },
    {
      page: 'components/FileModal (open)',
      method: 'GET',
      path: '/files/:fileListId',
      as: 'admin',
      reads: LIST,
    },
    {
      page: 'components/FileModal (create)',
      method: 'POST',
      path: '/files',
      as: 'admin',
      body: modalForm('Apresentação'),
      reads: LIST,
      emits: [{ event: 'file', action: 'create', reads: ['files.id', 'files.name'] }],
      note: 'the modal then uploads the picked files to the options it got back (`options[i].id`)',
    },
    {
      page: 'components/FileModal (edit)',
      method: 'PUT',
      path: '/files/:target',
      as: 'admin',
      setup: async (p, api) => ownList(p, api),
      body: (p: Params) => ({
        id: p.target,
        name: 'Lista editada',
        message: 'Novo texto',
        userId: 1,
        options: [
          { id: p.option, fileId: p.target, name: 'Tabela 2026', path: null, mediaType: null, file: {} },
          { name: 'Fotos', path: '', mediaType: '' },
        ],
      }),
      reads: LIST,
      emits: [{ event: 'file', action: 'update', reads: ['files.id', 'files.name'] }],
      note: 'the modal sends the loaded list back with its edits: `fileId`, `path`, `mediaType` and the file object are ignored',
    },
    {
      page: 'components/FileModal (upload)',
      method: 'POST',
      path: '/files/uploadList/:target',
      as: 'admin',
      setup: async (p, api) => ownList(p, api),
      form: {
        fields: (p: Params) => ({
          fileId: String(p.target),
          typeArch: 'fileList',
          mediaType: 'application/pdf',
          name: 'Tabela de preços',
          id: String(p.option),
        }),
        files: [{ field: 'files', name: 'precos.pdf', type: 'application/pdf', content: PDF }],
      },
      emits: [{ event: 'file', action: 'update', reads: ['files.id', 'files.options'] }],
      note: 'the modal ignores the answer (the lineage answered `{mensagem}`); the page refreshes from the `update` frame',
    },
    {
      page: 'components/FileModal (upload, no file picked)',
      method: 'POST',
      path: '/files/uploadList/:target',
      as: 'admin',
      setup: async (p, api) => ownList(p, api),
      form: { fields: (p: Params) => ({ fileId: String(p.target), typeArch: 'fileList' }) },
      reads: LIST,
      note: 'the modal posts the form after every save, files picked or not; the lineage answered 200 and the modal would toast an error otherwise',
    },
    {
      page: 'pages/Files (delete)',
      method: 'DELETE',
      path: '/files/:target',
      as: 'admin',
      setup: async (p, api) => ownList(p, api),
      emits: [{ event: 'file', action: 'delete', reads: ['fileId'] }],
      note: 'the page removes the row on the `delete` frame (`+data.fileId`)',
    },
  ],
} satisfies ClientCalls;
