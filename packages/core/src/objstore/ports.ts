import type { ErrorCode } from '../shared/error-codes.js';
import type { NewObjstoreConfig, ObjstoreConfig, ObjstoreConnection } from './objstore-config.js';

/** A company's object-store configs. Every read and write is scoped by company. */
export interface ObjstoreConfigs {
  findById(companyId: number, id: number): Promise<ObjstoreConfig | null>;
  findActive(companyId: number): Promise<ObjstoreConfig | null>;
  /** By name, then id. */
  list(companyId: number): Promise<ObjstoreConfig[]>;
  /** Stored inactive whatever `active` says: `activate` makes it the active one. */
  add(config: NewObjstoreConfig): Promise<ObjstoreConfig>;
  /** Saves every field but `companyId`, `createdAt` and `active`. */
  update(config: ObjstoreConfig): Promise<void>;
  /**
   * Makes the config the company's only active one and answers the ids it deactivated. The
   * company's configs are locked first, so two activations at once take turns. Run in a transaction.
   */
  activate(companyId: number, id: number): Promise<number[]>;
  deactivate(companyId: number, id: number): Promise<void>;
  /** False when it was not there. */
  remove(companyId: number, id: number): Promise<boolean>;
}

/** Where one blob was put when it did not go to the default store. */
export interface BlobLocation {
  readonly key: string;
  readonly companyId: number;
  readonly configId: number;
  readonly size: number;
  readonly createdAt: Date;
}

/**
 * Which blobs live in a company's object store (absent: the default store). Written when a blob is
 * put, so a blob is found where it was put whatever becomes of the company's active config.
 */
export interface BlobLocations {
  find(key: string): Promise<BlobLocation | null>;
  /** Records a blob's place, replacing what was recorded for its key. */
  save(location: BlobLocation): Promise<void>;
  forget(key: string): Promise<void>;
  /** Total bytes of the recorded blobs whose key starts with `prefix`. */
  usage(prefix: string): Promise<number>;
  /** How many blobs a config holds. */
  countOf(companyId: number, configId: number): Promise<number>;
}

/** The steps of a connection test, in order. `connect`: the endpoint could not be reached at all. */
export type ObjstoreCheckStep = 'connect' | 'write' | 'read' | 'delete';

export type ObjstoreCheckReport =
  | { readonly ok: true; readonly latencyMs: number }
  | { readonly ok: false; readonly step: ObjstoreCheckStep; readonly error: ErrorCode };

/**
 * Tests a bucket for real: puts a small object at `probeKey` (under the config's prefix), reads it
 * back and deletes it. Refuses endpoints on loopback and private addresses unless the deployment
 * allows them (`ERR_URL_NOT_ALLOWED` at `connect`).
 */
export interface ObjstoreProbe {
  check(connection: ObjstoreConnection, probeKey: string): Promise<ObjstoreCheckReport>;
}

/**
 * Told once a company's configs changed, so that the store choosing where its uploads go forgets
 * what it cached for the company (in this process; others notice within their cache's lifetime).
 */
export interface ObjstoreChanges {
  changed(companyId: number): void;
}
