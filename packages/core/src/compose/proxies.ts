import { SessionCommands } from '../connections/session-commands.js';
import type { JobDefinition } from '../jobs/job.js';
import { AssignProxy } from '../proxies/assign-proxy.js';
import { AutoBalanceProxies } from '../proxies/auto-balance-proxies.js';
import { ProxyRebalancing } from '../proxies/balance-proxies.js';
import { DisableProblematicProxy } from '../proxies/disable-problematic-proxy.js';
import { ForceReassignProxies } from '../proxies/force-reassign-proxies.js';
import { ForceRebalanceAllProxies } from '../proxies/force-rebalance-all-proxies.js';
import { RemoveProxyAssignment } from '../proxies/remove-proxy-assignment.js';
import { CheckProxies, CreateProxy, DeleteProxy, ListProxies, ProxyStatistics, UpdateProxy } from '../proxies/manage-proxies.js';
import type { ProxyAssignments, Proxies, ProxyChecker } from '../proxies/ports.js';
import { sessionProxyLookup } from '../proxies/session-proxy.js';
import type { Needs } from './shared-ports.js';

/** The proxies' own ports: the pools, the assignments, and the checker that connects through a proxy. */
export interface ProxyPorts {
  readonly proxies: Proxies;
  readonly proxyAssignments: ProxyAssignments;
  readonly proxyChecker: ProxyChecker;
  /** How often the health job checks every proxy; default 2 minutes. */
  readonly proxyCheckEveryMs?: number;
}

export const PROXY_HEALTH_JOB = 'proxies.check';

/** Proxy pools for session connections: management, assignment, balancing and the health job. */
export function createProxies(p: ProxyPorts & Needs<'secretCipher'>) {
  const { proxies, proxyAssignments: assignments, proxyChecker: checker, secretCipher: cipher, connections, realtime, tx, clock } = p;
  const sessions = new SessionCommands({ connections, outbox: p.outbox, clock, ids: p.ids, proxyOf: sessionProxyLookup({ proxies, assignments, cipher }) });
  const deps = { proxies, assignments, checker, cipher, connections, sessions, realtime, tx, clock };
  const chatappIds = async (companyId: number) => (await connections.list(companyId)).filter((c) => c.kind === 'chatapp').map((c) => c.id);
  const rebalancing = new ProxyRebalancing(deps);
  const checkProxies = new CheckProxies({ proxies, checker, cipher, clock, rebalancing });
  return {
    listProxies: new ListProxies(deps),
    createProxy: new CreateProxy(deps),
    updateProxy: new UpdateProxy({ proxies, assignments, checker, cipher, clock, rebalancing }),
    deleteProxy: new DeleteProxy(deps),
    proxyStats: new ProxyStatistics({ ...deps, chatappIds }),
    assignProxy: new AssignProxy(deps),
    removeProxyAssignment: new RemoveProxyAssignment(deps),
    autoBalance: new AutoBalanceProxies(deps),
    forceReassign: new ForceReassignProxies(deps),
    forceRebalanceAll: new ForceRebalanceAllProxies(deps),
    disableProblematic: new DisableProblematicProxy(deps),
    checkProxies,
    /** The health job: checks go over the network, so each proxy's outcome commits on its own (not atomic). */
    jobs: (): JobDefinition<any>[] => [
      {
        name: PROXY_HEALTH_JOB,
        every: p.proxyCheckEveryMs ?? 120_000,
        atomic: false,
        leaseMs: 10 * 60_000,
        run: async () => {
          await checkProxies.execute();
        },
      },
    ],
  };
}
export type ProxiesApi = ReturnType<typeof createProxies>;
