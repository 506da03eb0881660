import { mediaTypeOf, publishMessageUpdate, type MessageContexts } from '../messages/message-view.js';
import type { MessageUpdateEvent } from '../messages/message-events.js';
import { hasStoredMedia, type Message } from '../messages/message.js';
import type { Messages } from '../messages/ports.js';
import type { RealtimeEvents } from '../realtime/ports.js';
import { NotFoundError, PayloadTooLargeError, ValidationError } from '../shared/errors.js';
import type { BlobStorage, Clock } from '../shared/ports.js';
import type { SpeechToText, SpeechToTextEndpoint } from './ports.js';

/** What OpenAI's `/audio/transcriptions` takes in one request; larger audio is refused before it is sent. */
export const MAX_AUDIO_BYTES = 25 * 1024 * 1024;
/** A transcript longer than this is cut (hours of speech); the message keeps the beginning. */
const MAX_TRANSCRIPT = 100_000;

export function isAudio(m: Pick<Message, 'media'>): boolean {
  return hasStoredMedia(m) && mediaTypeOf(m) === 'audio';
}

/**
 * Transcribes one audio message: reads its file from blob storage, asks the speech-to-text service,
 * stores the text on the message (only that column: a delivery report meanwhile keeps its change)
 * and tells those who read the ticket with an `appMessage` `update`.
 */
export class MessageTranscriber {
  constructor(
    private readonly deps: {
      messages: Messages;
      blobs: BlobStorage;
      speechToText: SpeechToText;
      realtime: RealtimeEvents<MessageUpdateEvent>;
      clock: Clock;
      contexts?: MessageContexts;
    },
  ) {}

  /** Answers the text stored. */
  async transcribe(endpoint: SpeechToTextEndpoint, message: Message, language: string | null): Promise<string> {
    const { messages, blobs, speechToText, realtime, clock } = this.deps;
    const media = message.media;
    if (!media || !isAudio(message)) throw new ValidationError('ERR_MESSAGE_NOT_AUDIO');
    if (media.size > MAX_AUDIO_BYTES) throw new PayloadTooLargeError('ERR_AUDIO_TOO_LARGE');
    const file = await blobs.get(media.key);
    if (!file) throw new NotFoundError('ERR_AUDIO_NOT_FOUND');
    if (file.data.length > MAX_AUDIO_BYTES) throw new PayloadTooLargeError('ERR_AUDIO_TOO_LARGE');
    const { text } = await speechToText.transcribe(endpoint, { data: file.data, contentType: media.contentType, filename: media.filename }, { language });
    const transcription = text.trim().slice(0, MAX_TRANSCRIPT);
    const saved = await messages.setTranscription(message.companyId, message.id, transcription, clock.now());
    if (!saved) throw new NotFoundError('ERR_NO_MESSAGE_FOUND');
    await publishMessageUpdate(realtime, saved, this.deps.contexts);
    return transcription;
  }
}
