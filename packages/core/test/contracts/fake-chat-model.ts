import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A chat-completions request the fake received. */
export interface FakeChatRequest {
  readonly path: string;
  readonly authorization: string | null;
  readonly body: { model?: string; messages?: Array<{ role: string; content: string }>; max_tokens?: number; temperature?: number };
}

/**
 * How the fake answers: `ok` as OpenAI documents it, `slow` never, `server-error` 500 and
 * `rate-limited` 429 with OpenAI's error body, `not-completion` a 200 without choices.
 */
export type FakeChatMode = 'ok' | 'slow' | 'server-error' | 'rate-limited' | 'not-completion';

export interface FakeChatModel {
  /** The base URL to configure (`http://127.0.0.1:<port>/v1`). */
  readonly baseUrl: string;
  readonly requests: FakeChatRequest[];
  /** API keys it accepts as `Authorization: Bearer …`; empty accepts any request. */
  readonly keys: Set<string>;
  mode: FakeChatMode;
  /** What it answers to a request: by default `answer to <last user message>`. */
  reply: (request: FakeChatRequest) => string;
  close(): Promise<void>;
}

const error = (res: ServerResponse, status: number, message: string, type: string) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ error: { message, type, code: null } }));
};

/** An OpenAI-compatible `POST /v1/chat/completions` on loopback, for adapter and end-to-end tests. */
export async function startFakeChatModel(options: { keys?: readonly string[] } = {}): Promise<FakeChatModel> {
  const open = new Set<ServerResponse>();
  const state: FakeChatModel = {
    baseUrl: '',
    requests: [],
    keys: new Set(options.keys ?? []),
    mode: 'ok',
    reply: (r) => `answer to ${[...(r.body.messages ?? [])].reverse().find((m) => m.role === 'user')?.content ?? ''}`,
    close: async () => {
      for (const res of open) res.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    open.add(res);
    res.on('close', () => open.delete(res));
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      let body: FakeChatRequest['body'] = {};
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as FakeChatRequest['body'];
      } catch {
        /* recorded as empty */
      }
      const request: FakeChatRequest = { path: req.url ?? '', authorization: req.headers.authorization ?? null, body };
      state.requests.push(request);
      if (req.method !== 'POST' || req.url !== '/v1/chat/completions') return error(res, 404, 'not found', 'invalid_request_error');
      if (state.keys.size && !state.keys.has((request.authorization ?? '').replace(/^Bearer /, '')))
        return error(res, 401, 'Incorrect API key provided', 'invalid_request_error');
      switch (state.mode) {
        case 'slow':
          return undefined;
        case 'server-error':
          return error(res, 500, 'The server had an error', 'server_error');
        case 'rate-limited':
          return error(res, 429, 'Rate limit reached', 'requests');
        case 'not-completion':
          res.writeHead(200, { 'content-type': 'application/json' });
          return res.end(JSON.stringify({ object: 'list', data: [] }));
        default: {
          const text = state.reply(request);
          const promptTokens = JSON.stringify(body.messages ?? []).length;
          res.writeHead(200, { 'content-type': 'application/json' });
          return res.end(
            JSON.stringify({
              id: `chatcmpl-${state.requests.length}`,
              object: 'chat.completion',
              model: body.model,
              choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
              usage: { prompt_tokens: promptTokens, completion_tokens: text.length, total_tokens: promptTokens + text.length },
            }),
          );
        }
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  Object.assign(state, { baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1` });
  return state;
}
