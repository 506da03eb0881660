import type { FileLists } from '../files/ports.js';
import type { Users } from '../identity/ports.js';
import type { Prompts } from '../prompts/ports.js';
import type { QueueIntegrations, Queues } from '../queues/ports.js';
import { assertAdmin, type Actor } from '../shared/actor.js';
import { NotFoundError } from '../shared/errors.js';
import type { Tags } from '../tags/ports.js';
import { toFlowSummary, toFlowVersionView, type FlowVersion, type FlowVersionView } from './flow.js';
import type { FlowDeps } from './manage-flows.js';
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

export function flowLookups(p: FlowReferencePorts & Pick<FlowDeps, 'flows'>, companyId: number): FlowLookups {
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
 * Admins publish a flow's draft (`POST /flows/:flowId/publish`): checked as `checkPublishable`
 * says (422 `ERR_FLOW_INVALID_GRAPH` naming the node), then copied into the next numbered version,
 * immutable, which runs follow from then on. Under the flow's lock: two publishes number in turn.
 * `flow` event, action `publish`.
 */
export class PublishFlow {
  constructor(private readonly deps: FlowDeps & FlowReferencePorts & { readonly models: readonly string[] }) {}

  async execute(input: { readonly actor: Actor; readonly flowId: number }): Promise<FlowVersionView> {
    const { flows, tx, clock, realtime } = this.deps;
    assertAdmin(input.actor);
    const { companyId } = input.actor;
    const { version, flow } = await tx.run(async () => {
      const current = await flows.lock(companyId, input.flowId);
      if (!current) throw new NotFoundError('ERR_NO_FLOW_FOUND');
      await checkPublishable(current.draft, flowLookups(this.deps, companyId), this.deps.models);
      const now = clock.now();
      const published: FlowVersion = {
        flowId: current.id,
        companyId,
        version: (current.publishedVersion ?? 0) + 1,
        graph: structuredClone(current.draft),
        publishedBy: input.actor.userId,
        publishedAt: now,
      };
      await flows.addVersion(published);
      const next = { ...current, publishedVersion: published.version, updatedAt: now };
      await flows.update(next);
      return { version: published, flow: next };
    });
    await realtime.publish(companyId, { entity: 'flow', data: { action: 'publish', flow: toFlowSummary(flow), version: version.version } });
    return toFlowVersionView(version);
  }
}
