import { TRANSCRIPTION_PROVIDERS } from '@servicedesk/core/transcription/credential';
import { TRANSCRIPTION_JOB_STATUSES } from '@servicedesk/core/transcription/transcription-job';
import { z } from 'zod';

/**
 * What the transcription routes answer (packages/core/src/transcription): credentials with their
 * key write-only, background jobs with their status, and the outcome of each message.
 */

const timestamp = z.iso.datetime();
const code = z.string().regex(/^ERR_[A-Z0-9_]+$/);

const CREDENTIAL_EXAMPLE = {
  id: 3,
  companyId: 1,
  name: 'OpenAI',
  provider: 'openai' as const,
  baseUrl: 'https://api.openai.com/v1',
  model: 'whisper-1',
  language: 'pt',
  isDefault: true,
  hasApiKey: true,
  apiKeyLast4: 'x9Qe',
  createdAt: '2025-11-27T18:00:00.000Z',
  updatedAt: '2025-11-27T18:00:00.000Z',
};

const credentialFields = {
  id: z.number().int().positive().meta({ example: 3 }),
  companyId: z.number().int().positive().meta({ example: 1 }),
  name: z.string().meta({ description: 'Unique in the company, without regard to case', example: 'OpenAI' }),
  provider: z
    .enum(TRANSCRIPTION_PROVIDERS)
    .meta({ description: '`openai`, or `openai-compatible` for any service with the same API (a local Whisper server…)', example: 'openai' }),
  baseUrl: z.string().meta({ description: 'Requests go to `<baseUrl>/audio/transcriptions`', example: 'https://api.openai.com/v1' }),
  model: z.string().meta({ example: 'whisper-1' }),
  language: z.string().nullable().meta({ description: 'ISO-639-1 code sent with each audio; null: detected by the service', example: 'pt' }),
  isDefault: z.boolean().meta({ description: 'Used when a request names no credential; one per company', example: true }),
  hasApiKey: z.boolean().meta({ description: 'A key is stored (it is never shown)', example: true }),
  apiKeyLast4: z
    .string()
    .nullable()
    .meta({ description: "The key's last four characters, to tell keys apart (null for none or a short key)", example: 'x9Qe' }),
  createdAt: timestamp,
  updatedAt: timestamp,
};

export const credentialSchema = z.object(credentialFields).meta({
  id: 'TranscriptionCredential',
  description: "Where a company's audio is transcribed; the API key is write-only",
  example: CREDENTIAL_EXAMPLE,
});

export const credentialListSchema = z
  .array(credentialSchema)
  .meta({ description: "The company's credentials, the default first, then by name", example: [CREDENTIAL_EXAMPLE] });

export const savedCredentialSchema = z
  .object({
    ...credentialFields,
    test: z
      .object({
        ok: z.literal(true),
        latencyMs: z.number().int().nonnegative().meta({ description: 'How long the service took', example: 640 }),
        text: z.string().meta({ description: 'What it heard in half a second of silence (often nothing)', example: '' }),
      })
      .optional()
      .meta({ description: 'With `test: true`: the test call went through (when it does not, nothing is saved and its error is the answer)' }),
  })
  .meta({
    id: 'SavedTranscriptionCredential',
    description: "The credential as saved, with the test call's outcome when one was asked for",
    example: { ...CREDENTIAL_EXAMPLE, test: { ok: true, latencyMs: 640, text: '' } },
  });

const JOB_EXAMPLE = {
  id: '0b6f3c2e-8f5c-4a57-9d0e-1c2b3a4d5e6f',
  ticketId: 42,
  status: 'running' as const,
  total: 2,
  done: 1,
  failed: 0,
  items: [
    { messageId: '3f2b8c4e-6a1d-4e7f-9b0c-2d5e8f1a4b7c', status: 'done' as const, error: null },
    { messageId: '7a1c9e2d-3b4f-4c5d-8e6f-0a1b2c3d4e5f', status: 'pending' as const, error: null },
  ],
  error: null,
  createdAt: '2025-11-27T18:00:00.000Z',
  updatedAt: '2025-11-27T18:00:20.000Z',
  finishedAt: null,
};

export const transcriptionJobSchema = z
  .object({
    id: z.string().meta({ description: "The job's id (a uuid)" }),
    ticketId: z.number().int().positive(),
    status: z.enum(TRANSCRIPTION_JOB_STATUSES).meta({ description: '`queued`, `running`, then `done` (some or all transcribed) or `failed` (none could be)' }),
    total: z.number().int().nonnegative(),
    done: z.number().int().nonnegative(),
    failed: z.number().int().nonnegative(),
    items: z
      .array(
        z.object({
          messageId: z.string(),
          status: z.enum(['pending', 'done', 'failed']),
          error: code.nullable().meta({ description: 'Why it failed (`ERR_TRANSCRIPTION_PROVIDER_REFUSED`…)' }),
        }),
      )
      .meta({ description: 'Each message, oldest first' }),
    error: code.nullable().meta({ description: 'Why the whole job failed, when it did' }),
    createdAt: timestamp,
    updatedAt: timestamp,
    finishedAt: timestamp.nullable(),
  })
  .meta({ id: 'TranscriptionJob', description: 'A background transcription of long audio, and how far it got', example: JOB_EXAMPLE });

const OUTCOME_EXAMPLE = {
  messageId: '3f2b8c4e-6a1d-4e7f-9b0c-2d5e8f1a4b7c',
  status: 'done' as const,
  text: 'Oi, tudo bem? Queria saber do meu pedido.',
  cached: false,
  error: null,
  jobId: null,
};

export const transcriptionResultSchema = z
  .object({
    ticketId: z.number().int().positive(),
    status: z
      .enum(['done', 'queued'])
      .meta({ description: '`done` (200): every outcome is here; `queued` (202): a background job transcribes some of them (see `job`)' }),
    job: transcriptionJobSchema.nullable().meta({ description: 'The job this request started, or the one already transcribing a message it named' }),
    transcriptions: z
      .array(
        z.object({
          messageId: z.string(),
          status: z.enum(['done', 'failed', 'queued', 'running']),
          text: z.string().nullable().meta({ description: 'What was heard (`done`)' }),
          cached: z.boolean().meta({ description: 'Already transcribed: the stored text, the service was not asked again (`force: true` asks again)' }),
          error: code.nullable().meta({ description: 'Why it failed (`failed`)' }),
          jobId: z.string().nullable().meta({ description: 'The background job transcribing it (`queued`, `running`)' }),
        }),
      )
      .meta({ description: 'One per audio message, oldest first' }),
  })
  .meta({
    id: 'TranscriptionResult',
    description: 'What became of each audio message of the request',
    example: { ticketId: 42, status: 'done', job: null, transcriptions: [OUTCOME_EXAMPLE] },
  });
