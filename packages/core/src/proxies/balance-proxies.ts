import { toConnectionView, type Connection } from '../connections/connection.js';
import type { SessionEvent } from '../connections/connection-events.js';
import type { Connections } from '../connections/ports.js';
import type { RealtimeEvents } from '../realtime/ports.js';
import type { Actor } from '../shared/actor.js';
import { NotFoundError, ValidationError } from '../shared/errors.js';
import type { Transaction } from '../shared/ports.js';
import { Reassigner, type ReassignerDeps } from './reassigner.js';

export type { BalanceResult, ProxyMove, ProxySkip, ReassignerDeps } from './reassigner.js';

export interface BalanceDeps extends ReassignerDeps {
  readonly tx: Transaction;
  readonly realtime: RealtimeEvents<SessionEvent>;
}

/** Runs `work` with a fresh Reassigner in one transaction, then announces the restarted sessions. */
export async function reassigning<T>(deps: BalanceDeps, work: (r: Reassigner) => Promise<T>): Promise<T> {
  const reassigner = new Reassigner(deps);
  const result = await deps.tx.run(() => work(reassigner));
  for (const c of reassigner.restarted)
    await deps.realtime.publish(c.companyId, { entity: 'chatappSession', data: { action: 'update', session: toConnectionView(c) } });
  return result;
}

/**
 * The moves of connections between proxies, each run in one transaction with a fresh Reassigner,
 * the restarted sessions announced after it (`reassigning` as a collaborator).
 */
export class ProxyRebalancing {
  constructor(private readonly deps: BalanceDeps) {}

  run<T>(work: (r: Reassigner) => Promise<T>): Promise<T> {
    return reassigning(this.deps, work);
  }
}

/** The company's chat-application connection, 404 `ERR_NO_CONNECTION_FOUND` otherwise; 422 for another kind. */
export async function chatapp(connections: Connections, actor: Actor, id: number): Promise<Connection> {
  const found = await connections.findById(actor.companyId, id);
  if (!found) throw new NotFoundError('ERR_NO_CONNECTION_FOUND');
  if (found.kind !== 'chatapp') throw new ValidationError('ERR_PROXY_NOT_FOR_CONNECTION');
  return found;
}

export async function chatapps(connections: Connections, companyId: number): Promise<Connection[]> {
  return (await connections.list(companyId)).filter((c) => c.kind === 'chatapp').sort((a, b) => a.id - b.id);
}

export interface AssignmentView {
  readonly chatappId: number;
  readonly proxyId: number | null;
  readonly assignedAt: string | null;
  readonly restarted: boolean;
}
