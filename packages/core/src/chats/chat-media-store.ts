import { safeFileName, safeMediaType } from '../connections/connection-media.js';
import type { BlobStorage, IdGenerator } from '../shared/ports.js';
import { storeUpload, uploadSize, type UploadedFile } from '../uploads/image-upload.js';
import { toChatMessageView, type ChatMessageView } from './chat-view.js';
import type { ChatMedia, ChatMessage } from './chat.js';

/** Where a chat's files are kept: public blobs under the chat's folder, each under a new id. */
export class ChatMediaStore {
  constructor(private readonly deps: { readonly blobs: BlobStorage; readonly ids: IdGenerator }) {}

  /** Stores one file of a message to the chat. */
  async put(companyId: number, chatId: number, file: UploadedFile): Promise<ChatMedia> {
    const key = `public/company-${companyId}/chats/${chatId}/${this.deps.ids.uuid()}-${safeFileName(file.filename)}`;
    const contentType = safeMediaType(file.contentType);
    await storeUpload(this.deps.blobs, key, file, contentType);
    return { key, name: file.filename.slice(0, 255) || 'file', contentType, size: uploadSize(file) };
  }

  /** Removes the files of a send that did not happen (a failed removal only costs storage). */
  async discard(media: readonly ChatMedia[]): Promise<void> {
    for (const m of media) await this.deps.blobs.delete(m.key).catch(() => undefined);
  }

  /** A message as its readers see it, its file by public URL. */
  view(m: ChatMessage): ChatMessageView {
    return toChatMessageView(m, this.deps.blobs);
  }
}
