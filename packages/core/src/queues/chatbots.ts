import type { Actor } from '../shared/actor.js';
import type { Transaction } from '../shared/ports.js';
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
  /** The lineage's names: what picking it does (`queue`, `attendent`: an operator, `text`: only the message)… */
  queueType: ChatbotAction;
  /** …and its target (the same as `forwardQueueId` and `forwardUserId`). */
  optQueueId: number | null;
  optUserId: number | null;
  createdAt: string;
  updatedAt: string;
  /** The chatbots under this one, in menu order (on `show`, the whole subtree). */
  options?: ChatbotView[];
}

/** What a chatbot step does when picked, in the lineage's words (`integration` and `file` steps only send their message here). */
export type ChatbotAction = 'text' | 'queue' | 'attendent' | 'integration' | 'file';

/**
 * A chatbot step as the lineage's queue editor sends it inside a queue (`chatbots`) or a chatbot
 * (`options`): with `id` an existing step of the same queue, changed; without, a new one. Its
 * `queueType` decides which target counts (`queue`: `optQueueId`, `attendent`: `optUserId`,
 * others: neither); without `queueType` the targets given apply as they are.
 */
export interface ChatbotStep {
  readonly id?: number;
  readonly name: string;
  readonly greetingMessage?: string | null;
  readonly queueType?: ChatbotAction;
  readonly optQueueId?: number | null;
  readonly optUserId?: number | null;
  readonly closeTicket?: boolean;
  readonly options?: readonly ChatbotStep[];
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
    id: o.id,
    queueId: o.queueId,
    chatbotId: o.parentId,
    name: o.title,
    greetingMessage: o.message,
    option: o.option,
    forwardQueueId: o.forwardQueueId,
    forwardUserId: o.forwardUserId,
    closeTicket: o.closeTicket,
    queueType: o.forwardUserId !== null ? 'attendent' : o.forwardQueueId !== null ? 'queue' : 'text',
    optQueueId: o.forwardQueueId,
    optUserId: o.forwardUserId,
    createdAt: o.createdAt.toISOString(),
    updatedAt: o.updatedAt.toISOString(),
  };
}

/** A queue's top-level chatbots, each with its subtree, in menu order (`chatbots` of a queue view). */
export function chatbotTrees(all: readonly QueueOption[], queueId: number): ChatbotView[] {
  return all
    .filter((o) => o.queueId === queueId && o.kind === 'chatbot' && o.parentId === null)
    .sort(byMenuOrder)
    .map((o) => withSubtree(o, all));
}

function stepFields(step: ChatbotStep): ChatbotFields {
  const targets =
    step.queueType === undefined
      ? {
          ...(step.optQueueId !== undefined ? { forwardQueueId: step.optQueueId } : {}),
          ...(step.optUserId !== undefined ? { forwardUserId: step.optUserId } : {}),
        }
      : {
          forwardQueueId: step.queueType === 'queue' ? (step.optQueueId ?? null) : null,
          forwardUserId: step.queueType === 'attendent' ? (step.optUserId ?? null) : null,
        };
  return {
    name: step.name,
    ...targets,
    ...(step.greetingMessage !== undefined ? { greetingMessage: step.greetingMessage } : {}),
    ...(step.closeTicket !== undefined ? { closeTicket: step.closeTicket } : {}),
  };
}

/**
 * Writes the steps an editor sent, in order, under `chatbotId` (or at the top of the queue's menu):
 * a step with the `id` of one of the queue's chatbots changes it, any other is added (taking the next
 * number as its key); each step's `options` are written under it the same way. Steps left out stay
 * (the editor deletes with `DELETE /chatbot/:chatbotId`).
 */
export async function writeChatbotSteps(
  deps: OptionDeps,
  actor: Actor,
  queueId: number,
  chatbotId: number | null,
  steps: readonly ChatbotStep[],
): Promise<void> {
  for (const step of steps) {
    const existing = step.id !== undefined ? await deps.options.findById(actor.companyId, step.id) : null;
    const node =
      existing && existing.kind === 'chatbot' && existing.queueId === queueId
        ? await updateOption(deps, actor, 'chatbot', existing.id, asOptionFields(stepFields(step)))
        : await createOption(deps, actor, 'chatbot', {
            ...asOptionFields(stepFields(step)),
            title: step.name,
            ...(chatbotId === null ? { queueId } : { parentId: chatbotId }),
          });
    if (step.options?.length) await writeChatbotSteps(deps, actor, queueId, node.id, step.options);
  }
}

function withSubtree(node: QueueOption, all: readonly QueueOption[]): ChatbotView {
  const children = all.filter((o) => o.parentId === node.id).sort(byMenuOrder);
  return { ...toChatbotView(node), options: children.map((c) => withSubtree(c, all)) };
}

function asOptionFields(input: ChatbotFields) {
  const { chatbotId, name, greetingMessage, ...rest } = input;
  return {
    ...rest,
    ...(chatbotId !== undefined ? { parentId: chatbotId } : {}),
    ...(name !== undefined ? { title: name } : {}),
    ...(greetingMessage !== undefined ? { message: greetingMessage } : {}),
  };
}

/** A page of chatbots (the top-level ones unless `chatbotId` is given), found by name. */
export class ListChatbots {
  constructor(private readonly deps: Pick<OptionDeps, 'options'>) {}

  async execute(input: {
    readonly actor: Actor;
    readonly queueId?: number;
    readonly chatbotId?: number;
    readonly searchParam?: string;
    readonly pageNumber?: number;
  }) {
    const term = input.searchParam?.trim() ? foldForSearch(input.searchParam) : '';
    const rows = (
      await listOptions(this.deps.options, { actor: input.actor, kind: 'chatbot', queueId: input.queueId, parentId: input.chatbotId ?? null })
    ).filter((o) => !term || foldForSearch(o.title).includes(term));
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

/** A chatbot and the steps under it are written together: a refused step leaves nothing behind. */
export class CreateChatbot {
  constructor(private readonly deps: OptionDeps & { readonly tx: Transaction }) {}

  async execute(input: ChatbotFields & { readonly actor: Actor; readonly name: string; readonly options?: readonly ChatbotStep[] }): Promise<ChatbotView> {
    const { actor, options, ...fields } = input;
    return this.deps.tx.run(async () => {
      const node = await createOption(this.deps, actor, 'chatbot', { ...asOptionFields(fields), title: input.name });
      if (options?.length) await writeChatbotSteps(this.deps, actor, node.queueId, node.id, options);
      return toChatbotView(node);
    });
  }
}

export class UpdateChatbot {
  constructor(private readonly deps: OptionDeps & { readonly tx: Transaction }) {}

  /** `options`: the steps under it as the editor sends them (see `writeChatbotSteps`). */
  async execute(input: ChatbotFields & { readonly actor: Actor; readonly id: number; readonly options?: readonly ChatbotStep[] }): Promise<ChatbotView> {
    const { actor, id, options, ...fields } = input;
    return this.deps.tx.run(async () => {
      const node = await updateOption(this.deps, actor, 'chatbot', id, asOptionFields(fields));
      if (options?.length) await writeChatbotSteps(this.deps, actor, node.queueId, node.id, options);
      return toChatbotView(node);
    });
  }
}

/** Removes a chatbot and every chatbot under it. */
export class DeleteChatbot {
  constructor(private readonly deps: Pick<OptionDeps, 'options'>) {}

  async execute(input: { readonly actor: Actor; readonly chatbotId: number }): Promise<void> {
    await deleteOption(this.deps, input.actor, 'chatbot', input.chatbotId);
  }
}
