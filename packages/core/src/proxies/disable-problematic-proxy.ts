import type { Actor } from '../shared/actor.js';
import { ValidationError } from '../shared/errors.js';
import { managedProxy } from './proxy-access.js';
import type { Proxy } from './proxy.js';
import { reassigning, type BalanceDeps, type BalanceResult } from './balance-proxies.js';

/** Takes a proxy out of the pool with a reason and moves its connections to others (the platform's: super admin only). */
export class DisableProblematicProxy {
  constructor(private readonly deps: BalanceDeps) {}

  async execute(input: { readonly actor: Actor; readonly proxyId: number; readonly reason?: string }): Promise<BalanceResult & { proxyId: number }> {
    const reason = input.reason?.trim() || 'disabled as problematic';
    if (reason.length > 500) throw new ValidationError('ERR_PROXY_INVALID_REASON');
    return reassigning(this.deps, async (r) => {
      const proxy = await managedProxy(this.deps.proxies, input.actor, input.proxyId);
      const disabled: Proxy = { ...proxy, status: 'disabled', disabledReason: reason, updatedAt: this.deps.clock.now() };
      await this.deps.proxies.update(disabled);
      return { proxyId: proxy.id, ...(await r.moveOff(disabled)) };
    });
  }
}
