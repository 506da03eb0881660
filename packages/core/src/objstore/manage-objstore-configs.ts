import type { RealtimeEvents } from '../realtime/ports.js';
import { assertAdmin, type Actor } from '../shared/actor.js';
import { ConflictError, LocatedValidationError, NotFoundError, ValidationError } from '../shared/errors.js';
import type { Clock, IdGenerator, SecretCipher, Transaction } from '../shared/ports.js';
import {
  cleanAccessKeyId,
  cleanBucket,
  cleanEndpoint,
  cleanObjstoreName,
  cleanPrefix,
  cleanPublicBaseUrl,
  cleanRegion,
  cleanSecretAccessKey,
  connectionOf,
  connectsDifferently,
  defaultPathStyle,
  movesObjects,
  sealObjstoreSecret,
  toObjstoreConfigView,
  type NewObjstoreConfig,
  type ObjstoreConfig,
  type ObjstoreConfigView,
  type ObjstoreProvider,
} from './objstore-config.js';
import type { ObjstoreConfigEvent } from './objstore-events.js';
import type { BlobLocations, ObjstoreChanges, ObjstoreConfigs, ObjstoreProbe } from './ports.js';

/** Whether endpoints and public URLs may be plain http (the deployment's `ALLOW_PRIVATE_URLS`). */
export interface ObjstoreSettings {
  readonly allowHttp: boolean;
}

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
  readonly probe: ObjstoreProbe;
  readonly changes: ObjstoreChanges;
  readonly cipher: SecretCipher;
  readonly realtime: RealtimeEvents<ObjstoreConfigEvent>;
  readonly tx: Transaction;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  readonly settings: ObjstoreSettings;
}

/** The company's config, or 404 `ERR_NO_OBJSTORE_CONFIG_FOUND` (also for another company's). */
async function findConfig(configs: ObjstoreConfigs, companyId: number, id: number): Promise<ObjstoreConfig> {
  const found = await configs.findById(companyId, id);
  if (!found) throw new NotFoundError('ERR_NO_OBJSTORE_CONFIG_FOUND');
  return found;
}

/** A config as the input describes it, over `base` (what is stored, on an edit). */
function applyInput(
  deps: Pick<Deps, 'cipher' | 'settings'>,
  companyId: number,
  input: ObjstoreConfigInput,
  base: ObjstoreConfig | null,
): Omit<ObjstoreConfig, 'id' | 'createdAt' | 'updatedAt' | 'active'> {
  const { allowHttp } = deps.settings;
  const provider = input.provider ?? base?.provider ?? 's3';
  const region = input.region !== undefined || !base ? cleanRegion(provider, input.region) : base.region;
  const endpoint = input.endpoint !== undefined || !base ? cleanEndpoint(provider, region, input.endpoint, allowHttp) : base.endpoint;
  if (input.name === undefined && !base) throw new ValidationError('ERR_OBJSTORE_INVALID_NAME');
  if (input.bucket === undefined && !base) throw new ValidationError('ERR_OBJSTORE_INVALID_BUCKET');
  if (input.accessKeyId === undefined && !base) throw new ValidationError('ERR_OBJSTORE_INVALID_ACCESS_KEY');
  const secret = input.secretAccessKey ? cleanSecretAccessKey(input.secretAccessKey) : null;
  if (secret === null && !base) throw new ValidationError('ERR_OBJSTORE_SECRET_REQUIRED');
  return {
    companyId,
    provider,
    region,
    endpoint,
    name: input.name !== undefined ? cleanObjstoreName(input.name) : base!.name,
    bucket: input.bucket !== undefined ? cleanBucket(input.bucket) : base!.bucket,
    prefix: input.prefix !== undefined || !base ? cleanPrefix(input.prefix) : base.prefix,
    forcePathStyle: input.forcePathStyle ?? base?.forcePathStyle ?? defaultPathStyle(provider),
    publicBaseUrl: input.publicBaseUrl !== undefined || !base ? cleanPublicBaseUrl(input.publicBaseUrl, allowHttp) : base.publicBaseUrl,
    accessKeyId: input.accessKeyId !== undefined ? cleanAccessKeyId(input.accessKeyId) : base!.accessKeyId,
    ...(secret !== null ? sealObjstoreSecret(deps.cipher, companyId, secret) : { secretSealed: base!.secretSealed, secretHint: base!.secretHint }),
  };
}

/**
 * Puts, reads and deletes `<prefix>/.healthcheck-<uuid>`: the report when it all worked,
 * 422 `{ error, step }` at the first step that failed.
 */
async function checkConnection(deps: Pick<Deps, 'probe' | 'cipher' | 'ids'>, config: NewObjstoreConfig) {
  const report = await deps.probe.check(connectionOf(deps.cipher, config), `.healthcheck-${deps.ids.uuid()}`);
  if (!report.ok) throw new LocatedValidationError(report.error, { step: report.step });
  return { ok: true, latencyMs: report.latencyMs, canWrite: true, canRead: true, canDelete: true } as const;
}

