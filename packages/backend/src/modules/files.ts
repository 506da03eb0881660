import { fileRoutes } from '@servicedesk/adapters-http';
import { createFiles, type FilesApi } from '@servicedesk/core/compose/files';
import { feature, type Feature } from './feature.js';
import { PERSISTENCE_FEATURES, tablesOf } from '@servicedesk/adapters-persistence/features';

/**
 * File lists (`/files`): named bundles of files per company, their files streamed to blob storage
 * (private keys under `company-<id>/file-lists/`) and typed by their bytes.
 */
export const files: Feature<object, { files: FilesApi }> = feature({
  name: 'files',
  ...tablesOf(PERSISTENCE_FEATURES.files),
  ports: ({ infra }) => PERSISTENCE_FEATURES.files.repositories(infra.db.orm),
  api: (ports) => ({ files: createFiles(ports) }),
  routes: (app) => fileRoutes(app),
});
