import { readdir } from 'node:fs/promises';
import { connect, type Socket } from 'node:net';
import os from 'node:os';
import { TEMP_FILE_PREFIX, multipartTotalLimit, type MultipartLimits, type RouteSpec } from '@servicedesk/adapters-http';
import { expect } from 'chai';
import { eventually } from '../support/eventually.js';
import { COMPANY_TOKEN, asSuper, startTestBackend, type TestBackend } from '../support/test-backend.js';

/**
 * Hostile multipart bodies against every route that reads one (taken from the route declarations):
 * each is refused with its 4xx `{ error }` (or, when the client goes away, a closed connection),
 * no error escapes as an uncaught exception or rejection, no temporary file stays behind, and the
 * server goes on answering. The refused bodies go on with a file part spanning several socket
 * reads: the reader meets it after it has failed, while it is still tearing the parser down.
 */

const CONNECTION_TOKEN = 'multipart-hostile-token-0123456789abcdef';
const BOUNDARY = 'multipartHostile0123456789';
/** A file part larger than one socket read, so that it is still streaming when the parser is torn down. */
const SPANNING = 256 * 1024;

/** A piece of a body: bytes, or that many filler bytes (sent from one reused buffer). */
type Piece = Buffer | number;
const FILLER = Buffer.alloc(64 * 1024, 0x61);
const CRLF = Buffer.from('\r\n');
const END = Buffer.from(`--${BOUNDARY}--\r\n`);
const partHead = (disposition: string) => Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; ${disposition}\r\n\r\n`);
const text = (name: string, value: string | number): Piece[] => [partHead(`name="${name}"`), typeof value === 'number' ? value : Buffer.from(value), CRLF];
const file = (name: string, bytes: number): Piece[] => [partHead(`name="${name}"; filename="f.bin"`), bytes, CRLF];
const lengthOf = (pieces: Piece[]) => pieces.reduce<number>((n, p) => n + (typeof p === 'number' ? p : p.length), 0);

interface Variant {
  readonly pieces: Piece[];
  readonly error: string;
}

/** Each failure mode: the body for a route's limits, and the error it must be refused with. */
const MODES: Array<{ label: string; variant: (m: MultipartLimits) => Variant }> = [
  {
    label: 'a file under a field name the route does not take',
    variant: (m) => ({
      error: 'ERR_UNEXPECTED_FILE_FIELD',
      // A good file first where the route takes two (its temporary file must go too); with one, the stray would be one too many.
      pieces: [...(m.maxFiles > 1 ? file(m.fileFields[0]!, 10) : text('before', 'x')), ...file('evil', SPANNING), ...text('after', 'x'), END],
    }),
  },
  {
    label: 'a file under an empty field name',
    variant: () => ({ error: 'ERR_UNEXPECTED_FILE_FIELD', pieces: [...text('', 'x'), ...file('', SPANNING), END] }),
  },
  {
    label: 'text fields named after Object.prototype members',
    variant: () => ({
      error: 'ERR_UNEXPECTED_FILE_FIELD',
      pieces: [...['constructor', '__proto__', 'toString', 'hasOwnProperty'].flatMap((n) => text(n, 'x')), ...file('constructor', SPANNING), END],
    }),
  },
  {
    label: 'one file more than the route takes',
    variant: (m) => ({
      error: 'ERR_TOO_MANY_FILES',
      pieces: [...Array.from({ length: m.maxFiles + 1 }, () => file(m.fileFields[0]!, 10)).flat(), ...file(m.fileFields[0]!, SPANNING), END],
    }),
  },
  {
    label: '80 text fields (or one more than the route takes)',
    variant: (m) => ({
      error: 'ERR_TOO_MANY_FIELDS',
      pieces: [...Array.from({ length: Math.max(80, (m.maxFields ?? 50) + 1) }, (_, i) => text(`f${i}`, 'x')).flat(), ...file(m.fileFields[0]!, SPANNING), END],
    }),
  },
  {
    label: 'a 200 KB text field',
    variant: (m) => ({ error: 'ERR_FIELD_TOO_LARGE', pieces: [...text('body', 200 * 1024), ...file(m.fileFields[0]!, SPANNING), END] }),
  },
  {
    label: 'a file one byte over the limit',
    variant: (m) => {
      const pieces = [...file(m.fileFields[0]!, m.maxFileBytes + 1), ...file(m.fileFields[0]!, SPANNING), END];
      // A route whose total limit is below one file refuses the declared length before reading.
      return { pieces, error: lengthOf(pieces) > multipartTotalLimit(m) ? 'ERR_BODY_TOO_LARGE' : 'ERR_FILE_TOO_LARGE' };
    },
  },
  {
    label: 'a body cut inside a file part',
    variant: (m) => ({ error: 'ERR_INVALID_MULTIPART', pieces: [...text('x', 'x'), partHead(`name="${m.fileFields[0]}"; filename="f.bin"`), SPANNING] }),
  },
  { label: 'a body cut inside a text field', variant: () => ({ error: 'ERR_INVALID_MULTIPART', pieces: [partHead('name="x"'), 100] }) },
  {
    label: 'a body cut inside part headers',
    variant: () => ({ error: 'ERR_INVALID_MULTIPART', pieces: [Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-da`)] }),
  },
];

