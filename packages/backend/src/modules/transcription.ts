import { OpenAiSpeechToText, transcriptionRoutes } from '@servicedesk/adapters-http';
import { createTranscription, type TranscriptionApi } from '@servicedesk/core/compose/transcription';
import { feature, type Feature } from './feature.js';
import { PERSISTENCE_FEATURES, tablesOf } from '@servicedesk/adapters-persistence/features';

/**
 * Speech-to-text of audio messages through each company's credentials (any OpenAI-compatible
 * `/audio/transcriptions` service; keys sealed with the platform's SecretCipher). Short audio is
 * transcribed while the request waits; longer audio by a one-off job (`transcription.run`), and an
 * hourly job forgets finished ones. The transcripts' column on `messages` is in the released history
 * (`m0021-message-transcription`).
 */
export const transcription: Feature<object, { transcription: TranscriptionApi }> = feature({
  name: 'transcription',
  ...tablesOf(PERSISTENCE_FEATURES.transcription),
  ports: ({ infra, config }) => ({
    ...PERSISTENCE_FEATURES.transcription.repositories(infra.db.orm),
    speechToText: new OpenAiSpeechToText({ allowPrivate: config.allowPrivateUrls, timeoutMs: config.transcription.timeoutMs }),
    transcriptionSettings: config.transcription,
  }),
  api: (ports) => ({ transcription: createTranscription(ports) }),
  routes: (app) => transcriptionRoutes(app),
  jobs: (app) => app.transcription.jobs(),
});
