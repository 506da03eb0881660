import type { FileLists } from '../files/ports.js';
import type { Users } from '../identity/ports.js';
import type { Prompts } from '../prompts/ports.js';
import type { QueueIntegrations, Queues } from '../queues/ports.js';
import type { Tags } from '../tags/ports.js';
import type { FlowGraph } from './flow-graph.js';
import type { Flows } from './ports.js';
import { checkPublishable, type FlowLookups } from './publish-check.js';

/** The company's rows a flow may name, to check them at publish time. */
export interface FlowReferencePorts {
  readonly queues: Pick<Queues, 'findById'>;
  readonly users: Pick<Users, 'findById'>;
  readonly tags: Pick<Tags, 'findById'>;
  readonly fileLists: Pick<FileLists, 'findById' | 'options'>;
  readonly prompts: Pick<Prompts, 'findById'>;
  readonly queueIntegrations: Pick<QueueIntegrations, 'findById'>;
}

export function flowLookups(p: FlowReferencePorts & { readonly flows: Pick<Flows, 'existing'> }, companyId: number): FlowLookups {
  return {
    queue: async (id) => (await p.queues.findById(companyId, id)) !== null,
    user: async (id) => (await p.users.findById(companyId, id))?.companyId === companyId,
    tag: async (id) => (await p.tags.findById(companyId, id)) !== null,
    fileList: async (id, optionId) => {
      if (!(await p.fileLists.findById(companyId, id))) return false;
      return optionId === null || (await p.fileLists.options(companyId, [id])).some((o) => o.id === optionId);
    },
    prompt: async (id) => (await p.prompts.findById(companyId, id)) !== null,
    integration: async (id) => (await p.queueIntegrations.findById(companyId, id)) !== null,
    flow: async (id) => (await p.flows.existing(companyId, [id])).length === 1,
  };
}

/**
 * What a flow's graph names, checked against the company's rows and the server's models before it
 * is published (`checkPublishable`: 422 `ERR_FLOW_INVALID_GRAPH` naming the node).
 */
export class FlowReferences {
  constructor(private readonly deps: FlowReferencePorts & { readonly flows: Pick<Flows, 'existing'>; readonly models: readonly string[] }) {}

  async check(companyId: number, graph: FlowGraph): Promise<void> {
    await checkPublishable(graph, flowLookups(this.deps, companyId), this.deps.models);
  }
}
