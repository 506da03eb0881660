import { assertAdmin, type Actor } from '../shared/actor.js';
import { ConflictError, NotFoundError } from '../shared/errors.js';
import type { Clock, Transaction } from '../shared/ports.js';
import {
  connectsDifferently,
  movesObjects,
  toObjstoreConfigView,
  type NewObjstoreConfig,
  type ObjstoreConfig,
  type ObjstoreConfigView,
  type ObjstoreProvider,
} from './objstore-config.js';
import type { ObjstoreAnnouncer } from './objstore-announcer.js';
import type { ObjstoreConnector } from './objstore-connector.js';
import type { BlobLocations, ObjstoreConfigs } from './ports.js';

/** The fields of a config being created, edited or tested; on an edit, absent keeps what is stored. */
export interface ObjstoreConfigInput {
  readonly name?: string;
  readonly provider?: ObjstoreProvider;
  /** Blank with `s3`: AWS's regional endpoint. */
  readonly endpoint?: string | null;
  readonly region?: string | null;
  readonly bucket?: string;
  readonly prefix?: string | null;
  /** Absent on create: path style for `minio` and `other`. */
  readonly forcePathStyle?: boolean;
  readonly publicBaseUrl?: string | null;
  readonly accessKeyId?: string;
  /** Write-only. Required on create; on an edit a non-empty string replaces it, absent, `""` or null keeps it. */
  readonly secretAccessKey?: string | null;
  /** `true` tests the connection, then makes it the company's only active config. */
  readonly active?: boolean;
}

interface Deps {
  readonly configs: ObjstoreConfigs;
  readonly locations: Pick<BlobLocations, 'countOf'>;
  /** Reads an input into a config and tests the connection it describes. */
  readonly connector: ObjstoreConnector;
  /** Tells the uploads' store and the admins of the changes. */
  readonly announcer: ObjstoreAnnouncer;
  readonly tx: Transaction;
  readonly clock: Clock;
}

/** The company's config, or 404 `ERR_NO_OBJSTORE_CONFIG_FOUND` (also for another company's). */
async function findConfig(configs: ObjstoreConfigs, companyId: number, id: number): Promise<ObjstoreConfig> {
  const found = await configs.findById(companyId, id);
  if (!found) throw new NotFoundError('ERR_NO_OBJSTORE_CONFIG_FOUND');
  return found;
}

/** Admins of the company (super users in their own); answers the company. */
function managedCompany(actor: Actor): number {
  assertAdmin(actor);
  return actor.companyId;
}

/** The company's configs by name (a bare array: a company has a handful). */
export class ListObjstoreConfigs {
  constructor(private readonly deps: Pick<Deps, 'configs'>) {}

  async execute(input: { readonly actor: Actor }): Promise<ObjstoreConfigView[]> {
    return (await this.deps.configs.list(managedCompany(input.actor))).map(toObjstoreConfigView);
  }
}

export class ShowObjstoreConfig {
  constructor(private readonly deps: Pick<Deps, 'configs'>) {}

  async execute(input: { readonly actor: Actor; readonly configId: number }): Promise<ObjstoreConfigView> {
    return toObjstoreConfigView(await findConfig(this.deps.configs, managedCompany(input.actor), input.configId));
  }
}

/**
 * Admins add a config; the secret is sealed before it is stored. With `active: true` the
 * connection is tested first (422 `{ error, step }` and nothing saved when it fails), then it
 * becomes the only active config in the same transaction (`objstoreConfig` events: `create`, and
 * `update` for the one it replaced).
 */
export class CreateObjstoreConfig {
  constructor(private readonly deps: Omit<Deps, 'locations'>) {}

