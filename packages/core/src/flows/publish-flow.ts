import { assertAdmin, type Actor } from '../shared/actor.js';
import { NotFoundError } from '../shared/errors.js';
import { toFlowSummary, toFlowVersionView, type FlowVersion, type FlowVersionView } from './flow.js';
import type { FlowReferences } from './flow-references.js';
import type { FlowDeps } from './manage-flows.js';

/**
 * Admins publish a flow's draft (`POST /flows/:flowId/publish`): checked as `checkPublishable`
 * says (422 `ERR_FLOW_INVALID_GRAPH` naming the node), then copied into the next numbered version,
 * immutable, which runs follow from then on. Under the flow's lock: two publishes number in turn.
 * `flow` event, action `publish`.
 */
export class PublishFlow {
  constructor(private readonly deps: Omit<FlowDeps, 'connections'> & { readonly references: FlowReferences }) {}

  async execute(input: { readonly actor: Actor; readonly flowId: number }): Promise<FlowVersionView> {
    const { flows, tx, clock, realtime } = this.deps;
    assertAdmin(input.actor);
    const { companyId } = input.actor;
    const { version, flow } = await tx.run(async () => {
      const current = await flows.lock(companyId, input.flowId);
      if (!current) throw new NotFoundError('ERR_NO_FLOW_FOUND');
      await this.deps.references.check(companyId, current.draft);
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
