import { objstoreRoutes, pinnedLookupFor } from '@servicedesk/adapters-http';
import { S3ObjstoreProbe } from '@servicedesk/adapters-persistence';
import { createObjstore, type ObjstoreApi } from '@servicedesk/core/compose/objstore';
import { feature, type Feature } from './feature.js';
import { PERSISTENCE_FEATURES, tablesOf } from '@servicedesk/adapters-persistence/features';

/**
 * Companies' own object stores (`/objstore-configs`): S3-compatible buckets their new uploads go to,
 * the secret sealed with the platform's SecretCipher, tested for real (a probe object written, read
 * and deleted) before one is made active. The blob storage routing uploads by company is built with
 * the infrastructure (`routeBlobsByCompany`) and told here when a company's configs change.
 */
export const objstore: Feature<object, { objstore: ObjstoreApi }> = feature({
  name: 'objstore',
  ...tablesOf(PERSISTENCE_FEATURES.objstore),
  ports: ({ infra, config }) => ({
    ...PERSISTENCE_FEATURES.objstore.repositories(infra.db.orm),
    objstoreProbe: new S3ObjstoreProbe({ lookupFor: (url) => pinnedLookupFor(url, config.allowPrivateUrls) }),
    objstoreSettings: { allowHttp: config.allowPrivateUrls },
    ...(infra.objstoreChanges ? { objstoreChanges: infra.objstoreChanges } : {}),
  }),
  api: (ports) => ({ objstore: createObjstore(ports) }),
  routes: (app) => objstoreRoutes(app),
});
