import type { ClientCalls } from '../client-call.js';

const API_TOKEN = 'contract-api-token-0123456789';
const bearer = { authorization: `Bearer ${API_TOKEN}` };

/**
 * pages/MessagesAPI: the page that tries the official API with a connection's "Token API", as text
 * (JSON) and as media (multipart with one `medias` file); it sends `userId` and `queueId` empty
 * when none is chosen and shows the answer (or the error) as it comes.
 */
export default {
  area: 'official message API',
  async prepare(_p, api) {
    const created = await api.super.post('/chatapp/', { name: 'API', provider: 'sandbox', token: API_TOKEN });
    if (created.status !== 201) throw new Error(`connection for the API: ${created.status} ${JSON.stringify(created.body)}`);
    return { apiChatappId: created.body.id };
  },
  calls: [
    {
      page: 'pages/MessagesAPI (text)',
      method: 'POST',
      path: '/api/messages/send',
      as: 'public',
      headers: bearer,
      body: { number: '5511977770009', body: 'Mensagem pela API', userId: '', queueId: '' },
      reads: ['status', 'ticketId'],
    },
    {
      page: 'pages/MessagesAPI (media)',
      method: 'POST',
      path: '/api/messages/send',
      as: 'public',
      headers: bearer,
      form: {
        fields: { number: '5511977770009', body: 'nota.txt', userId: '', queueId: '' },
        files: [{ field: 'medias', name: 'nota.txt', type: 'text/plain', content: 'conteúdo da nota' }],
      },
      reads: ['status'],
    },
    {
      page: 'pages/MessagesAPI (wrong token)',
      method: 'POST',
      path: '/api/messages/send',
      as: 'public',
      headers: { authorization: 'Bearer not-a-token-of-any-connection' },
      body: { number: '5511977770009', body: 'x', userId: '', queueId: '' },
      status: 401,
      reads: ['error'],
      note: 'the page shows the error the server gives',
    },
  ],
} satisfies ClientCalls;
