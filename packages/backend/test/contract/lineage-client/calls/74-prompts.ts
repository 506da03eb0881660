import type { CallerApis, ClientCalls, Params } from '../client-call.js';

/**
 * Prompts: the lineage's Prompts page (list, delete, the `company-<id>-prompt` frames it listens for)
 * and PromptModal (open, create, edit). The modal posts every form field, numbers as the text fields
 * hold them once edited, the Azure voice fields empty, and on an edit sends the loaded prompt back
 * with the key field empty.
 */

const KEY = 'sk-proj-lineage-contract-0074';
/** What the page's table and the modal read of a prompt. */
const PROMPT = ['id', 'name', 'prompt', 'queueId', 'queue.name', 'maxTokens', 'temperature', 'maxMessages', 'voice'];

let n = 0;
/** A prompt of its own, for an entry that edits or deletes it. */
async function ownPrompt(p: Params, api: CallerApis): Promise<Params> {
  n += 1;
  const res = await api.admin.post('/prompt', modalForm(p, { name: `Assistente ${n}` }));
  if (res.status !== 200) throw new Error(`prompt: ${res.status} ${JSON.stringify(res.body)}`);
  return { target: res.body.id as number };
}

/** What PromptModal submits: its initial state merged with what the user typed. */
function modalForm(p: Params, fields: Record<string, unknown> = {}) {
  return {
    name: 'Assistente de vendas',
    prompt: 'Você é o assistente de vendas da Loja Exemplo. Responda em português, de forma breve e cordial.',
    voice: 'texto',
    voiceKey: '',
    voiceRegion: '',
    maxTokens: '300',
    temperature: '0.8',
    apiKey: KEY,
    queueId: p.queueId,
    maxMessages: 10,
    ...fields,
  };
}

export default {
  area: 'prompts',
  async prepare(p, api) {
    const res = await api.admin.post('/prompt', modalForm(p));
    if (res.status !== 200) throw new Error(`prompt: ${res.status} ${JSON.stringify(res.body)}`);
    return { promptId: res.body.id as number };
  },
  calls: [
    {
      page: 'pages/Prompts',
      method: 'GET',
      path: '/prompt',
      as: 'admin',
      reads: ['prompts', ...PROMPT.map((f) => `prompts[].${f}`)],
      note: 'the table shows `queue.name`: a prompt whose queue was deleted has `queue: null`',
    },
    {
      page: 'components/PromptModal (open)',
      method: 'GET',
      path: '/prompt/:promptId',
      as: 'admin',
      reads: PROMPT,
      note: "the key is never in the answer (`hasApiKey`, `apiKeyLast4`): the modal's key field stays empty",
    },
    {
      page: 'components/PromptModal (create)',
      method: 'POST',
      path: '/prompt',
      as: 'admin',
      body: (p: Params) => modalForm(p, { name: 'Assistente de suporte' }),
      reads: PROMPT,
      emits: [{ event: 'prompt', action: 'create', reads: ['prompt.id', 'prompt.name', 'prompt.queue.name', 'prompt.maxTokens'] }],
    },
    {
      page: 'components/PromptModal (edit)',
      method: 'PUT',
      path: '/prompt/:target',
      as: 'admin',
      setup: async (p, api) => ownPrompt(p, api),
      body: (p: Params) => ({
        ...modalForm(p),
        id: p.target,
        apiKey: '',
        hasApiKey: true,
        apiKeyLast4: '0074',
        queue: { id: p.queueId, name: 'x' },
        promptTokens: 0,
        maxTokens: '450',
      }),
      reads: PROMPT,
      emits: [{ event: 'prompt', action: 'update', reads: ['prompt.id', 'prompt.maxTokens'] }],
      note: 'the modal merges the loaded prompt into its form: read-only fields come back and are ignored; the empty key keeps the stored one',
    },
    {
      page: 'pages/Prompts (delete)',
      method: 'DELETE',
      path: '/prompt/:target',
      as: 'admin',
      setup: async (p, api) => ownPrompt(p, api),
      reads: ['message'],
      emits: [{ event: 'prompt', action: 'delete', reads: ['promptId'] }],
      note: 'the page shows `message` through i18n and removes the row on the `delete` frame',
    },
  ],
} satisfies ClientCalls;
