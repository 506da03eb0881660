import type { SessionProxy } from '../connections/channel-messages.js';
import type { Connection } from '../connections/connection.js';
import type { SecretCipher } from '../shared/ports.js';
import type { ProxyAssignments, Proxies } from './ports.js';
import { endpointOf } from './proxy.js';

/**
 * The proxy a connection's session opens its socket through: its assigned proxy (whatever its status:
 * balancing moves connections off proxies that stop working), or null for none. A password that no
 * longer opens (the server key changed) gives null too, and the session connects directly.
 */
export function sessionProxyLookup(deps: { readonly proxies: Proxies; readonly assignments: ProxyAssignments; readonly cipher: SecretCipher }) {
  return async (connection: Pick<Connection, 'id' | 'companyId' | 'kind'>): Promise<SessionProxy | null> => {
    if (connection.kind !== 'chatapp') return null;
    const assignment = await deps.assignments.findByConnection(connection.companyId, connection.id);
    const proxy = assignment ? await deps.proxies.findVisible(connection.companyId, assignment.proxyId) : null;
    if (!proxy) return null;
    try {
      return endpointOf(deps.cipher, proxy);
    } catch {
      return null;
    }
  };
}