interface Answer {
  readonly status: number | 'closed' | 'timeout';
  readonly error?: unknown;
  readonly text: string;
}

const drained = (s: Socket) =>
  new Promise<void>((resolve) => {
    const done = () => {
      s.off('drain', done);
      s.off('close', done);
      resolve();
    };
    s.on('drain', done);
    s.on('close', done);
  });

/**
 * One request over raw TCP: `head`, then the pieces (writing stops once an answer arrives or the
 * socket is gone). The answer is read when the server closes the connection (`Connection: close`).
 */
function exchange(port: number, head: string, pieces: Piece[]): { socket: Socket; answer: Promise<Answer> } {
  const socket = connect(port, '127.0.0.1');
  const chunks: Buffer[] = [];
  let timedOut = false;
  socket.on('data', (c: Buffer) => chunks.push(c));
  // A reset after the answer: the server stops reading a body it has refused.
  socket.on('error', () => undefined);
  socket.setTimeout(20_000, () => {
    timedOut = true;
    socket.destroy();
  });
  const stop = () => socket.destroyed || chunks.length > 0;
  socket.once(
    'connect',
    () =>
      void (async () => {
        const send = async (chunk: Buffer) => {
          if (!socket.write(chunk)) await drained(socket);
        };
        for (const p of [Buffer.from(head), ...pieces]) {
          if (typeof p !== 'number') {
            if (stop()) return;
            await send(p);
            continue;
          }
          for (let left = p; left > 0; left -= FILLER.length) {
            if (stop()) return;
            await send(left >= FILLER.length ? FILLER : FILLER.subarray(0, left));
          }
        }
      })(),
  );
  const answer = new Promise<Answer>((resolve) =>
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('latin1');
      if (!text) return resolve({ status: timedOut ? 'timeout' : 'closed', text });
      let error: unknown;
      try {
        error = JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4)).error;
      } catch {
        /* no JSON: reported as is */
      }
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0), error, text: text.slice(0, 300) });
    }),
  );
  return { socket, answer };
}

const leftovers = async () => (await readdir(os.tmpdir())).filter((n) => n.startsWith(TEMP_FILE_PREFIX));
const name = (r: RouteSpec) => `${r.method} ${r.path}`;

