import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { STATUS_OF, type RouteSpec } from '@servicedesk/adapters-http';
import { buildOpenApi } from '@servicedesk/adapters-http/http/openapi';
import { openPgliteDatabase } from '@servicedesk/adapters-persistence/testing';
import {
  DETACHED_CHANNEL_QUERIES,
  ERROR_CODES,
  InMemoryCache,
  InProcessBroker,
  InProcessRealtimeFanout,
  isErrorCode,
  kindsOf,
  placesOf,
} from '@servicedesk/core';
import { InMemoryBlobStorage } from '@servicedesk/core/testing';
import { pino } from 'pino';
import { readConfig } from '../../src/config.js';
import { createContainer, resolveBackend } from '../../src/container.js';
import { databaseSchema } from '../../src/modules.js';

const ROOT = new URL('../../../../', import.meta.url).pathname;

/** The HTTP statuses a code may be answered with: those of the kinds the catalog lists for it (none if never answered). */
function statusesOf(code: string): number[] {
  return isErrorCode(code) && placesOf(code).includes('answer') ? kindsOf(code).map((k) => STATUS_OF[k]) : [];
}

/**
 * Codes answered with an explicit status (`new HttpError(status, code)`, the realtime handshakes'
 * `refuse(socket, status, code)`, `refusal(status, code)` and `{ ok: false, status, code }`) whose
 * status is not one of the code's kinds. A site that does not spell both out as literals is a problem
 * too: it could not be checked (forwarding a checked handshake's `checked.status` is not a site).
 */
