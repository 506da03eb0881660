import type { CallerApis, ClientCalls, Params } from '../client-call.js';

/** The week the queue editor starts with: two ranges a day, as it sends and reads them. */
const WEEK = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((weekdayEn) => ({
  weekday: weekdayEn,
  weekdayEn,
  startTimeA: '08:00',
  endTimeA: '12:00',
  startTimeB: weekdayEn === 'saturday' ? '' : '13:00',
  endTimeB: weekdayEn === 'saturday' ? '' : '18:00',
}));

/** What the queue editor holds beside the queue's own fields (sent as they are, dropped by us). */
const EDITOR_EXTRAS = { tempoRoteador: 0, ativarRoteador: false, fileListId: '', closeTicket: false };

async function queueNamed(api: CallerApis, name: string): Promise<number> {
  const created = await api.admin.post('/queue', { name, color: '#00aa55' });
  if (created.status !== 201) throw new Error(`creating ${name}: ${created.status} ${JSON.stringify(created.body)}`);
  return created.body.id as number;
}

const QUEUE_EVENT = { event: 'queue', action: 'update', reads: ['queue.id', 'queue.name', 'queue.color', 'queue.orderQueue', 'queue.greetingMessage'] };

/**
 * Queues and their chatbot menus: pages/Queues with components/QueueModal (the queue, its hours in
 * two ranges a day, its chatbot steps), components/ChatBots/options.js (the steps under a chatbot),
 * components/QueueOptions (the `/queue-options` tree), hooks/useQueues and the queue pickers
 * (QueueSelect, QueueSelectCustom, QueueSelectSingle, TicketsQueueSelect), kept live by the `queue` event.
 */
