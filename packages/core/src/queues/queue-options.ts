import type { Actor } from '../shared/actor.js';
import { createOption, deleteOption, findOption, listOptions, updateOption, type OptionDeps, type QueueOptionFields } from './option-tree.js';
import { toQueueOptionView, type QueueOptionView } from './queue-option.js';

/**
 * The queue options (`/queue-options`): menu nodes of kind `option`. Every operator reads them;
 * admins write them. The rules of the tree are in `option-tree.ts`, shared with chatbots.
 */
export class ListQueueOptions {
  constructor(private readonly deps: Pick<OptionDeps, 'options'>) {}

  async execute(input: { readonly actor: Actor; readonly queueId?: number; readonly parentId?: number | null }): Promise<QueueOptionView[]> {
    return (await listOptions(this.deps.options, { ...input, kind: 'option' })).map(toQueueOptionView);
  }
}

export class ShowQueueOption {
  constructor(private readonly deps: Pick<OptionDeps, 'options'>) {}

  async execute(input: { readonly actor: Actor; readonly queueOptionId: number }): Promise<QueueOptionView> {
    return toQueueOptionView(await findOption(this.deps.options, input.actor.companyId, input.queueOptionId, 'option'));
  }
}

export class CreateQueueOption {
  constructor(private readonly deps: OptionDeps) {}

  async execute(input: QueueOptionFields & { readonly actor: Actor; readonly title: string }): Promise<QueueOptionView> {
    return toQueueOptionView(await createOption(this.deps, input.actor, 'option', input));
  }
}

export class UpdateQueueOption {
  constructor(private readonly deps: OptionDeps) {}

  async execute(input: QueueOptionFields & { readonly actor: Actor; readonly queueOptionId: number }): Promise<QueueOptionView> {
    return toQueueOptionView(await updateOption(this.deps, input.actor, 'option', input.queueOptionId, input));
  }
}

export class DeleteQueueOption {
  constructor(private readonly deps: Pick<OptionDeps, 'options'>) {}

  async execute(input: { readonly actor: Actor; readonly queueOptionId: number }): Promise<void> {
    await deleteOption(this.deps, input.actor, 'option', input.queueOptionId);
  }
}
