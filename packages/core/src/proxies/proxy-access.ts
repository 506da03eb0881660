import { assertAdmin, isSuper, type Actor } from '../shared/actor.js';
import { ForbiddenError, NotFoundError } from '../shared/errors.js';
import type { Proxies } from './ports.js';
import type { Proxy } from './proxy.js';

/** The pool an actor manages: the super admin the platform's (null), an admin the company's own. */
export function poolOf(actor: Actor): number | null {
  assertAdmin(actor);
  return isSuper(actor) ? null : actor.companyId;
}

/** A proxy the actor sees (its company's or the platform's), 404 `ERR_NO_PROXY_FOUND` otherwise. */
export async function visibleProxy(proxies: Proxies, actor: Actor, id: number): Promise<Proxy> {
  assertAdmin(actor);
  const found = await proxies.findVisible(actor.companyId, id);
  if (!found) throw new NotFoundError('ERR_NO_PROXY_FOUND');
  return found;
}

/** A proxy the actor may change: the platform's only for the super admin (403 `ERR_PROXY_READ_ONLY`). */
export async function managedProxy(proxies: Proxies, actor: Actor, id: number): Promise<Proxy> {
  const found = await visibleProxy(proxies, actor, id);
  if (found.companyId === null && !isSuper(actor)) throw new ForbiddenError('ERR_PROXY_READ_ONLY');
  return found;
}
