import { DomainError, ServiceUnavailableError, type BlobStorage, type Clock, type SecretCipher, type StoredBlob } from '@servicedesk/core';
import { companyOfBlobKey } from '@servicedesk/core/objstore/blob-keys';
import { connectionOf, type ObjstoreConnection } from '@servicedesk/core/objstore/objstore-config';
import type { BlobLocations, ObjstoreChanges, ObjstoreConfigs } from '@servicedesk/core/objstore/ports';
import { keyOfPublicUrl, publicUrlOf } from './public-urls.js';

/** A config's store; `close` releases its connections when the store is replaced. */
export type ConfigStore = BlobStorage & { close?(): void };

export interface CompanyBlobStorageOptions {
  /** The platform's store: blobs of companies without an active config, and of no company. */
  readonly fallback: BlobStorage;
  readonly configs: Pick<ObjstoreConfigs, 'findById' | 'findActive'>;
  readonly locations: BlobLocations;
  /** Opens the configs' secrets. */
  readonly cipher: SecretCipher;
  /** The store of a config's bucket (`createS3BlobStorage` with the deployment's address rules). */
  readonly storeOf: (connection: ObjstoreConnection) => ConfigStore;
  /**
   * Public URLs of every blob: `<publicBaseUrl>/<key>`, the backend's `/public/…` route, which finds
   * a blob wherever it is (so a URL handed out once keeps working whatever the company's config
   * becomes). Absent: the fallback's URLs.
   */
  readonly publicBaseUrl?: string;
  /** The fallback's public URLs are read by clients directly (a GCS bucket): `directUrl` sends its public blobs there. */
  readonly fallbackServesPublicly?: boolean;
  /** How long a company's active config (and a config's store) is trusted before it is read again; default 30 s. */
  readonly cacheSeconds?: number;
  /** Told of a failure of a company's store before it is answered as 503 `ERR_OBJSTORE_UNAVAILABLE`. */
  readonly onStoreError?: (error: unknown, at: { readonly key: string; readonly configId: number }) => void;
  /** The company a key belongs to; default: the company folder the features build their keys under. */
  readonly companyOf?: (key: string) => number | null;
  readonly clock?: Clock;
}

/** A store kept this long is made again, so that its host is resolved (and checked) again. */
const STORE_MAX_AGE_MS = 10 * 60_000;
/** A replaced store is closed this much later: requests still running on it finish first. */
const CLOSE_DELAY_MS = 5 * 60_000;
const SYSTEM_CLOCK: Clock = { now: () => new Date() };

interface CachedStore {
  readonly configId: number;
  readonly companyId: number;
  readonly stamp: number;
  readonly store: ConfigStore;
  readonly madeAt: number;
  checkedUntil: number;
}

/**
 * Blob storage routed by company. A blob whose key names a company (`companyOfBlobKey`) goes to
 * the company's active object-store config when it has one, and its place (key → config, with its
 * size) is recorded in `blob_locations`; any other blob goes to the fallback, where a blob without
 * a recorded place is looked for. So `get`, `delete` and `usage` find a blob where it was put,
 * after the company activates another config, deactivates or edits it. A config holding blobs
 * cannot be deleted nor moved (its endpoint, bucket and prefix), so a recorded place stays valid.
 *
 * The company's active config is cached for `cacheSeconds`; `changed(companyId)` drops it at once
 * (the config use cases call it in this process, other instances notice within the delay).
 */
export class CompanyBlobStorage implements BlobStorage, ObjstoreChanges {
  private readonly active = new Map<number, { configId: number | null; until: number }>();
  private readonly stores = new Map<number, CachedStore>();
  private readonly ttlMs: number;
  private readonly clock: Clock;
  private readonly companyOf: (key: string) => number | null;

  constructor(private readonly o: CompanyBlobStorageOptions) {
    this.ttlMs = (o.cacheSeconds ?? 30) * 1000;
    this.clock = o.clock ?? SYSTEM_CLOCK;
    this.companyOf = o.companyOf ?? companyOfBlobKey;
  }

  changed(companyId: number): void {
    this.active.delete(companyId);
    for (const cached of this.stores.values()) if (cached.companyId === companyId) cached.checkedUntil = 0;
  }

  async put(key: string, data: Buffer, contentType: string): Promise<StoredBlob> {
    return this.place(key, (store) => store.put(key, data, contentType));
  }

  async putFile(key: string, path: string, contentType: string): Promise<StoredBlob> {
    return this.place(key, (store) => store.putFile(key, path, contentType));
  }

  async get(key: string) {
    const location = await this.o.locations.find(key);
    if (!location) return this.o.fallback.get(key);
    const store = await this.storeOf(location.companyId, location.configId);
    return this.guard(key, location.configId, () => store.get(key));
  }

