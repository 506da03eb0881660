import type { ReplyInput } from './reply-queue.js';

/** A file attached in the reply box, with the caption typed for it. */
export interface Attachment {
  readonly file: File;
  readonly caption: string;
}

/** The lineage's signature: the operator's name in bold on a line of its own above the text. */
export function signed(name: string, text: string): string {
  return `*${name}:*\n${text}`;
}

/**
 * What the box sends, as the replies the queue takes (one message per file, each with its caption,
 * since the server puts a request's text on its first file only). The box's text is the first
 * file's caption when that file has none; otherwise it goes first, as a message of its own.
 * A signature goes on every text the contact reads (not on notes, nor on a file without text).
 */
export function composeReplies(input: {
  ticketId: number;
  text: string;
  attachments: readonly Attachment[];
  isPrivate: boolean;
  signature: string | null;
}): ReplyInput[] {
  const { ticketId, isPrivate } = input;
  const sign = (text: string) => (input.signature && !isPrivate && text ? signed(input.signature, text) : text);
  const reply = (draft: string, files: readonly File[]): ReplyInput => ({ ticketId, body: sign(draft), draft, files, isPrivate });
  const text = input.text.trim();
  if (input.attachments.length === 0) return text ? [reply(text, [])] : [];
  const captions = input.attachments.map((a) => a.caption.trim());
  const own = text && captions[0] ? [reply(text, [])] : [];
  if (text && !captions[0]) captions[0] = text;
  return [...own, ...input.attachments.map((a, i) => reply(captions[i]!, [a.file]))];
}

/** The shortcut being typed when the box holds `/` and a word (no space yet), else null. */
export function quickReplyQuery(text: string): string | null {
  const match = /^\/([^\s/]*)$/.exec(text);
  return match ? match[1]! : null;
}

const signatureKey = (userId: number) => `servicedesk.signature.${userId}`;

/** Whether this user signs their replies (remembered in the browser; off until turned on). */
export function signatureOn(storage: Pick<Storage, 'getItem'>, userId: number): boolean {
  return storage.getItem(signatureKey(userId)) === 'on';
}

export function rememberSignature(storage: Pick<Storage, 'setItem'>, userId: number, on: boolean): void {
  storage.setItem(signatureKey(userId), on ? 'on' : 'off');
}
