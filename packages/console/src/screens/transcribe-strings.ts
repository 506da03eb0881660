import type { ScreenStrings } from '../i18n/screen-strings.js';

/** The i18next namespace of the conversation's "Transcribe" (its texts load with the conversation). */
export const TRANSCRIBE_NS = 'transcribe';

/** The transcription refusals an operator or an admin may meet, in words (shared with the transcription screen). */
const codesEn = {
  ERR_TRANSCRIPTION_CREDENTIAL_REQUIRED: 'No transcription service is set up yet: an administrator adds one under Manage → Transcription.',
  ERR_TRANSCRIPTION_PROVIDER_REFUSED: 'The transcription service refused the request: check its key, model and address.',
  ERR_TRANSCRIPTION_PROVIDER_UNAVAILABLE: 'The transcription service is not answering. Try again in a moment.',
  ERR_TRANSCRIPTION_TIMEOUT: 'The transcription service took too long to answer. Try again in a moment.',
  ERR_TRANSCRIPTION_CREDENTIAL_UNREADABLE: 'The saved key can no longer be read: an administrator enters it again.',
  ERR_URL_NOT_ALLOWED: 'The service’s address is not public, and this server only calls public addresses.',
  ERR_AUDIO_TOO_LARGE: 'This audio is over the 25 MB a transcription service takes.',
  ERR_AUDIO_NOT_FOUND: 'This audio’s file is no longer stored.',
  ERR_MESSAGE_NOT_AUDIO: 'This message is not an audio.',
  ERR_NO_TRANSCRIPTION_CREDENTIAL_FOUND: 'This transcription service is no longer configured.',
  ERR_PLAN_FEATURE_DISABLED: 'The company’s plan does not include transcription (AI).',
};

export const transcriptionCodes: ScreenStrings<typeof codesEn> = {
  en: codesEn,
  'pt-BR': {
    ERR_TRANSCRIPTION_CREDENTIAL_REQUIRED: 'Nenhum serviço de transcrição configurado: um administrador adiciona um em Gerenciar → Transcrição.',
    ERR_TRANSCRIPTION_PROVIDER_REFUSED: 'O serviço de transcrição recusou o pedido: confira a chave, o modelo e o endereço.',
    ERR_TRANSCRIPTION_PROVIDER_UNAVAILABLE: 'O serviço de transcrição não está respondendo. Tente de novo em instantes.',
    ERR_TRANSCRIPTION_TIMEOUT: 'O serviço de transcrição demorou demais para responder. Tente de novo em instantes.',
    ERR_TRANSCRIPTION_CREDENTIAL_UNREADABLE: 'A chave salva não pode mais ser lida: um administrador a informa de novo.',
    ERR_URL_NOT_ALLOWED: 'O endereço do serviço não é público, e este servidor só chama endereços públicos.',
    ERR_AUDIO_TOO_LARGE: 'Este áudio passa dos 25 MB que um serviço de transcrição aceita.',
    ERR_AUDIO_NOT_FOUND: 'O arquivo deste áudio não está mais guardado.',
    ERR_MESSAGE_NOT_AUDIO: 'Esta mensagem não é um áudio.',
    ERR_NO_TRANSCRIPTION_CREDENTIAL_FOUND: 'Este serviço de transcrição não está mais configurado.',
    ERR_PLAN_FEATURE_DISABLED: 'O plano da empresa não inclui transcrição (IA).',
  },
  es: {
    ERR_TRANSCRIPTION_CREDENTIAL_REQUIRED: 'Todavía no hay un servicio de transcripción: un administrador lo agrega en Administrar → Transcripción.',
    ERR_TRANSCRIPTION_PROVIDER_REFUSED: 'El servicio de transcripción rechazó el pedido: revise su clave, modelo y dirección.',
    ERR_TRANSCRIPTION_PROVIDER_UNAVAILABLE: 'El servicio de transcripción no responde. Inténtelo de nuevo en un momento.',
    ERR_TRANSCRIPTION_TIMEOUT: 'El servicio de transcripción tardó demasiado en responder. Inténtelo de nuevo en un momento.',
    ERR_TRANSCRIPTION_CREDENTIAL_UNREADABLE: 'La clave guardada ya no se puede leer: un administrador la ingresa de nuevo.',
    ERR_URL_NOT_ALLOWED: 'La dirección del servicio no es pública, y este servidor solo llama a direcciones públicas.',
    ERR_AUDIO_TOO_LARGE: 'Este audio supera los 25 MB que acepta un servicio de transcripción.',
    ERR_AUDIO_NOT_FOUND: 'El archivo de este audio ya no está guardado.',
    ERR_MESSAGE_NOT_AUDIO: 'Este mensaje no es un audio.',
    ERR_NO_TRANSCRIPTION_CREDENTIAL_FOUND: 'Este servicio de transcripción ya no está configurado.',
    ERR_PLAN_FEATURE_DISABLED: 'El plan de la empresa no incluye transcripción (IA).',
  },
};

const en = {
  transcribe: 'Transcribe',
  transcribeLabel: 'Transcribe this audio',
  transcribing: 'Transcribing the audio…',
  queued: 'The audio is being transcribed in the background; the text will show here.',
  transcript: 'Transcript',
  empty: 'Nothing was heard in this audio.',
  failed: 'Could not transcribe: {{reason}}',
  retry: 'Try again',
  errors: { codes: codesEn },
};

export const transcribeStrings: ScreenStrings<typeof en> = {
  en,
  'pt-BR': {
    transcribe: 'Transcrever',
    transcribeLabel: 'Transcrever este áudio',
    transcribing: 'Transcrevendo o áudio…',
    queued: 'O áudio está sendo transcrito em segundo plano; o texto aparecerá aqui.',
    transcript: 'Transcrição',
    empty: 'Nada foi ouvido neste áudio.',
    failed: 'Não foi possível transcrever: {{reason}}',
    retry: 'Tentar de novo',
    errors: { codes: transcriptionCodes['pt-BR'] },
  },
  es: {
    transcribe: 'Transcribir',
    transcribeLabel: 'Transcribir este audio',
    transcribing: 'Transcribiendo el audio…',
    queued: 'El audio se está transcribiendo en segundo plano; el texto aparecerá aquí.',
    transcript: 'Transcripción',
    empty: 'No se oyó nada en este audio.',
    failed: 'No se pudo transcribir: {{reason}}',
    retry: 'Intentar de nuevo',
    errors: { codes: transcriptionCodes.es },
  },
};
