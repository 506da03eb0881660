import type { Actor } from '../shared/actor.js';
import { hasMore, pageFromNumber } from '../shared/paging.js';
import { foldForSearch } from '../shared/text.js';
import { createOption, deleteOption, findOption, listOptions, updateOption, type OptionDeps } from './option-tree.js';
import { byMenuOrder, type QueueOption } from './queue-option.js';

/**
 * Chatbots as the lineage names them: a node of kind `chatbot` whose `name` is its menu line,
 * `greetingMessage` what it says when picked, and `chatbotId` the chatbot it sits under (none for
 * a top-level chatbot of the queue's menu). Stored and routed exactly as queue options.
 */
export interface ChatbotView {
  id: number;
  queueId: number;
  chatbotId: number | null;
  name: string;
  greetingMessage: string | null;
  option: string;
  forwardQueueId: number | null;
  forwardUserId: number | null;
  closeTicket: boolean;
  createdAt: string;
  updatedAt: string;
  /** The chatbots under this one, in menu order (on `show`, the whole subtree). */
  options?: ChatbotView[];
}

export interface ChatbotFields {
  readonly queueId?: number;
  readonly chatbotId?: number | null;
  readonly name?: string;
  readonly greetingMessage?: string | null;
  readonly option?: string;
  readonly forwardQueueId?: number | null;
  readonly forwardUserId?: number | null;
  readonly closeTicket?: boolean;
}

function toChatbotView(o: QueueOption): ChatbotView {
  return {
    id: o.id, queueId: o.queueId, chatbotId: o.parentId, name: o.title, greetingMessage: o.message, option: o.option, forwardQueueId: o.forwardQueueId,
    forwardUserId: o.forwardUserId, closeTicket: o.closeTicket, createdAt: o.createdAt.toISOString(), updatedAt: o.updatedAt.toISOString(),
  };
}

function withSubtree(node: QueueOption, all: readonly QueueOption[]): ChatbotView {
  const children = all.filter((o) => o.parentId === node.id).sort(byMenuOrder);
  return { ...toChatbotView(node), options: children.map((c) => withSubtree(c, all)) };
}

function asOptionFields(input: ChatbotFields) {
  const { chatbotId, name, greetingMessage, ...rest } = input;
  return {
    ...rest, ...(chatbotId !== undefined ? { parentId: chatbotId } : {}), ...(name !== undefined ? { title: name } : {}),
    ...(greetingMessage !== undefined ? { message: greetingMessage } : {}),
  };
}

/** A page of chatbots (the top-level ones unless `chatbotId` is given), found by name. */
export class ListChatbots {
  constructor(private readonly deps: Pick<OptionDeps, 'options'>) {}

  async execute(input: { readonly actor: Actor; readonly queueId?: number; readonly chatbotId?: number; readonly searchParam?: string; readonly pageNumber?: number }) {
    const term = input.searchParam?.trim() ? foldForSearch(input.searchParam) : '';
    const rows = (await listOptions(this.deps.options, { actor: input.actor, kind: 'chatbot', queueId: input.queueId, parentId: input.chatbotId ?? null }))
      .filter((o) => !term || foldForSearch(o.title).includes(term));
    const page = pageFromNumber(input.pageNumber);
    return { chatbots: rows.slice(page.offset, page.offset + page.limit).map(toChatbotView), count: rows.length, hasMore: hasMore(page, rows.length) };
  }
}

/** One chatbot with every chatbot under it. */
export class ShowChatbot {
  constructor(private readonly deps: Pick<OptionDeps, 'options'>) {}

  async execute(input: { readonly actor: Actor; readonly chatbotId: number }): Promise<ChatbotView> {
    const node = await findOption(this.deps.options, input.actor.companyId, input.chatbotId, 'chatbot');
    const all = await this.deps.options.list({ companyId: node.companyId, queueId: node.queueId, kind: 'chatbot' });
    return withSubtree(node, all);
  }
}

export class CreateChatbot {
  constructor(private readonly deps: OptionDeps) {}

  async execute(input: ChatbotFields & { readonly actor: Actor; readonly name: string }): Promise<ChatbotView> {
    const { actor, ...fields } = input;
    return toChatbotView(await createOption(this.deps, actor, 'chatbot', { ...asOptionFields(fields), title: input.name }));
  }
}

export class UpdateChatbot {
  constructor(private readonly deps: OptionDeps) {}

  async execute(input: ChatbotFields & { readonly actor: Actor; readonly id: number }): Promise<ChatbotView> {
    const { actor, id, ...fields } = input;
    return toChatbotView(await updateOption(this.deps, actor, 'chatbot', id, asOptionFields(fields)));
  }
}

/** Removes a chatbot and every chatbot under it. */
export class DeleteChatbot {
  constructor(private readonly deps: Pick<OptionDeps, 'options'>) {}

  async execute(input: { readonly actor: Actor; readonly chatbotId: number }): Promise<void> {
    await deleteOption(this.deps, input.actor, 'chatbot', input.chatbotId);
  }
}
