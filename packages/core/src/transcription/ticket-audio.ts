import type { Message } from '../messages/message.js';
import type { Messages } from '../messages/ports.js';
import { NotFoundError, ValidationError } from '../shared/errors.js';
import { isAudio } from './transcriber.js';

/** Without names, the ticket's newest audio messages, up to this many. */
const MAX_TICKET_AUDIOS = 100;
/** Media messages looked through for them (pages of 100). */
const MAX_SCANNED_MEDIA = 1_000;

/** A ticket's audio messages to transcribe: those named, or its newest. */
export class TicketAudio {
  constructor(private readonly deps: { readonly messages: Pick<Messages, 'findById' | 'list'> }) {}

  /** Each must be a message of this ticket (404 otherwise) carrying audio (422 otherwise); oldest first. */
  async named(companyId: number, ticketId: number, ids: readonly string[]): Promise<Message[]> {
    const found: Message[] = [];
    for (const id of new Set(ids)) {
      const m = await this.deps.messages.findById(companyId, id);
      if (!m || m.ticketId !== ticketId) throw new NotFoundError('ERR_NO_MESSAGE_FOUND');
      if (!isAudio(m)) throw new ValidationError('ERR_MESSAGE_NOT_AUDIO');
      found.push(m);
    }
    return found.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : 1));
  }

  /** The ticket's newest audio messages, oldest first. */
  async newest(companyId: number, ticketId: number): Promise<Message[]> {
    const found: Message[] = [];
    const limit = 100;
    for (let offset = 0; offset < MAX_SCANNED_MEDIA && found.length < MAX_TICKET_AUDIOS; offset += limit) {
      const { rows } = await this.deps.messages.list({ companyId, ticketId, withMedia: true, page: { offset, limit } });
      found.push(...rows.filter(isAudio));
      if (rows.length < limit) break;
    }
    return found.slice(0, MAX_TICKET_AUDIOS).reverse();
  }
}
