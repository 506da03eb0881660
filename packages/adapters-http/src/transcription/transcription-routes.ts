import type { Application } from '@servicedesk/core';
import { TRANSCRIPTION_PROVIDERS } from '@servicedesk/core/transcription/credential';
import type { CredentialInput } from '@servicedesk/core/transcription/manage-credentials';
import { MAX_NAMED_MESSAGES } from '@servicedesk/core/transcription/transcribe-ticket';
import { z } from 'zod';
import { deletedSchema } from '../company-api/company-api-schemas.js';
import { ticketRef } from '../conversations/message-routes.js';
import { route, type RouteError } from '../http/route.js';
import { formBoolean, id, idParam } from '../http/schemas.js';
import { credentialListSchema, credentialSchema, savedCredentialSchema, transcriptionResultSchema } from './transcription-schemas.js';

type TranscriptionApp = Pick<Application, 'transcription'>;

const TAG = 'Dashboard, statistics, schedules, transcription';
const PLAN: RouteError = { status: 403, codes: ['ERR_PLAN_FEATURE_DISABLED'], description: "The company's plan lacks the AI feature (`useOpenAi`)" };
const ADMIN_ONLY: RouteError = {
  status: 403,
  codes: ['ERR_NO_PERMISSION', 'ERR_PLAN_FEATURE_DISABLED'],
  description: 'Admins only; and the plan must include AI (`useOpenAi`)',
};
const NOT_FOUND: RouteError = { status: 404, codes: ['ERR_NO_TRANSCRIPTION_CREDENTIAL_FOUND'] };
const TEST_ERRORS: RouteError[] = [
  {
    status: 422,
    codes: ['ERR_TRANSCRIPTION_PROVIDER_REFUSED', 'ERR_URL_NOT_ALLOWED', 'ERR_TRANSCRIPTION_CREDENTIAL_UNREADABLE'],
    description: 'With `test: true`: the service refused the test call, or its address is not public',
  },
  {
    status: 503,
    codes: ['ERR_TRANSCRIPTION_PROVIDER_UNAVAILABLE', 'ERR_TRANSCRIPTION_TIMEOUT'],
    description: 'With `test: true`: the service did not answer the test call',
  },
];
const FIELD_ERRORS: RouteError = {
  status: 422,
  codes: [
    'ERR_TRANSCRIPTION_INVALID_NAME',
    'ERR_TRANSCRIPTION_INVALID_BASE_URL',
    'ERR_TRANSCRIPTION_INVALID_MODEL',
    'ERR_TRANSCRIPTION_INVALID_LANGUAGE',
    'ERR_TRANSCRIPTION_INVALID_API_KEY',
    'ERR_TRANSCRIPTION_API_KEY_REQUIRED',
  ],
};
const NAME_TAKEN: RouteError = { status: 409, codes: ['ERR_TRANSCRIPTION_CREDENTIAL_NAME_IN_USE'] };

/** What a settings form sends: the credential's fields; on an edit the whole loaded credential may come back (read-only fields are ignored). */
const credentialBody = z
  .object({
    name: z.string().max(1000).meta({ description: 'Trimmed, 1 to 100 characters, unique in the company; required to create', example: 'OpenAI' }),
    provider: z.enum(TRANSCRIPTION_PROVIDERS).meta({ description: '`openai` (the default) or `openai-compatible`' }),
    baseUrl: z.string().max(2000).nullable().meta({
      description: 'Required with `openai-compatible` (e.g. `http://whisper.lan:8000/v1`); null or absent with `openai`: `https://api.openai.com/v1`',
    }),
    model: z.string().max(1000).nullable().meta({ description: 'Null or absent: `whisper-1`' }),
    language: z.string().max(100).nullable().meta({ description: 'ISO-639-1 (`pt`); null: detected by the service' }),
    apiKey: z
      .string()
      .max(10_000)
      .nullable()
      .meta({ description: 'Write-only: stored sealed, never shown. On an edit, absent keeps the stored key, null or `""` removes it' }),
    isDefault: formBoolean.meta({ description: "Make it the company's default (the first credential is anyway)" }),
    test: formBoolean.meta({ description: 'Call the service with half a second of silence first; if that fails nothing is saved' }),
  })
  .partial();

const input = (body: z.output<typeof credentialBody>): CredentialInput =>
  Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined)) as CredentialInput;

const messageId = z.string().min(1).max(64);

