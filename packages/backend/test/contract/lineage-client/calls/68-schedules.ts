import type { CallerApis, ClientCalls, Params } from '../client-call.js';

const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201e2a4d1a60000000049454e44ae426082',
  'hex',
);

/** What the calendar reads of a schedule (a list row, a `schedule` frame's). */
const ROW = ['id', 'contact.name', 'sendAt'];
const rows = (prefix: string) => ROW.map((f) => `${prefix}.${f}`);

/** What ScheduleModal sends for a new schedule: its initial state with the pickers' values (`sendAt` from a `datetime-local` input). */
function modalAdd(p: Params, fields: Record<string, unknown> = {}) {
  return {
    body: 'Olá {{firstName}}, sua consulta é amanhã.',
    contactId: p.contactId,
    sendAt: '2030-03-05T09:00',
    sentAt: '',
    openTicket: 'enabled',
    ticketUserId: null,
    queueId: null,
    statusTicket: 'closed',
    intervalo: 1,
    valorIntervalo: 0,
    enviarQuantasVezes: 1,
    tipoDias: 4,
    assinar: false,
    userId: p.userId,
    chatappId: p.chatappId,
    ...fields,
  };
}

let n = 0;
/** A schedule of its own, for an entry that changes or deletes it. */
async function ownSchedule(p: Params, api: CallerApis): Promise<number> {
  n += 1;
  const res = await api.admin.post('/schedules', modalAdd(p, { body: `Lembrete ${n}` }));
  if (res.status !== 200) throw new Error(`schedule: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.id as number;
}

/** What MessageModal posts: every field of its state appended to a FormData (so all text, arrays joined by commas, absent ones as "undefined"). */
function messageForm(p: Params, fields: Record<string, string> = {}): FormData {
  const form = new FormData();
  const values: Record<string, string> = {
    nome: 'Aviso de feriado',
    data_mensagem_programada: '2030-04-17 09:00:00',
    id_conexao: String(p.chatappId),
    intervalo: '1',
    fileName: '',
    valor_intervalo: '0',
    mensagem: 'Olá {{firstName}}, não abriremos na segunda.',
    tipo_dias_envio: '4',
    mostrar_usuario_mensagem: 'false',
    criar_ticket: 'false',
    contatos: String(p.contactId),
    tags: '',
    usuario_envio: '',
    enviar_quantas_vezes: '0',
    file: 'undefined',
    companyId: String(p.companyId),
    ...fields,
  };
  for (const [k, v] of Object.entries(values)) form.append(k, v);
  return form;
}

/**
 * Schedules: pages/Schedules (the calendar, kept live by the `schedule` event; delete) and
 * components/ScheduleModal (create, edit, the attachment), and components/MessageModal, the
 * client's form of `/schedules-message` (no page mounts it today; Schedules imports it commented
 * out). The calendar listens on `company<id>-schedule` (without the dash), as the tags pages do: we
 * send `company-<id>-schedule`.
 */
export default {
  area: 'schedules',
  prepare: async (p, api) => ({ scheduleId: await ownSchedule(p, api) }),
  calls: [
    {
      page: 'pages/Schedules',
      method: 'GET',
      path: '/schedules',
      query: { searchParam: '', pageNumber: 1 },
      reads: ['schedules', 'hasMore', ...rows('schedules[]')],
      note: 'Each schedule is a calendar event at `sendAt` titled with `contact.name`.',
    },
    {
      page: 'pages/Schedules (delete)',
      method: 'DELETE',
      path: '/schedules/:target',
      as: 'admin',
      setup: async (p, api) => ({ target: await ownSchedule(p, api) }),
      emits: [{ event: 'schedule', action: 'delete', reads: ['scheduleId'] }],
    },
    {
      page: 'components/ScheduleModal (edit: load)',
      method: 'GET',
      path: '/schedules/:scheduleId',
      reads: [
        'id',
        'body',
        'sendAt',
        'sentAt',
        'status',
        'contactId',
        'contact.id',
        'contact.name',
        'chatapp.id',
        'ticketUser',
        'queueId',
        'intervalo',
        'valorIntervalo',
        'enviarQuantasVezes',
        'tipoDias',
        'assinar',
        'openTicket',
        'statusTicket',
        'mediaPath',
        'mediaName',
      ],
      note: 'The title shows `status` (`ERRO` as an error); the save button shows while `sentAt` is null or empty.',
    },
    {
      page: 'components/ScheduleModal (add)',
      method: 'POST',
      path: '/schedules',
      as: 'user',
      body: (p: Params) => modalAdd(p),
      reads: ['id'],
      emits: [{ event: 'schedule', action: 'create', reads: rows('schedule') }],
      note: "`sendAt` comes from a `datetime-local` input (`YYYY-MM-DDTHH:mm`, no offset): the company's clock. It then uploads the attachment to `/schedules/<id>/media-upload`.",
    },
    {
      page: 'components/ScheduleModal (add, no connection picked)',
      method: 'POST',
      path: '/schedules',
      body: (p: Params) => modalAdd(p, { chatappId: [], openTicket: 'disabled', intervalo: 2, valorIntervalo: '1', enviarQuantasVezes: '4', tipoDias: 6 }),
      reads: ['id'],
      note: "With several connections and none picked the modal sends `[]`: the company's default connection sends it.",
    },
    {
      page: 'components/ScheduleModal (edit: save)',
      method: 'PUT',
      path: '/schedules/:target',
      setup: async (p, api) => {
        const target = await ownSchedule(p, api);
        const shown = (await api.admin.get(`/schedules/${target}`)).body as Record<string, unknown>;
        return { target, shown: JSON.stringify(shown) };
      },
      body: (p: Params) => {
        const shown = JSON.parse(String(p.shown)) as Record<string, unknown>;
        return {
          ...shown,
          body: 'Texto novo',
          sendAt: '2030-03-05T09:00',
          userId: p.userId,
          chatappId: (shown.chatapp as { id: number }).id,
          ticketUserId: null,
          queueId: null,
          intervalo: 1,
          tipoDias: 4,
        };
      },
      reads: ['id'],
      emits: [{ event: 'schedule', action: 'update', reads: rows('schedule') }],
      note: 'The whole GET answer comes back (`contact`, `user`, `occurrences`… are dropped), `sendAt` formatted to the minute: the same moment moves nothing.',
    },
    {
      page: 'components/ScheduleModal (attachment)',
      method: 'POST',
      path: '/schedules/:target/media-upload',
      setup: async (p, api) => ({ target: await ownSchedule(p, api) }),
      form: { files: [{ field: 'file', name: 'lembrete.png', type: 'image/png', content: PNG }] },
      emits: [{ event: 'schedule', action: 'update', reads: [...rows('schedule'), 'schedule.mediaPath', 'schedule.mediaName'] }],
    },
    {
      page: 'components/ScheduleModal (remove the attachment)',
      method: 'DELETE',
      path: '/schedules/:target/media-upload',
      setup: async (p, api) => {
        const target = await ownSchedule(p, api);
        const form = new FormData();
        form.append('file', new Blob([PNG], { type: 'image/png' }), 'lembrete.png');
        const res = await api.admin.post(`/schedules/${target}/media-upload`, form);
        if (res.status !== 200) throw new Error(`upload: ${res.status} ${JSON.stringify(res.body)}`);
        return { target };
      },
      emits: [{ event: 'schedule', action: 'update', reads: rows('schedule') }],
    },
    {
      page: 'components/MessageModal (add)',
      method: 'POST',
      path: '/schedules-message',
      as: 'user',
      body: (p: Params) => messageForm(p),
      reads: ['id'],
      note: 'Every value is text; `contatos` is the ids joined by commas; a missing file arrives as the text "undefined" (ignored).',
    },
    {
      page: 'components/MessageModal (edit: load)',
      method: 'GET',
      path: '/schedules-message/:target',
      setup: async (p, api) => ({ target: (await api.admin.post('/schedules-message', messageForm(p))).body.id as number }),
      reads: [
        'nome',
        'mensagem',
        'mostrar_usuario_mensagem',
        'criar_ticket',
        'tipo_dias_envio',
        'enviar_quantas_vezes',
        'intervalo',
        'valor_intervalo',
        'data_mensagem_programada',
        'mediaName',
        'id_conexao',
        'contatos',
        'usuario_envio',
      ],
    },
    {
      page: 'components/MessageModal (edit: save, with a file)',
      method: 'PUT',
      path: '/schedules-message/:target',
      setup: async (p, api) => ({ target: (await api.admin.post('/schedules-message', messageForm(p))).body.id as number }),
      body: (p: Params) => {
        const form = messageForm(p, { nome: 'Aviso de feriado (editado)', mostrar_usuario_mensagem: 'true', usuario_envio: String(p.userId) });
        form.delete('file');
        form.append('file', new Blob([PNG], { type: 'image/png' }), 'aviso.png');
        return form;
      },
      reads: ['id', 'nome', 'mediaName'],
    },
  ],
} satisfies ClientCalls;