export function statusProblems(sources: Readonly<Record<string, string>>): string[] {
  const problems: string[] = [];
  for (const [file, text] of Object.entries(sources)) {
    const calls = [
      ...text.matchAll(
        /new HttpError\(|\brefuse\(\s*socket,(?!\s*(?:STATUS_OF\[|checked\.))|\bok: false, status:(?!\s*STATUS_OF\[)|(?<!function )\brefusal\((?!checked\.)/g,
      ),
    ];
    for (const call of calls) {
      const line = text.slice(0, call.index).split('\n').length;
      const args = /^(?:new HttpError\(|refuse\(\s*socket,|ok: false, status:|refusal\()\s*(\d{3}),\s*(?:code:\s*)?'([^']+)'/.exec(text.slice(call.index));
      if (!args) {
        problems.push(`${file}:${line}: status and code are not literals`);
        continue;
      }
      const [, status, code] = args;
      if (!code!.startsWith('ERR_')) continue;
      if (!statusesOf(code!).includes(Number(status)))
        problems.push(`${file}:${line}: ${code} answered ${status}, its kinds give ${statusesOf(code!).join(', ') || 'none'}`);
    }
  }
  return problems;
}

/** Route declarations `{ status, codes }` listing a code under a status none of its kinds gives. */
export function declarationProblems(routes: readonly RouteSpec[]): string[] {
  return routes.flatMap((r) =>
    (r.errors ?? []).flatMap((e) => {
      if (typeof e === 'number') return [];
      return (e.codes ?? [])
        .filter((c) => !statusesOf(c).includes(e.status))
        .map((c) => `${r.method} ${r.path}: ${c} declared under ${e.status}, its kinds give ${statusesOf(c).join(', ') || 'none'}`);
    }),
  );
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return /\.ts$/.test(name) && !name.endsWith('.d.ts') ? [full] : [];
  });
}

describe('Architecture: error codes and their HTTP statuses', () => {
  it("maps every kind to a status, and answers each HttpError and handshake refusal with a status of its code's kinds", () => {
    expect(Object.values(STATUS_OF).every((s) => s >= 400 && s < 600)).to.equal(true);
    const dir = path.join(ROOT, 'packages/adapters-http/src');
    const sources = Object.fromEntries(sourceFiles(dir).map((f) => [path.relative(ROOT, f), readFileSync(f, 'utf8')]));
    expect(
      Object.values(sources)
        .join('')
        .match(/new HttpError\(/g)?.length ?? 0,
    ).to.be.greaterThan(10);
    expect(statusProblems(sources)).to.deep.equal([]);
  });

  it('declares on every route each code under a status its kinds give; the reference documents the whole catalog', async () => {
    const db = await openPgliteDatabase(databaseSchema());
    try {
      const { routes } = resolveBackend(
        createContainer({
          config: readConfig({ JWT_SECRET: 'test-secret-test-secret-test-secret-0123', DATA_DIR: '/tmp/unused' }),
          infra: {
            db,
            cache: new InMemoryCache(),
            blobs: new InMemoryBlobStorage(),
            fanout: new InProcessRealtimeFanout(),
            broker: new InProcessBroker(),
            async close() {
              await db.close();
            },
          },
          jwtSecret: 'test-secret-test-secret-test-secret-0123',
          channelQueries: DETACHED_CHANNEL_QUERIES,
          startedAt: new Date(),
          version: '0.0.0',
          log: pino({ level: 'silent' }),
        }),
      );
      expect(routes.filter((r) => r.errors?.some((e) => typeof e !== 'number' && e.codes?.length)).length).to.be.greaterThan(100);
      expect(declarationProblems(routes)).to.deep.equal([]);
      // The reference documents the whole catalog on the Error schema.
      const errorSchema = buildOpenApi(routes, { title: 't', version: '0' }).components?.schemas?.Error;
      const documented = (errorSchema && 'x-error-codes' in errorSchema ? errorSchema['x-error-codes'] : {}) as Record<string, { status?: number[] }>;
      expect(Object.keys(documented)).to.deep.equal(Object.keys(ERROR_CODES));
      expect(documented.ERR_FILE_TOO_LARGE).to.deep.include({ kind: ['too-large', 'validation'], status: [413, 422] });
      expect(documented.ERR_NO_TICKET_FOUND).to.deep.equal({ kind: 'not-found', status: [404], description: ERROR_CODES.ERR_NO_TICKET_FOUND.description });
      expect(documented.ERR_SEND_DEADLINE_EXCEEDED).to.not.have.property('status');
    } finally {
      await db.close();
    }
  });

  it('(both checks find a status that does not fit, on a small fake)', () => {
    expect(
      statusProblems({
        'fake.ts': [
          "throw new HttpError(404, 'ERR_ROUTE_NOT_FOUND');",
          "throw new HttpError(400, 'ERR_ROUTE_NOT_FOUND');",
          "throw new HttpError(413, 'ERR_FILE_TOO_LARGE'); throw new HttpError(422, 'ERR_FILE_TOO_LARGE');",
          'throw new HttpError(status, code);',
          "return this.refuse(socket, 401, 'ERR_NO_PERMISSION');",
          'return this.refuse(socket, STATUS_OF[err.kind], err.code);',
          "return { ok: false, status: 401, code: 'ERR_NO_PERMISSION' }; return { ok: false, status: 403, code: 'ERR_NO_PERMISSION' };",
          "next(refusal(400, 'ERR_ROUTE_NOT_FOUND')); throw refusal(checked.status, checked.code);",
          'return this.refuse(socket, checked.status, checked.code);',
        ].join('\n'),
      }),
    ).to.deep.equal([
      'fake.ts:2: ERR_ROUTE_NOT_FOUND answered 400, its kinds give 404',
      'fake.ts:4: status and code are not literals',
      'fake.ts:5: ERR_NO_PERMISSION answered 401, its kinds give 403',
      'fake.ts:7: ERR_NO_PERMISSION answered 401, its kinds give 403',
      'fake.ts:8: ERR_ROUTE_NOT_FOUND answered 400, its kinds give 404',
    ]);
    const handler = async () => undefined;
    expect(
      declarationProblems([
        { method: 'GET', path: '/a', auth: 'none', tag: 't', summary: 's', handler, errors: [409, { status: 404, codes: ['ERR_NO_TAG_FOUND'] }] },
        {
          method: 'GET',
          path: '/b',
          auth: 'none',
          tag: 't',
          summary: 's',
          handler,
          errors: [{ status: 409, codes: ['ERR_NO_TAG_FOUND', 'ERR_TAG_NAME_ALREADY_EXISTS'] }],
        },
      ]),
    ).to.deep.equal(['GET /b: ERR_NO_TAG_FOUND declared under 409, its kinds give 404']);
  });
});
