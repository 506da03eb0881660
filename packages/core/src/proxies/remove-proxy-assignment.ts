import { assertAdmin, type Actor } from '../shared/actor.js';
import { NotFoundError } from '../shared/errors.js';
import { chatapp, reassigning, type AssignmentView, type BalanceDeps } from './balance-proxies.js';

/** An admin takes a connection off its proxy (404 `ERR_NO_PROXY_ASSIGNMENT` when it has none); its session restarts without one. */
export class RemoveProxyAssignment {
  constructor(private readonly deps: BalanceDeps) {}

  async execute(input: { readonly actor: Actor; readonly chatappId: number }): Promise<AssignmentView> {
    assertAdmin(input.actor);
    return reassigning(this.deps, async (r) => {
      const connection = await chatapp(this.deps.connections, input.actor, input.chatappId);
      const current = await this.deps.assignments.findByConnection(connection.companyId, connection.id);
      if (!current) throw new NotFoundError('ERR_NO_PROXY_ASSIGNMENT');
      await r.move(connection, current.proxyId, null);
      return { chatappId: connection.id, proxyId: null, assignedAt: null, restarted: r.restarted.length > 0 };
    });
  }
}
