import type { CallerApis, ClientCalls, Params } from '../client-call.js';

/** What the integration editor holds for every type (it sends all of it, whatever the type). */
const EDITOR = {
  projectName: '',
  jsonContent: '',
  language: '',
  typebotDelayMessage: 1000,
  typebotExpires: 1,
  typebotKeywordFinish: '',
  typebotKeywordRestart: '',
  typebotRestartMessage: '',
  typebotSlug: '',
  typebotUnknownMessage: '',
};

async function integrationNamed(api: CallerApis, name: string): Promise<number> {
  const created = await api.admin.post('/queueIntegration', { ...EDITOR, type: 'webhook', name, projectName: name, urlN8N: 'https://hooks.example.com/in' });
  if (created.status !== 201) throw new Error(`creating ${name}: ${created.status} ${JSON.stringify(created.body)}`);
  return created.body.id as number;
}

const ROW = ['queueIntegrations[].id', 'queueIntegrations[].name', 'queueIntegrations[].type'];

/**
 * Queue integrations: pages/QueueIntegration (kept live by the `queueIntegration` event),
 * components/QueueIntegrationModal, hooks/useQueueIntegrations, and the integration pickers of the
 * queue and connection editors.
 */
export default {
  area: 'integrations',
  prepare: async (p, api) => ({ integrationId: await integrationNamed(api, 'Robô de triagem') }),
  calls: [
    {
      page: 'pages/QueueIntegration',
      method: 'GET',
      path: '/queueIntegration/',
      query: { searchParam: '', pageNumber: 1 },
      reads: [...ROW, 'hasMore'],
    },
    {
      page: 'hooks/useQueueIntegrations, QueueModal, WhatsAppModal',
      method: 'GET',
      path: '/queueIntegration',
      reads: ROW,
    },
    {
      page: 'components/QueueIntegrationModal (edit)',
      method: 'GET',
      path: '/queueIntegration/:integrationId',
      reads: [
        'id',
        'type',
        'name',
        'projectName',
        'language',
        'urlN8N',
        'typebotSlug',
        'typebotExpires',
        'typebotDelayMessage',
        'typebotKeywordFinish',
        'typebotKeywordRestart',
        'typebotUnknownMessage',
        'typebotRestartMessage',
      ],
    },
    {
      page: 'components/QueueIntegrationModal (add n8n)',
      method: 'POST',
      path: '/queueIntegration',
      status: 201,
      body: { ...EDITOR, type: 'n8n', name: 'Fluxo n8n', projectName: 'Fluxo n8n', urlN8N: 'https://n8n.example.com/webhook/abc' },
      reads: ['id'],
      emits: [{ event: 'queueIntegration', action: 'create', reads: ['queueIntegration.id', 'queueIntegration.name', 'queueIntegration.type'] }],
      note: 'The editor sends `urlN8N` for the address and `projectName` = `name` for the webhook-like types.',
    },
    {
      page: 'components/QueueIntegrationModal (add Typebot)',
      method: 'POST',
      path: '/queueIntegration',
      status: 201,
      body: {
        ...EDITOR,
        type: 'typebot',
        name: 'Typebot vendas',
        projectName: 'Typebot vendas',
        urlN8N: 'https://typebot.example.com',
        typebotSlug: 'vendas',
        typebotKeywordFinish: 'sair',
        typebotUnknownMessage: 'Não entendi',
      },
      reads: ['id', 'typebotSlug', 'typebotKeywordFinish'],
    },
    {
      page: 'components/QueueIntegrationModal (save an edit)',
      method: 'PUT',
      path: '/queueIntegration/:target',
      setup: async (p, api) => {
        const target = await integrationNamed(api, 'Editar integração');
        return { target, shown: JSON.stringify((await api.admin.get(`/queueIntegration/${target}`)).body) };
      },
      body: (p: Params) => ({ ...EDITOR, ...JSON.parse(String(p.shown)), name: 'Integração editada', projectName: 'Integração editada' }),
      emits: [{ event: 'queueIntegration', action: 'update', reads: ['queueIntegration.id', 'queueIntegration.name'] }],
      note: 'The editor sends the GET answer back, merged over its own fields.',
    },
    {
      page: 'pages/QueueIntegration (delete)',
      method: 'DELETE',
      path: '/queueIntegration/:target',
      setup: async (p, api) => ({ target: await integrationNamed(api, 'Apagar integração') }),
      emits: [{ event: 'queueIntegration', action: 'delete', reads: ['integrationId'] }],
    },
  ],
} satisfies ClientCalls;
