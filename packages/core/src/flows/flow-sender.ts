import type { FileLists } from '../files/ports.js';
import type { Message } from '../messages/message.js';
import type { OutboundMessages } from '../messages/outbound.js';
import type { BlobStorage } from '../shared/ports.js';
import type { FlowTarget } from './flow-target.js';

/** A run's messages to the contact, through the one send path: texts, and a file list's files. */
export class FlowSender {
  constructor(
    private readonly deps: {
      readonly outbound: OutboundMessages;
      readonly fileLists: Pick<FileLists, 'options'>;
      readonly blobs: Pick<BlobStorage, 'publicUrl'>;
    },
  ) {}

  async text(target: FlowTarget, body: string): Promise<Message[]> {
    const { ticket, contact, connection } = target;
    return [await this.deps.outbound.enqueue({ connection, ticket, contact, body })];
  }

  /** A file list's files (one option, or all with a file), each captioned with its option's name. */
  async media(target: FlowTarget, fileListId: number, optionId: number | null): Promise<Message[]> {
    const { ticket, contact, connection } = target;
    const options = (await this.deps.fileLists.options(ticket.companyId, [fileListId]))
      .filter((o) => (optionId === null || o.id === optionId) && o.blobKey !== null)
      .sort((a, b) => a.position - b.position || a.id - b.id);
    const sent: Message[] = [];
    for (const o of options) {
      const media = {
        key: o.blobKey!,
        url: this.deps.blobs.publicUrl(o.blobKey!),
        contentType: o.mediaType ?? 'application/octet-stream',
        filename: o.fileName ?? o.name,
        size: o.size ?? 0,
      };
      sent.push(await this.deps.outbound.enqueue({ connection, ticket, contact, body: o.name, media }));
    }
    return sent;
  }
}