/** Admins of the company (super users in their own); answers the company. */
function managedCompany(actor: Actor): number {
  assertAdmin(actor);
  return actor.companyId;
}

/** Publishes the changes once they are committed, and tells the store choosing where uploads go. */
async function announce(
  deps: Pick<Deps, 'configs' | 'realtime' | 'changes'>,
  companyId: number,
  changed: readonly { id: number; action: 'create' | 'update' }[],
) {
  deps.changes.changed(companyId);
  for (const { id, action } of changed) {
    const config = await deps.configs.findById(companyId, id);
    if (config) await deps.realtime.publish(companyId, { entity: 'objstoreConfig', data: { action, config: toObjstoreConfigView(config) } });
  }
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
  constructor(private readonly deps: Deps) {}

  async execute(input: ObjstoreConfigInput & { readonly actor: Actor }): Promise<ObjstoreConfigView> {
    const { configs, tx, clock } = this.deps;
    const companyId = managedCompany(input.actor);
    const now = clock.now();
    const draft: NewObjstoreConfig = { ...applyInput(this.deps, companyId, input, null), active: false, createdAt: now, updatedAt: now };
    if (input.active) await checkConnection(this.deps, draft);
    const { added, deactivated } = await tx.run(async () => {
      const stored = await configs.add(draft);
      return { added: stored, deactivated: input.active ? await configs.activate(companyId, stored.id) : [] };
    });
    await announce(this.deps, companyId, [{ id: added.id, action: 'create' }, ...deactivated.map((id) => ({ id, action: 'update' as const }))]);
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
    const { configs, locations, tx, clock } = this.deps;
    const companyId = managedCompany(input.actor);
    const current = await findConfig(configs, companyId, input.configId);
    const next: ObjstoreConfig = { ...current, ...applyInput(this.deps, companyId, input, current), updatedAt: clock.now() };
    const active = input.active ?? current.active;
    if (movesObjects(current, next) && (await locations.countOf(companyId, current.id)) > 0) throw new ConflictError('ERR_OBJSTORE_CONFIG_IN_USE');
    if (active && (input.active === true || connectsDifferently(current, next))) await checkConnection(this.deps, next);
    const deactivated = await tx.run(async () => {
      await configs.update(next);
      if (active && !current.active) return configs.activate(companyId, current.id);
      if (!active && current.active) await configs.deactivate(companyId, current.id);
      return [];
    });
    await announce(this.deps, companyId, [{ id: current.id, action: 'update' }, ...deactivated.map((id) => ({ id, action: 'update' as const }))]);
    return toObjstoreConfigView(await findConfig(configs, companyId, current.id));
  }
}

/**
 * Admins remove a config that holds no files (409 `ERR_OBJSTORE_CONFIG_IN_USE` otherwise: they
 * would no longer be found; deactivate it instead). Removing the active one sends new uploads to
 * the default store. `objstoreConfig` event, action `delete`.
 */
export class DeleteObjstoreConfig {
  constructor(private readonly deps: Pick<Deps, 'configs' | 'locations' | 'changes' | 'realtime'>) {}

  async execute(input: { readonly actor: Actor; readonly configId: number }): Promise<void> {
    const { configs, locations } = this.deps;
    const companyId = managedCompany(input.actor);
    await findConfig(configs, companyId, input.configId);
    if ((await locations.countOf(companyId, input.configId)) > 0) throw new ConflictError('ERR_OBJSTORE_CONFIG_IN_USE');
    if (!(await configs.remove(companyId, input.configId))) throw new NotFoundError('ERR_NO_OBJSTORE_CONFIG_FOUND');
    this.deps.changes.changed(companyId);
    await this.deps.realtime.publish(companyId, { entity: 'objstoreConfig', data: { action: 'delete', configId: input.configId } });
  }
}

/**
 * Tests a config without saving anything: the one given, or a saved one (`configId`) with the
 * fields given instead of its own (its stored secret unless a new one is sent).
 */
export class TestObjstoreConnection {
  constructor(private readonly deps: Pick<Deps, 'configs' | 'probe' | 'cipher' | 'ids' | 'clock' | 'settings'>) {}

  async execute(input: ObjstoreConfigInput & { readonly actor: Actor; readonly configId?: number }) {
    const { configs, clock } = this.deps;
    const companyId = managedCompany(input.actor);
    const base = input.configId === undefined ? null : await findConfig(configs, companyId, input.configId);
    const now = clock.now();
    return checkConnection(this.deps, { ...applyInput(this.deps, companyId, { name: 'test', ...input }, base), active: false, createdAt: now, updatedAt: now });
  }
}
