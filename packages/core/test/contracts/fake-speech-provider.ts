import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One part of a multipart body: a field, or a file when it has a file name. */
export interface FakePart {
  readonly name: string;
  readonly filename: string | null;
  readonly contentType: string | null;
  readonly data: Buffer;
}

/** A request the fake received. */
export interface FakeTranscriptionRequest {
  readonly method: string;
  readonly path: string;
  readonly authorization: string | null;
  readonly contentType: string;
  /** The text fields (`model`, `language`…). */
  readonly fields: Readonly<Record<string, string>>;
  readonly file: FakePart | null;
}

/**
 * How the fake answers: `ok` as OpenAI documents it (`{"text": …}`), `slow` never, `server-error`
 * 500 and `rate-limited` 429 with OpenAI's error body, `not-json` a 200 HTML page.
 */
export type FakeMode = 'ok' | 'slow' | 'server-error' | 'rate-limited' | 'not-json';

export interface FakeSpeechProvider {
  /** The base URL to configure (`http://127.0.0.1:<port>/v1`). */
  readonly baseUrl: string;
  readonly requests: FakeTranscriptionRequest[];
  /** API keys it accepts as `Authorization: Bearer …`; empty accepts any request, with or without a key. */
  readonly keys: Set<string>;
  readonly models: Set<string>;
  mode: FakeMode;
  /** What it hears in a file: by default `heard <file name>`. */
  transcript: (file: FakePart, fields: Readonly<Record<string, string>>) => string;
  close(): Promise<void>;
}

/** Splits a multipart/form-data body (enough for what our adapter sends: no nested parts). */
export function parseMultipart(body: Buffer, contentType: string): FakePart[] {
  const boundary = /boundary=(?:"([^"]+)"|([^;]+))/i.exec(contentType);
  if (!boundary) return [];
  const delimiter = Buffer.from(`--${boundary[1] ?? boundary[2]}`);
  const parts: FakePart[] = [];
  let at = body.indexOf(delimiter);
  while (at >= 0) {
    const start = at + delimiter.length;
    if (body.subarray(start, start + 2).toString() === '--') break;
    const next = body.indexOf(delimiter, start);
    if (next < 0) break;
    const chunk = body.subarray(start + 2, next - 2); // after CRLF, before the CRLF that precedes the next delimiter
    const split = chunk.indexOf('\r\n\r\n');
    const head = chunk.subarray(0, split).toString('utf8');
    const disposition = /content-disposition:[^\r\n]*/i.exec(head)?.[0] ?? '';
    parts.push({
      name: /\bname="([^"]*)"/.exec(disposition)?.[1] ?? '',
      filename: /\bfilename="([^"]*)"/.exec(disposition)?.[1] ?? null,
      contentType: /content-type:\s*([^\r\n]+)/i.exec(head)?.[1]?.trim() ?? null,
      data: chunk.subarray(split + 4),
    });
    at = next;
  }
  return parts;
}

function answer(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

/** OpenAI's error body. */
const openAiError = (message: string, type: string, code: string | null) => ({ error: { message, type, param: null, code } });

/**
 * A speech-to-text service on loopback that answers `POST …/audio/transcriptions` as OpenAI's API
 * reference documents it: multipart `file`, `model`, optional `language`; `200 {"text": "…"}`;
 * `401` with `invalid_api_key` for a key it does not know, `404` `model_not_found`, `400` without a file.
 */
export async function startFakeSpeechProvider(options: { keys?: readonly string[]; models?: readonly string[] } = {}): Promise<FakeSpeechProvider> {
  const requests: FakeTranscriptionRequest[] = [];
  const fake = {
    keys: new Set(options.keys ?? []),
    models: new Set(options.models ?? ['whisper-1']),
    mode: 'ok' as FakeMode,
    transcript: ((file) => `heard ${file.filename}`) as FakeSpeechProvider['transcript'],
  };
  const handle = (req: IncomingMessage, res: ServerResponse, body: Buffer) => {
    const contentType = String(req.headers['content-type'] ?? '');
    const parts = contentType.startsWith('multipart/form-data') ? parseMultipart(body, contentType) : [];
    const fields = Object.fromEntries(parts.filter((p) => p.filename === null).map((p) => [p.name, p.data.toString('utf8')]));
    const file = parts.find((p) => p.name === 'file' && p.filename !== null) ?? null;
    const path = new URL(req.url ?? '/', 'http://fake').pathname;
    requests.push({ method: req.method ?? '', path, authorization: req.headers.authorization ?? null, contentType, fields, file });
    if (req.method !== 'POST' || !path.endsWith('/audio/transcriptions'))
      return answer(res, 404, openAiError(`Invalid URL (${req.method} ${path})`, 'invalid_request_error', null));
    const key = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    if (fake.keys.size && (!key || !fake.keys.has(key))) {
      return answer(
        res,
        401,
        openAiError(`Incorrect API key provided: ${key ? `${key.slice(0, 3)}***` : 'none'}.`, 'invalid_request_error', 'invalid_api_key'),
      );
    }
    if (fake.mode === 'slow') return; // never answers
    if (fake.mode === 'server-error') return answer(res, 500, openAiError('The server had an error while processing your request.', 'server_error', null));
    if (fake.mode === 'rate-limited') return answer(res, 429, openAiError('Rate limit reached for requests.', 'requests', 'rate_limit_exceeded'));
    if (fake.mode === 'not-json') {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html>portal</html>');
      return;
    }
    if (!fields.model || !fake.models.has(fields.model)) {
      return answer(
        res,
        404,
        openAiError(`The model \`${fields.model ?? ''}\` does not exist or you do not have access to it.`, 'invalid_request_error', 'model_not_found'),
      );
    }
    if (!file || file.data.length === 0) return answer(res, 400, openAiError('Could not parse multipart form', 'invalid_request_error', null));
    answer(res, 200, { text: fake.transcript(file, fields) });
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => handle(req, res, Buffer.concat(chunks)));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const provider: FakeSpeechProvider = Object.assign(fake, {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    requests,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  });
  return provider;
}