  async delete(key: string) {
    const location = await this.o.locations.find(key);
    if (!location) return this.o.fallback.delete(key);
    const store = await this.storeOf(location.companyId, location.configId);
    await this.guard(key, location.configId, () => store.delete(key));
    await this.o.locations.forget(key);
  }

  /** The fallback's bytes plus the recorded sizes of the blobs in companies' stores. */
  async usage(prefix: string) {
    return (await this.o.fallback.usage(prefix)) + (await this.o.locations.usage(prefix));
  }

  publicUrl(key: string) {
    return this.o.publicBaseUrl === undefined ? this.o.fallback.publicUrl(key) : publicUrlOf(this.o.publicBaseUrl.replace(/\/+$/, ''), key);
  }

  /** Also the fallback's own URLs, which earlier answers may have handed out. */
  keyOfPublicUrl(url: string) {
    const ours = this.o.publicBaseUrl === undefined ? null : keyOfPublicUrl(this.o.publicBaseUrl.replace(/\/+$/, ''), url);
    return ours ?? this.o.fallback.keyOfPublicUrl(url);
  }

  /**
   * Where clients may read a public blob directly: its config's public base URL (a CDN), the
   * fallback's own URL when it serves its blobs publicly, or null to have the backend serve it.
   */
  async directUrl(key: string): Promise<string | null> {
    const location = await this.o.locations.find(key);
    if (!location) return this.o.fallbackServesPublicly ? this.o.fallback.publicUrl(key) : null;
    const config = await this.o.configs.findById(location.companyId, location.configId);
    if (!config?.publicBaseUrl) return null;
    return (await this.storeOf(location.companyId, location.configId)).publicUrl(key);
  }

  /**
   * Writes the blob where its company's uploads go now, records (or clears) its place, and removes
   * the copy the key had elsewhere, if any.
   */
  private async place(key: string, write: (store: BlobStorage) => Promise<StoredBlob>): Promise<StoredBlob> {
    const companyId = this.companyOf(key);
    const configId = companyId === null ? null : await this.activeConfigOf(companyId);
    const previous = await this.o.locations.find(key);
    if (companyId === null || configId === null) {
      const stored = await write(this.o.fallback);
      if (previous) {
        await this.o.locations.forget(key);
        await this.dropCopy(key, previous.companyId, previous.configId);
      }
      return stored;
    }
    const store = await this.storeOf(companyId, configId);
    const stored = await this.guard(key, configId, () => write(store));
    try {
      await this.o.locations.save({ key, companyId, configId, size: stored.size, createdAt: this.clock.now() });
    } catch (error) {
      await store.delete(key).catch(() => undefined);
      throw error;
    }
    if (!previous) await this.o.fallback.delete(key);
    else if (previous.configId !== configId) await this.dropCopy(key, previous.companyId, previous.configId);
    return stored;
  }

  /** A copy left behind by a second put of a key; one that cannot be removed now only takes room. */
  private async dropCopy(key: string, companyId: number, configId: number) {
    await (await this.storeOf(companyId, configId)).delete(key).catch((error: unknown) => this.o.onStoreError?.(error, { key, configId }));
  }

  private async activeConfigOf(companyId: number): Promise<number | null> {
    const now = this.clock.now().getTime();
    const cached = this.active.get(companyId);
    if (cached && cached.until > now) return cached.configId;
    const config = await this.o.configs.findActive(companyId);
    this.active.set(companyId, { configId: config?.id ?? null, until: now + this.ttlMs });
    return config?.id ?? null;
  }

  /** The store of a config, made again when the config changed or the store grew old. */
  private async storeOf(companyId: number, configId: number): Promise<ConfigStore> {
    const now = this.clock.now().getTime();
    const cached = this.stores.get(configId);
    if (cached && cached.checkedUntil > now) return cached.store;
    const config = await this.o.configs.findById(companyId, configId);
    if (!config) throw new ServiceUnavailableError('ERR_OBJSTORE_UNAVAILABLE');
    const stamp = config.updatedAt.getTime();
    if (cached && cached.stamp === stamp && now - cached.madeAt < STORE_MAX_AGE_MS) {
      cached.checkedUntil = now + this.ttlMs;
      return cached.store;
    }
    if (cached?.store.close) setTimeout(() => cached.store.close!(), CLOSE_DELAY_MS).unref();
    const store = this.o.storeOf(connectionOf(this.o.cipher, config));
    this.stores.set(configId, { configId, companyId, stamp, store, madeAt: now, checkedUntil: now + this.ttlMs });
    return store;
  }

  /** A company's store that fails answers 503 (ours are domain errors already). */
  private async guard<T>(key: string, configId: number, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (error instanceof DomainError) throw error;
      this.o.onStoreError?.(error, { key, configId });
      throw new ServiceUnavailableError('ERR_OBJSTORE_UNAVAILABLE');
    }
  }
}
