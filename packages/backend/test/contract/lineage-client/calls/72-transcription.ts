import { expect } from 'chai';
import { startFakeSpeechProvider } from '@servicedesk/core/contracts/fake-speech-provider';
import type { CallerApis, ClientCalls, Params } from '../client-call.js';

/**
 * Transcription. The mirrored lineage client has no transcription screen (its forks transcribe from
 * the audio player of the conversation, `components/MessagesList`, and keep the OpenAI key in a
 * settings page), so these entries are the calls such a client makes, in our shapes: the settings
 * page's credential list and modal (create with a test call, edit, default, delete), the conversation's
 * check that transcription is available, and its "Transcrever" button on a voice note, which then
 * shows the text the `appMessage` `update` brings. The service is a fake OpenAI-compatible one on
 * loopback (the contract's backend allows private addresses for it).
 */

const KEY = 'sk-proj-lineage-contract-0072';
/** What the settings list and modal read of a credential. */
const CREDENTIAL = ['id', 'name', 'provider', 'baseUrl', 'model', 'language', 'isDefault', 'hasApiKey', 'apiKeyLast4'];

let baseUrl = '';
let n = 0;

/** A credential of its own on the fake service, for an entry that edits, promotes or deletes it. */
async function ownCredential(api: CallerApis): Promise<Params> {
  n += 1;
  const res = await api.admin.post('/transcription-credentials', { name: `Whisper ${n}`, provider: 'openai-compatible', baseUrl, apiKey: KEY });
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
  return { target: res.body.id as number };
}

/** A conversation of the admin's with a voice note in it (a ticket of its own: the shared conversation stays as it is). */
async function voiceNote(api: CallerApis): Promise<Params> {
  n += 1;
  const ticket = await api.inbound(`55119777700${70 + n}`, 'Vou mandar um áudio');
  const form = new FormData();
  form.append('medias', new Blob([Buffer.alloc(2_000, 9)], { type: 'audio/ogg; codecs=opus' }), 'audio.ogg');
  const sent = await api.admin.post(`/messages/${ticket.id}`, form);
  expect(sent.status, JSON.stringify(sent.body)).to.equal(200);
  return { voiceTicketId: ticket.id as number, voiceId: sent.body.messages[0].id as string };
}

export default {
  area: 'transcription',
  async prepare(_p, api) {
    const fake = await startFakeSpeechProvider({ keys: [KEY] });
    baseUrl = fake.baseUrl;
    const res = await api.admin.post('/transcription-credentials', { name: 'Whisper', provider: 'openai-compatible', baseUrl, apiKey: KEY, language: 'pt' });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return { transcriptionCredentialId: res.body.id as number };
  },
  calls: [
    {
      page: 'pages/Settings (transcription credentials)',
      method: 'GET',
      path: '/transcription-credentials',
      as: 'admin',
      returns: 'array',
      reads: CREDENTIAL.map((f) => `[].${f}`),
      note: 'the key is never in the answer: `hasApiKey` and `apiKeyLast4` tell the admin which one is stored',
    },
    {
      page: 'components/MessagesList (is transcription offered?)',
      method: 'GET',
      path: '/transcription-credentials/default',
      as: 'user',
      reads: ['id', 'name'],
      note: 'any operator may ask; a 404 means the company has no credential and the button stays hidden',
    },
    {
      page: 'components/TranscriptionCredentialModal (new, tested)',
      method: 'POST',
      path: '/transcription-credentials',
      as: 'admin',
      body: () => ({
        name: 'Whisper testado',
        provider: 'openai-compatible',
        baseUrl,
        model: 'whisper-1',
        language: 'pt',
        apiKey: KEY,
        isDefault: false,
        test: true,
      }),
      reads: [...CREDENTIAL, 'test.ok', 'test.latencyMs'],
      note: 'the test call goes to the service before anything is saved; a refusal would be the answer (422 `ERR_TRANSCRIPTION_PROVIDER_REFUSED`)',
    },
    {
      page: 'components/TranscriptionCredentialModal (edit)',
      method: 'PUT',
      path: '/transcription-credentials/:target',
      as: 'admin',
      setup: async (_p, api) => ownCredential(api),
      body: (p: Params) => ({
        id: p.target,
        name: 'Whisper editado',
        provider: 'openai-compatible',
        baseUrl,
        model: 'whisper-1',
        language: 'pt',
        hasApiKey: true,
        apiKeyLast4: '0072',
        isDefault: false,
      }),
      reads: ['id', 'name', 'hasApiKey'],
      note: 'the modal sends the loaded credential back without `apiKey`: the stored key stays',
    },
    {
      page: 'pages/Settings (make default)',
      method: 'PUT',
      path: '/transcription-credentials/default',
      as: 'admin',
      setup: async (_p, api) => ownCredential(api),
      body: (p: Params) => ({ id: p.target }),
      reads: ['id', 'isDefault'],
    },
    {
      page: 'pages/Settings (delete)',
      method: 'DELETE',
      path: '/transcription-credentials/:target',
      as: 'admin',
      setup: async (_p, api) => ownCredential(api),
      reads: ['message'],
    },
    {
      page: 'components/MessagesList (audio: Transcrever)',
      method: 'POST',
      path: '/transcription/:voiceTicketId',
      as: 'admin',
      setup: async (_p, api) => voiceNote(api),
      body: (p: Params) => ({ messageId: p.voiceId }),
      reads: ['status', 'transcriptions[].messageId', 'transcriptions[].status', 'transcriptions[].text'],
      emits: [{ event: 'appMessage', action: 'update', reads: ['message.id', 'message.ticketId', 'message.transcription'] }],
      note: 'a short voice note is transcribed while the request waits; the text also reaches every screen showing the conversation',
    },
    {
      page: 'components/MessagesList (not a voice note)',
      method: 'POST',
      path: '/transcription/:ticketId',
      as: 'admin',
      status: 422,
      body: (p: Params) => ({ messageId: p.messageId }),
      reads: ['error'],
      note: '`ERR_MESSAGE_NOT_AUDIO`: only audio messages are transcribed',
    },
  ],
} satisfies ClientCalls;