describe('Hostile multipart bodies on every upload route: refused with 4xx, nothing uncaught, nothing left behind', function () {
  this.timeout(60_000);
  let b: TestBackend;
  let port: number;
  let superToken: string;
  let routes: RouteSpec[];
  const uncaught: unknown[] = [];
  const onUncaught = (err: unknown) => {
    uncaught.push(err);
  };

  before(async () => {
    process.on('uncaughtException', onUncaught);
    process.on('unhandledRejection', onUncaught);
    b = await startTestBackend();
    port = Number(new URL(b.url).port);
    const { api, token } = await asSuper(b);
    superToken = token;
    // Every plan feature on: feature-gated upload routes read their body instead of refusing the plan.
    const plan = await api.put('/plans/1', {
      useCampaigns: true,
      useSchedules: true,
      useInternalChat: true,
      useExternalApi: true,
      useKanban: true,
      useOpenAi: true,
      useIntegrations: true,
    });
    expect(plan.status, JSON.stringify(plan.body)).to.equal(200);
    const created = await api.post('/chatapp/', { name: 'Hostile multipart', provider: 'sandbox', token: CONNECTION_TOKEN });
    expect(created.status, JSON.stringify(created.body)).to.be.oneOf([200, 201]);
    routes = b.http.routes.filter((r) => r.multipart !== undefined);
  });
  after(async () => {
    process.off('uncaughtException', onUncaught);
    process.off('unhandledRejection', onUncaught);
    await b?.close();
  });

  /** The request head for a route, past its auth class, with `length` declared. */
  function headFor(r: RouteSpec, length: number): string {
    const token = { isAuth: superToken, tokenAuth: CONNECTION_TOKEN, isAuthCompany: COMPANY_TOKEN }[r.auth as string];
    if (!token) throw new Error(`${name(r)}: no credentials for auth class ${r.auth}`);
    return (
      `${r.method} ${r.path.replace(/:\w+/g, '1')} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${token}\r\nConnection: close\r\n` +
      `Content-Type: multipart/form-data; boundary=${BOUNDARY}\r\nContent-Length: ${length}\r\n\r\n`
    );
  }

  /** After each mode: the server answers, no temporary file is left, and nothing went uncaught. */
  async function expectServerIntact() {
    expect(
      uncaught.map((e) => String((e as Error)?.stack ?? e)),
      'uncaught errors',
    ).to.deep.equal([]);
    expect((await fetch(`${b.url}/version`)).status).to.equal(200);
    expect(await leftovers(), 'temporary files left').to.deep.equal([]);
  }

  it('finds the upload routes in the route declarations', () => {
    const paths = routes.map(name);
    for (const known of ['POST /settings/privateFile', 'POST /settings-whitelabel/logo', 'POST /api/messages/send', 'POST /messages/:ticketId']) {
      expect(paths).to.include(known);
    }
  });

  for (const mode of MODES) {
    it(`${mode.label}: refused on every upload route`, async () => {
      const failures: string[] = [];
      const queue = [...routes];
      await Promise.all(
        Array.from({ length: 6 }, async () => {
          for (let r = queue.shift(); r; r = queue.shift()) {
            const { pieces, error } = mode.variant(r.multipart!);
            const res = await exchange(port, headFor(r, lengthOf(pieces)), pieces).answer;
            if (res.error !== error || typeof res.status !== 'number' || res.status < 400 || res.status > 499) {
              failures.push(`${name(r)} → ${res.status} ${res.text} (expected ${error})`);
            }
          }
        }),
      );
      expect(failures).to.deep.equal([]);
      await expectServerIntact();
    });
  }

  /**
   * The client sends part of a body with a file in it, holds until every request has its temporary
   * file (so each was reading a file part), then goes away as `leave` says.
   */
  async function holdThenLeave(pieces: (m: MultipartLimits) => Piece[], declared: (sent: number) => number, leave: (s: Socket) => void) {
    const running = routes.map((r) => {
      const sent = pieces(r.multipart!);
      return { r, ...exchange(port, headFor(r, declared(lengthOf(sent))), sent) };
    });
    await eventually('a temporary file for every request', async () => (await leftovers()).length >= running.length);
    for (const { socket } of running) leave(socket);
    const failures: string[] = [];
    for (const { r, answer } of running) {
      const res = await answer;
      const refused = typeof res.status === 'number' && res.status >= 400 && res.status <= 499 && typeof res.error === 'string';
      // Node's HTTP parser itself refuses a body that ends before its declared length, before the route has answered.
      const refusedByNode = res.text === 'HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n';
      if (res.status !== 'closed' && !refused && !refusedByNode) failures.push(`${name(r)} → ${res.status} ${res.text}`);
    }
    expect(failures).to.deep.equal([]);
    // The server removes them once it has seen the request end.
    await eventually('no temporary file left', async () => (await leftovers()).length === 0);
    await expectServerIntact();
  }

  it('a client that disconnects mid-file: every upload route stays up and keeps no temporary file', async () => {
    await holdThenLeave(
      (m) => [...text('x', 'x'), partHead(`name="${m.fileFields[0]}"; filename="f.bin"`), SPANNING],
      (sent) => sent + 1024 * 1024,
      (s) => s.destroy(),
    );
  });

  it('a Content-Length larger than what is sent, then the client ends its side', async () => {
    await holdThenLeave(
      (m) => [...text('x', 'x'), ...file(m.fileFields[0]!, 10), END],
      (sent) => sent + 1000,
      (s) => s.end(),
    );
  });
});
