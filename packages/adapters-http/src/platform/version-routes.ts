import { z } from 'zod';
import { route } from '../http/route.js';

const SEMVER = /^(\d+)\.(\d+)\.(\d+)(?:[-+][0-9A-Za-z.-]+)?$/;

const versionInfo = z
  .object({
    name: z.string().meta({ example: 'servicedesk-backend' }),
    version: z.string().regex(SEMVER).meta({ example: '0.1.0' }),
    startedAt: z.iso.datetime().meta({ description: 'When this process started (UTC)', example: '2025-01-31T12:00:00.000Z' }),
  })
  .meta({ id: 'VersionInfo', description: 'The backend answering' });

const compatibility = z
  .object({
    backend: z.string().meta({ description: "The backend's version", example: '0.1.0' }),
    frontend: z.string().meta({ description: 'The version the frontend sent', example: '0.4.2' }),
    compatible: z.boolean().meta({ description: 'Same major version', example: true }),
  })
  .meta({ id: 'VersionCompatibility', description: 'Whether the frontend may talk to this backend' });

/**
 * `GET /version` is the deployment check (there is no /health). `POST /version` lets a frontend
 * ask whether its own version is compatible with this backend (same major version).
 */
export function versionRoutes(info: { name: string; version: string; startedAt: Date }) {
  const tag = 'Files, prompts, proxies, utilities';
  return [
    route({
      method: 'GET',
      path: '/version',
      auth: 'none',
      tag,
      summary: 'Backend name, version and uptime',
      description: 'The deployment check: a backend that answers this is up (there is no `/health`).',
      response: versionInfo,
      handler: async () => ({ name: info.name, version: info.version, startedAt: info.startedAt }),
    }),
    route({
      method: 'POST',
      path: '/version',
      auth: 'none',
      tag,
      summary: "Check a frontend's version against the backend's",
      description:
        'Versions are compatible when their major versions (the leading number) are equal. Any version string is accepted ' +
        "(the lineage's client sends its package version, such as `2.2.2v-26`); one without a leading number is never compatible.",
      body: z
        .object({
          version: z.string().trim().min(1).max(60).meta({
            description: "The frontend's own version; only its leading number (the major version, an optional `v` before it) is compared",
            example: '0.4.2',
          }),
        })
        .meta({ example: { version: '0.4.2' } }),
      response: compatibility,
      handler: async ({ body }) => {
        const major = (v: string) => /^v?(\d+)/.exec(v)?.[1];
        const frontendMajor = major(body.version);
        return {
          backend: info.version,
          frontend: body.version,
          compatible: frontendMajor !== undefined && Number(frontendMajor) === Number(major(info.version)),
        };
      },
    }),
  ];
}