export default {
  area: 'queues and chatbots',
  calls: [
    {
      page: 'pages/Queues, hooks/useQueues, QueueSelect*',
      method: 'GET',
      path: '/queue',
      returns: 'array',
      reads: ['[].id', '[].name', '[].color', '[].orderQueue', '[].greetingMessage'],
    },
    {
      page: 'components/QueueModal (add)',
      method: 'POST',
      path: '/queue',
      status: 201,
      body: {
        name: 'Financeiro',
        color: '#aa3300',
        greetingMessage: 'Bem-vindo ao financeiro',
        outOfHoursMessage: 'Estamos fechados agora.',
        orderQueue: '',
        integrationId: '',
        chatbots: [],
        ...EDITOR_EXTRAS,
        schedules: WEEK,
      },
      reads: ['id', 'schedules[].weekdayEn', 'schedules[].startTimeA', 'schedules[].endTimeB', 'chatbots'],
      emits: [QUEUE_EVENT],
      note: '`orderQueue` comes as typed (`""`: not given), `integrationId: ""` means none, the hours as two ranges a day.',
    },
    {
      page: 'components/QueueModal (edit)',
      method: 'GET',
      path: '/queue/:queueId',
      reads: ['id', 'name', 'color', 'greetingMessage', 'outOfHoursMessage', 'orderQueue', 'integrationId', 'schedules', 'chatbots'],
    },
    {
      page: 'components/QueueModal (save, with a new chatbot step)',
      method: 'PUT',
      path: '/queue/:target',
      setup: async (p, api) => {
        const target = await queueNamed(api, 'Comercial');
        return { target, shown: JSON.stringify((await api.admin.get(`/queue/${target}`)).body) };
      },
      body: (p: Params) => ({
        ...JSON.parse(String(p.shown)),
        ...EDITOR_EXTRAS,
        orderQueue: '3',
        schedules: WEEK,
        chatbots: [{ name: 'Falar com vendas', greetingMessage: 'Um vendedor já vai atender', queueType: 'queue', optQueueId: p.queueId, closeTicket: false }],
      }),
      reads: [
        'chatbots[].id',
        'chatbots[].name',
        'chatbots[].greetingMessage',
        'chatbots[].queueType',
        'chatbots[].optQueueId',
        'chatbots[].optUserId',
        'chatbots[].closeTicket',
        'schedules[].startTimeB',
      ],
      emits: [QUEUE_EVENT],
      note: 'The editor sends the GET answer back with its chatbot steps and reads `chatbots` from the answer (the steps it shows next).',
    },
    {
      page: 'components/QueueModal (a step edited)',
      method: 'PUT',
      path: '/queue/:target',
      setup: async (p, api) => {
        const target = await queueNamed(api, 'Suporte N2');
        const saved = await api.admin.put(`/queue/${target}`, { chatbots: [{ name: 'Segunda via', queueType: 'text', greetingMessage: 'Segue o boleto' }] });
        return { target, stepId: saved.body.chatbots[0].id as number };
      },
      body: (p: Params) => ({
        name: 'Suporte N2',
        color: '#00aa55',
        schedules: WEEK,
        ...EDITOR_EXTRAS,
        chatbots: [
          { id: p.stepId, name: 'Segunda via do boleto', queueType: 'attendent', optUserId: p.userId, optQueueId: p.queueId, greetingMessage: 'Um momento' },
        ],
      }),
      reads: ['chatbots[].id', 'chatbots[].name', 'chatbots[].queueType', 'chatbots[].optUserId'],
      note: "An `attendent` step names the operator and, in the editor, the operator's first queue too: the operator counts.",
    },
    {
      page: 'components/ChatBots/options.js (load)',
      method: 'GET',
      path: '/chatbot/:chatbotId',
      setup: async (p, api) => {
        const saved = await api.admin.put(`/queue/${p.queueId}`, {
          chatbots: [{ name: 'Dúvidas gerais', queueType: 'text', greetingMessage: 'Escolha um assunto' }],
        });
        return { chatbotId: (saved.body.chatbots as { id: number; name: string }[]).find((c) => c.name === 'Dúvidas gerais')!.id };
      },
      reads: ['id', 'name', 'greetingMessage', 'queueType', 'optQueueId', 'options'],
    },
    {
      page: 'components/ChatBots/options.js (save the steps under it)',
      method: 'PUT',
      path: '/chatbot/:chatbotId',
      setup: async (p, api) => {
        const saved = await api.admin.put(`/queue/${p.queueId}`, { chatbots: [{ name: 'Horários', queueType: 'text', greetingMessage: 'Escolha' }] });
        const chatbotId = (saved.body.chatbots as { id: number; name: string }[]).find((c) => c.name === 'Horários')!.id;
        return { chatbotId, shown: JSON.stringify((await api.admin.get(`/chatbot/${chatbotId}`)).body) };
      },
      body: (p: Params) => ({
        ...JSON.parse(String(p.shown)),
        options: [
          { name: 'Sábado', greetingMessage: 'Das 8h às 12h', queueType: 'text', closeTicket: false, optQueueId: '', optUserId: null },
          { name: 'Atendente', greetingMessage: 'Transferindo', queueType: 'attendent', optUserId: p.userId, user: { id: p.userId } },
        ],
      }),
      reads: ['id'],
      note: 'It then reloads `GET /chatbot/:chatbotId` and reads `options[].name`, `options[].queueType`…',
    },
    {
      page: 'components/ChatBots/options.js (reload)',
      method: 'GET',
      path: '/chatbot/:chatbotId',
      setup: async (p, api) => {
        const saved = await api.admin.put(`/queue/${p.queueId}`, { chatbots: [{ name: 'Pagamentos', queueType: 'text', greetingMessage: 'Escolha' }] });
        const chatbotId = (saved.body.chatbots as { id: number; name: string }[]).find((c) => c.name === 'Pagamentos')!.id;
        await api.admin.put(`/chatbot/${chatbotId}`, { options: [{ name: 'Pix', queueType: 'queue', optQueueId: p.queueId }] });
        return { chatbotId };
      },
      reads: [
        'options[].id',
        'options[].name',
        'options[].greetingMessage',
        'options[].queueType',
        'options[].optQueueId',
        'options[].optUserId',
        'options[].closeTicket',
      ],
    },
    {
      page: 'components/QueueModal (delete a step)',
      method: 'DELETE',
      path: '/chatbot/:chatbotId',
      setup: async (p, api) => {
        const saved = await api.admin.put(`/queue/${p.queueId}`, { chatbots: [{ name: 'Descartável', queueType: 'text' }] });
        return { chatbotId: (saved.body.chatbots as { id: number; name: string }[]).find((c) => c.name === 'Descartável')!.id };
      },
    },
    {
      page: 'components/QueueOptions (first menu)',
      method: 'GET',
      path: '/queue-options',
      query: (p: Params) => ({ queueId: p.queueId, parentId: -1 }),
      setup: async (p, api) => {
        await api.admin.post('/queue-options', { title: 'Boletos', message: 'Sobre boletos', option: 7, queueId: p.queueId, parentId: null });
        return {};
      },
      returns: 'array',
      reads: ['[].id', '[].title', '[].message', '[].option', '[].parentId'],
    },
    {
      page: 'components/QueueOptions (add)',
      method: 'POST',
      path: '/queue-options',
      status: 201,
      body: (p: Params) => ({ title: 'Cancelamento', message: 'Vamos cancelar', option: 8, queueId: p.queueId, parentId: null, edition: true, children: [] }),
      reads: ['id'],
    },
    {
      page: 'components/QueueOptions (save)',
      method: 'PUT',
      path: '/queue-options/:optionId',
      setup: async (p, api) => {
        const created = await api.admin.post('/queue-options', { title: 'Planos', message: '', option: 9, queueId: p.queueId, parentId: null });
        return { optionId: created.body.id as number, option: JSON.stringify(created.body) };
      },
      body: (p: Params) => ({ ...JSON.parse(String(p.option)), title: 'Planos e preços', children: [], edition: false }),
    },
    {
      page: 'components/QueueOptions (a sub-menu)',
      method: 'GET',
      path: '/queue-options',
      setup: async (p, api) => {
        const parent = await api.admin.post('/queue-options', { title: 'Suporte técnico', option: 10, queueId: p.queueId, parentId: null });
        await api.admin.post('/queue-options', { title: 'Internet', option: 1, queueId: p.queueId, parentId: parent.body.id });
        return { parentOption: parent.body.id as number };
      },
      query: (p: Params) => ({ queueId: p.queueId, parentId: p.parentOption }),
      returns: 'array',
      reads: ['[].id', '[].title', '[].option'],
    },
    {
      page: 'components/QueueOptions (delete)',
      method: 'DELETE',
      path: '/queue-options/:optionId',
      setup: async (p, api) => ({
        optionId: (await api.admin.post('/queue-options', { title: 'Apagar', option: 11, queueId: p.queueId, parentId: null })).body.id as number,
      }),
    },
    {
      page: 'pages/Queues (delete)',
      method: 'DELETE',
      path: '/queue/:target',
      setup: async (p, api) => ({ target: await queueNamed(api, 'Temporária') }),
      emits: [{ event: 'queue', action: 'delete', reads: ['queueId'] }],
    },
  ],
} satisfies ClientCalls;
