import { fileRoutes } from '@servicedesk/adapters-http';
import { FEATURE_TABLES, filesRepositories } from '@servicedesk/adapters-persistence';
import { createFiles, type FilesApi } from '@servicedesk/core/compose/files';
import { feature, type Feature } from './feature.js';

/**
 * File lists (`/files`): named bundles of files per company, their files streamed to blob storage
 * (private keys under `company-<id>/file-lists/`) and typed by their bytes.
 */
export const files: Feature<object, { files: FilesApi }> = feature({
  name: 'files',
  ...FEATURE_TABLES.files,
  ports: ({ infra }) => filesRepositories(infra.db.orm),
  api: (ports) => ({ files: createFiles(ports) }),
  routes: (app) => fileRoutes(app),
});
