import { ValidationError } from '../shared/errors.js';

/**
 * Both menus of the lineage live in one tree per queue: queue options (`/queue-options`) and
 * chatbots (`/chatbot`) are nodes of the same table told apart by `kind`, and the routing engine
 * walks them alike. A chatbot is a named node (usually a root) whose children are chatbot nodes
 * too: a node's kind is its parent's. Siblings of both kinds share one menu, so an `option` key
 * is unique among siblings, ignoring case.
 */
export type QueueOptionKind = 'option' | 'chatbot';

export interface QueueOption {
  id: number;
  companyId: number;
  queueId: number;
  /** The node whose menu lists this one; null for the queue's first menu. */
  parentId: number | null;
  kind: QueueOptionKind;
  /** The menu line (a chatbot's `name`). */
  title: string;
  /** Sent when the contact picks the node, before its own menu (a chatbot's `greetingMessage`). */
  message: string | null;
  /** What the contact types to pick it: a number or a keyword. */
  option: string;
  /** Picking it moves the ticket to this queue and hands it over to its operators. */
  forwardQueueId: number | null;
  /** Picking it hands the ticket to this operator (open, assigned). */
  forwardUserId: number | null;
  /** Picking it sends the message and closes the ticket. */
  closeTicket: boolean;
  createdAt: Date;
  updatedAt: Date;
}

export type NewQueueOption = Omit<QueueOption, 'id'>;

export interface QueueOptionView extends Omit<QueueOption, 'createdAt' | 'updatedAt'> {
  createdAt: string;
  updatedAt: string;
}

export const MAX_OPTION_TITLE = 120;
export const MAX_OPTION_MESSAGE = 4000;
export const MAX_OPTION_KEY = 20;
/** How deep menus may nest: deeper trees are a mistake no contact would walk. */
export const MAX_OPTION_DEPTH = 10;

export function toQueueOptionView(o: QueueOption): QueueOptionView {
  return { ...o, createdAt: o.createdAt.toISOString(), updatedAt: o.updatedAt.toISOString() };
}

/** How a reply is compared with option keys: trimmed, lower case, without the `*` of bold text. */
export function normalizeReply(text: string): string {
  return text.replace(/\*/g, '').trim().toLowerCase();
}

const NUMERIC = /^\d{1,9}$/;

/** What menu order and menu text read of a node (the console's preview passes its views). */
export type MenuEntry = Pick<QueueOption, 'id' | 'option' | 'title'>;

/** Menu order: numeric keys by value, then other keys alphabetically, then id. */
export function byMenuOrder(a: MenuEntry, b: MenuEntry): number {
  const na = NUMERIC.test(a.option) ? Number(a.option) : null;
  const nb = NUMERIC.test(b.option) ? Number(b.option) : null;
  if (na !== null && nb !== null && na !== nb) return na - nb;
  if (na !== null && nb === null) return -1;
  if (na === null && nb !== null) return 1;
  const ka = a.option.toLowerCase();
  const kb = b.option.toLowerCase();
  return ka < kb ? -1 : ka > kb ? 1 : a.id - b.id;
}

/** The lines of a menu: `*1* - Vendas`. */
export function menuLines(items: ReadonlyArray<{ key: string; title: string }>): string {
  return items.map((i) => `*${i.key}* - ${i.title}`).join('\n');
}

/** A header (a greeting or a node's message) followed by its menu. */
export function menuText(header: string | null, options: readonly MenuEntry[]): string {
  const lines = menuLines(options.map((o) => ({ key: o.option, title: o.title })));
  return header ? `${header}\n\n${lines}` : lines;
}

export function cleanOptionTitle(title: string): string {
  const trimmed = title.trim();
  if (trimmed.length < 1 || trimmed.length > MAX_OPTION_TITLE) throw new ValidationError('ERR_INVALID_QUEUE_OPTION_TITLE');
  return trimmed;
}

export function cleanOptionMessage(message: string | null | undefined): string | null {
  if (message === null || message === undefined || message.trim() === '') return null;
  if (message.length > MAX_OPTION_MESSAGE) throw new ValidationError('ERR_QUEUE_OPTION_MESSAGE_TOO_LONG');
  return message;
}

/** A key the contact can type: 1 to 20 characters, no line breaks or `*`; stored trimmed. */
export function cleanOptionKey(option: string): string {
  const trimmed = option.trim();
  if (trimmed.length < 1 || trimmed.length > MAX_OPTION_KEY || /[\r\n*]/.test(trimmed)) throw new ValidationError('ERR_INVALID_QUEUE_OPTION_KEY');
  return trimmed;
}

/** The next free number among siblings: one more than the largest numeric key. */
export function nextOptionKey(siblings: readonly QueueOption[]): string {
  const numbers = siblings.map((s) => (NUMERIC.test(s.option) ? Number(s.option) : 0));
  return String(Math.max(0, ...numbers) + 1);
}