/**
 * Speech-to-text of audio messages (`POST /transcription/:ticketId`) and the company's credentials
 * for it: any OpenAI-compatible `/audio/transcriptions` service, the API key write-only.
 */
export function transcriptionRoutes(app: TranscriptionApp) {
  const t = app.transcription;
  const byId = idParam('id');
  return [
    route({
      method: 'GET',
      path: '/transcription-credentials',
      auth: 'isAuth',
      tag: TAG,
      operationId: 'listTranscriptionCredentials',
      summary: "The company's transcription credentials (admin)",
      description: 'Admins only. The default first, then by name. Keys are never shown (`hasApiKey`, `apiKeyLast4`).',
      response: credentialListSchema,
      errors: [ADMIN_ONLY],
      handler: async ({ actor }) => t.listTranscriptionCredentials.execute({ actor }),
    }),
    route({
      method: 'GET',
      path: '/transcription-credentials/default',
      auth: 'isAuth',
      tag: TAG,
      operationId: 'showDefaultTranscriptionCredential',
      summary: 'The credential audio is transcribed with by default',
      description: 'Any user of the company (a client asks it to know whether to offer transcription). 404 when the company has none.',
      response: credentialSchema,
      errors: [PLAN, NOT_FOUND],
      handler: async ({ actor }) => t.showDefaultTranscriptionCredential.execute({ actor }),
    }),
    route({
      method: 'PUT',
      path: '/transcription-credentials/default',
      auth: 'isAuth',
      tag: TAG,
      operationId: 'setDefaultTranscriptionCredential',
      summary: 'Choose the default credential (admin)',
      body: z
        .object({
          id: id.optional().meta({ description: 'The credential to make the default' }),
          credentialId: id.optional().meta({ description: 'The same, under another name' }),
        })
        .refine((b) => b.id !== undefined || b.credentialId !== undefined, { message: 'give id', path: ['id'] })
        .meta({ example: { id: 3 } }),
      description: 'Admins only. Exactly one credential of the company is the default afterwards, whatever else happens at the same time.',
      response: credentialSchema,
      errors: [ADMIN_ONLY, NOT_FOUND],
      handler: async ({ actor, body }) => t.setDefaultTranscriptionCredential.execute({ actor, credentialId: (body.id ?? body.credentialId)! }),
    }),
    route({
      method: 'POST',
      path: '/transcription-credentials',
      auth: 'isAuth',
      tag: TAG,
      operationId: 'createTranscriptionCredential',
      summary: 'Add a transcription credential (admin)',
      body: credentialBody.required({ name: true }).meta({
        example: { name: 'OpenAI', provider: 'openai', model: 'whisper-1', language: 'pt', apiKey: 'sk-proj-8Xq2vTn5R1wLm7Kc', isDefault: true, test: true },
      }),
      description:
        "Admins only. Any service that speaks OpenAI's `POST /audio/transcriptions`. The key is sealed (AES-256-GCM) before it is stored " +
        "and never shown again. The company's first credential becomes its default. `test: true` calls the service with half a second of silence " +
        "first and answers its outcome in `test`; a failed test saves nothing and answers the service's error.",
      response: savedCredentialSchema,
      errors: [ADMIN_ONLY, FIELD_ERRORS, NAME_TAKEN, ...TEST_ERRORS],
      handler: async ({ actor, body }) => t.createTranscriptionCredential.execute({ ...input(body), actor, name: body.name }),
    }),
    route({
      method: 'PUT',
      path: '/transcription-credentials/:id',
      auth: 'isAuth',
      tag: TAG,
      operationId: 'updateTranscriptionCredential',
      summary: 'Edit a transcription credential, or test it (admin)',
      params: byId,
      body: credentialBody.meta({ example: { language: 'es', test: true } }),
      description:
        'Admins only. Only the fields sent change; the key only when `apiKey` is sent. `isDefault: true` makes it the default (the default stops ' +
        'being it only when another one becomes it). `test: true` calls the service with the credential as edited (the stored key unless a new one is ' +
        'sent) before saving: `{ "test": true }` alone tests the stored credential.',
      response: savedCredentialSchema,
      errors: [ADMIN_ONLY, NOT_FOUND, FIELD_ERRORS, NAME_TAKEN, ...TEST_ERRORS],
      handler: async ({ actor, params, body }) => t.updateTranscriptionCredential.execute({ ...input(body), actor, credentialId: params.id }),
    }),
    route({
      method: 'DELETE',
      path: '/transcription-credentials/:id',
      auth: 'isAuth',
      tag: TAG,
      operationId: 'deleteTranscriptionCredential',
      summary: 'Remove a transcription credential (admin)',
      params: byId,
      description:
        "Admins only. The default goes only when it is the company's last credential (choose another default first). Background jobs " +
        'still waiting to use it fail with `ERR_NO_TRANSCRIPTION_CREDENTIAL_FOUND`.',
      response: deletedSchema,
      errors: [ADMIN_ONLY, NOT_FOUND, { status: 409, codes: ['ERR_TRANSCRIPTION_CREDENTIAL_IS_DEFAULT'] }],
      handler: async ({ actor, params }) => {
        await t.deleteTranscriptionCredential.execute({ actor, credentialId: params.id });
        return { message: 'Transcription credential deleted' };
      },
    }),
    route({
      method: 'POST',
      path: '/transcription/:ticketId',
      auth: 'isAuth',
      tag: TAG,
      operationId: 'transcribeTicket',
      summary: "Transcribe a ticket's audio messages (or those named)",
      params: ticketRef,
      body: z
        .object({
          messageId: messageId.optional().meta({ description: 'One audio message of the ticket' }),
          messageIds: z
            .array(messageId)
            .min(1)
            .max(MAX_NAMED_MESSAGES)
            .optional()
            .meta({ description: "Audio messages of the ticket; neither: the ticket's newest 100" }),
          language: z.string().max(100).nullable().optional().meta({ description: "ISO-639-1; absent: the credential's, else detected" }),
          credentialId: id.optional().meta({ description: 'A credential of the company; absent: the default' }),
          force: formBoolean.optional().meta({ description: 'Transcribe again messages already transcribed (their stored text is answered otherwise)' }),
        })
        .meta({ example: { messageIds: ['3f2b8c4e-6a1d-4e7f-9b0c-2d5e8f1a4b7c'], language: 'pt' } }),
      description:
        'Anyone who may read the ticket (as `GET /messages/:ticketId`; its id or uuid). Short audio (up to `TRANSCRIPTION_INLINE_MAX_BYTES` in all, ' +
        'at most three messages) is transcribed while the request waits: 200 with each text. Longer audio goes to a background job: 202 with ' +
        '`status: queued` and the `job`, whose progress comes as `transcription` frames (action `update`). Each transcript is stored on its message ' +
        '(`transcription`; the body stays) and sent as an `appMessage` `update`. When nothing could be transcribed the first failure is the answer.',
      response: transcriptionResultSchema,
      errors: [
        { status: 403, codes: ['ERR_NO_PERMISSION', 'ERR_PLAN_FEATURE_DISABLED'], description: 'A ticket the user may not read; a plan without AI' },
        { status: 404, codes: ['ERR_NO_TICKET_FOUND', 'ERR_NO_MESSAGE_FOUND', 'ERR_NO_TRANSCRIPTION_CREDENTIAL_FOUND', 'ERR_AUDIO_NOT_FOUND'] },
        {
          status: 422,
          codes: [
            'ERR_TRANSCRIPTION_CREDENTIAL_REQUIRED',
            'ERR_MESSAGE_NOT_AUDIO',
            'ERR_TRANSCRIPTION_INVALID_LANGUAGE',
            'ERR_TRANSCRIPTION_CREDENTIAL_UNREADABLE',
            'ERR_TRANSCRIPTION_PROVIDER_REFUSED',
            'ERR_URL_NOT_ALLOWED',
          ],
          description: '`ERR_TRANSCRIPTION_CREDENTIAL_REQUIRED`: the company has no credential (an admin adds one)',
        },
        { status: 413, codes: ['ERR_AUDIO_TOO_LARGE'], description: 'Over the 25 MB a service takes in one request' },
        { status: 503, codes: ['ERR_TRANSCRIPTION_PROVIDER_UNAVAILABLE', 'ERR_TRANSCRIPTION_TIMEOUT'] },
      ],
      handler: async ({ actor, params, body, ctx }) => {
        const messageIds = body.messageIds ?? (body.messageId ? [body.messageId] : undefined);
        const result = await t.transcribeTicket.execute({
          actor,
          ticketId: params.ticketId,
          ...(messageIds ? { messageIds } : {}),
          ...(body.language !== undefined ? { language: body.language } : {}),
          ...(body.credentialId !== undefined ? { credentialId: body.credentialId } : {}),
          force: body.force ?? false,
        });
        if (result.status === 'queued') ctx.state.responseStatus = 202;
        return result;
      },
    }),
  ];
}
