import { assertSuper, type Actor } from '../shared/actor.js';
import type { Companies } from '../tenancy/ports.js';
import { toConnectionView, type ConnectionKind, type ConnectionProvider, type ConnectionStatus, type ConnectionView } from './connection.js';
import { visibleConnection } from './connection-rules.js';
import type { Connections } from './ports.js';
import { withConnectionQueues, type ConnectionWithQueues } from './connection-queues.js';
import type { Queues } from '../queues/ports.js';

export interface ConnectionFilter {
  readonly kind?: ConnectionKind;
  readonly status?: ConnectionStatus;
  readonly provider?: ConnectionProvider;
}

function matches(filter: ConnectionFilter) {
  return (c: ConnectionView) =>
    (!filter.kind || c.kind === filter.kind) && (!filter.status || c.status === filter.status) && (!filter.provider || c.provider === filter.provider);
}

/** The company's connections, optionally filtered; every operator sees them (they pick one to send on). */
export class ListConnections {
  constructor(private readonly deps: { connections: Connections; queues: Queues }) {}

  async execute(input: { readonly actor: Actor } & ConnectionFilter): Promise<ConnectionWithQueues[]> {
    const rows = await this.deps.connections.list(input.actor.companyId);
    return withConnectionQueues(this.deps.queues, input.actor.companyId, rows.map(toConnectionView).filter(matches(input)));
  }
}

/** Every company's connections (super), ordered by company then id. */
export class ListAllConnections {
  constructor(private readonly deps: { connections: Connections; companies: Companies }) {}

  async execute(input: { readonly actor: Actor } & ConnectionFilter): Promise<ConnectionView[]> {
    assertSuper(input.actor);
    const companies = (await this.deps.companies.listAll()).map((c) => c.id).sort((a, b) => a - b);
    const views: ConnectionView[] = [];
    for (const companyId of companies) views.push(...(await this.deps.connections.list(companyId)).map(toConnectionView));
    return views.filter(matches(input));
  }
}

/** One connection of the company; on the admin route, any company's for super users. */
export class ShowConnection {
  constructor(private readonly deps: { connections: Connections; queues: Queues }) {}

  async execute(input: { readonly actor: Actor; readonly connectionId: number; readonly anyCompany?: boolean }): Promise<ConnectionWithQueues> {
    const connection = await visibleConnection(this.deps.connections, input.actor, input.connectionId, input.anyCompany);
    return (await withConnectionQueues(this.deps.queues, connection.companyId, [toConnectionView(connection)]))[0]!;
  }
}