  async execute(input: ObjstoreConfigInput & { readonly actor: Actor }): Promise<ObjstoreConfigView> {
    const { configs, connector, tx, clock } = this.deps;
    const companyId = managedCompany(input.actor);
    const now = clock.now();
    const draft: NewObjstoreConfig = { ...connector.apply(companyId, input, null), active: false, createdAt: now, updatedAt: now };
    if (input.active) await connector.check(draft);
    const { added, deactivated } = await tx.run(async () => {
      const stored = await configs.add(draft);
      return { added: stored, deactivated: input.active ? await configs.activate(companyId, stored.id) : [] };
    });
    await this.deps.announcer.changed(companyId, [{ id: added.id, action: 'create' }, ...deactivated.map((id) => ({ id, action: 'update' as const }))]);
    return toObjstoreConfigView(await findConfig(configs, companyId, added.id));
  }
}

/**
 * Admins edit a config: only the fields given change, the secret only when a new one is sent.
 * Where the objects are (endpoint, bucket, prefix) cannot change while the config holds any (409:
 * they would be lost). Saving with `active: true`, or changing how an active config connects,
 * tests the connection first; `active: false` sends new uploads back to the default store.
 */
export class UpdateObjstoreConfig {
  constructor(private readonly deps: Deps) {}

  async execute(input: ObjstoreConfigInput & { readonly actor: Actor; readonly configId: number }): Promise<ObjstoreConfigView> {
    const { configs, locations, connector, tx, clock } = this.deps;
    const companyId = managedCompany(input.actor);
    const current = await findConfig(configs, companyId, input.configId);
    const next: ObjstoreConfig = { ...current, ...connector.apply(companyId, input, current), updatedAt: clock.now() };
    const active = input.active ?? current.active;
    if (movesObjects(current, next) && (await locations.countOf(companyId, current.id)) > 0) throw new ConflictError('ERR_OBJSTORE_CONFIG_IN_USE');
    if (active && (input.active === true || connectsDifferently(current, next))) await connector.check(next);
    const deactivated = await tx.run(async () => {
      await configs.update(next);
      if (active && !current.active) return configs.activate(companyId, current.id);
      if (!active && current.active) await configs.deactivate(companyId, current.id);
      return [];
    });
    await this.deps.announcer.changed(companyId, [{ id: current.id, action: 'update' }, ...deactivated.map((id) => ({ id, action: 'update' as const }))]);
    return toObjstoreConfigView(await findConfig(configs, companyId, current.id));
  }
}

/**
 * Admins remove a config that holds no files (409 `ERR_OBJSTORE_CONFIG_IN_USE` otherwise: they
 * would no longer be found; deactivate it instead). Removing the active one sends new uploads to
 * the default store. `objstoreConfig` event, action `delete`.
 */
export class DeleteObjstoreConfig {
  constructor(private readonly deps: Pick<Deps, 'configs' | 'locations' | 'announcer'>) {}

  async execute(input: { readonly actor: Actor; readonly configId: number }): Promise<void> {
    const { configs, locations } = this.deps;
    const companyId = managedCompany(input.actor);
    await findConfig(configs, companyId, input.configId);
    if ((await locations.countOf(companyId, input.configId)) > 0) throw new ConflictError('ERR_OBJSTORE_CONFIG_IN_USE');
    if (!(await configs.remove(companyId, input.configId))) throw new NotFoundError('ERR_NO_OBJSTORE_CONFIG_FOUND');
    await this.deps.announcer.removed(companyId, input.configId);
  }
}

/**
 * Tests a config without saving anything: the one given, or a saved one (`configId`) with the
 * fields given instead of its own (its stored secret unless a new one is sent).
 */
export class TestObjstoreConnection {
  constructor(private readonly deps: Pick<Deps, 'configs' | 'connector' | 'clock'>) {}

  async execute(input: ObjstoreConfigInput & { readonly actor: Actor; readonly configId?: number }) {
    const { configs, connector, clock } = this.deps;
    const companyId = managedCompany(input.actor);
    const base = input.configId === undefined ? null : await findConfig(configs, companyId, input.configId);
    const now = clock.now();
    return connector.check({ ...connector.apply(companyId, { name: 'test', ...input }, base), active: false, createdAt: now, updatedAt: now });
  }
}
