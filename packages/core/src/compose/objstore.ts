import {
  CreateObjstoreConfig,
  DeleteObjstoreConfig,
  ListObjstoreConfigs,
  ShowObjstoreConfig,
  TestObjstoreConnection,
  UpdateObjstoreConfig,
} from '../objstore/manage-objstore-configs.js';
import { ObjstoreAnnouncer } from '../objstore/objstore-announcer.js';
import { ObjstoreConnector, type ObjstoreSettings } from '../objstore/objstore-connector.js';
import type { BlobLocations, ObjstoreChanges, ObjstoreConfigs, ObjstoreProbe } from '../objstore/ports.js';
import type { Needs } from './shared-ports.js';

/** The object stores' own ports: the configs, where blobs were put, the connection test. */
export interface ObjstorePorts {
  readonly objstoreConfigs: ObjstoreConfigs;
  readonly blobLocations: BlobLocations;
  readonly objstoreProbe: ObjstoreProbe;
  /** The store routing uploads by company, told of changes; absent: nothing caches the configs. */
  readonly objstoreChanges?: ObjstoreChanges;
  /** Absent: endpoints must be https. */
  readonly objstoreSettings?: ObjstoreSettings;
}

const NOBODY_CACHES: ObjstoreChanges = { changed: () => undefined };

/** Per-company object stores (S3-compatible buckets): an admin's configuration, tested before it is used. */
export function createObjstore(p: ObjstorePorts & Needs<'secretCipher'>) {
  const configs = p.objstoreConfigs;
  const deps = {
    configs,
    locations: p.blobLocations,
    connector: new ObjstoreConnector({ cipher: p.secretCipher, settings: p.objstoreSettings ?? { allowHttp: false }, probe: p.objstoreProbe, ids: p.ids }),
    announcer: new ObjstoreAnnouncer({ configs, changes: p.objstoreChanges ?? NOBODY_CACHES, realtime: p.realtime }),
    tx: p.tx,
    clock: p.clock,
  };
  return {
    listObjstoreConfigs: new ListObjstoreConfigs(deps),
    showObjstoreConfig: new ShowObjstoreConfig(deps),
    createObjstoreConfig: new CreateObjstoreConfig(deps),
    updateObjstoreConfig: new UpdateObjstoreConfig(deps),
    deleteObjstoreConfig: new DeleteObjstoreConfig(deps),
    testObjstoreConnection: new TestObjstoreConnection(deps),
  };
}
export type ObjstoreApi = ReturnType<typeof createObjstore>;
