import { z } from 'zod';
import { route } from '../http/route.js';

const SEMVER = /^(\d+)\.(\d+)\.(\d+)(?:[-+][0-9A-Za-z.-]+)?$/;

/**
 * `GET /version` is the deployment check (there is no /health). `POST /version` lets a frontend
 * ask whether its own version is compatible with this backend (same major version).
 */
export function versionRoutes(info: { name: string; version: string; startedAt: Date }) {
  const tag = 'Files, prompts, proxies, utilities';
  return [
    route({
      method: 'GET', path: '/version', auth: 'none', tag, summary: 'Backend name, version and uptime',
      handler: async () => ({ name: info.name, version: info.version, startedAt: info.startedAt.toISOString() }),
    }),
    route({
      method: 'POST', path: '/version', auth: 'none', tag, summary: "Check a frontend's version against the backend's",
      body: z.object({ version: z.string().regex(SEMVER, 'a semantic version such as 1.2.3') }),
      handler: async ({ body }) => {
        const major = (v: string) => Number(SEMVER.exec(v)![1]);
        return { backend: info.version, frontend: body.version, compatible: major(body.version) === major(info.version) };
      },
    }),
  ];
}
