import http from 'node:http';
import https from 'node:https';
import { ServiceUnavailableError, ValidationError } from '@servicedesk/core';
import type { ChatAnswer, ChatEndpoint, ChatRequest, LanguageModel } from '@servicedesk/core/prompts/ports';
import { pinnedLookupFor } from './safe-fetch.js';

export interface OpenAiChatModelOptions {
  /** Let loopback and private addresses through (a model server on the LAN, tests): `ALLOW_PRIVATE_URLS=true`. Off by default. */
  readonly allowPrivate?: boolean;
  /** The whole exchange must be answered within this (`PROMPT_TIMEOUT_MS`). */
  readonly timeoutMs?: number;
}

/** A completion of a few thousand tokens is a few tens of kilobytes; anything much larger is not an answer of this API. */
const MAX_ANSWER_BYTES = 1024 * 1024;

const unavailable = () => new ServiceUnavailableError('ERR_LANGUAGE_MODEL_UNAVAILABLE');

/** A non-negative whole count from the answer's `usage`, 0 when absent. */
const count = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) && value >= 0 ? Math.floor(value) : 0);

/**
 * Chat completions through any OpenAI-compatible service (OpenAI, Azure OpenAI's compatible
 * endpoint, a local server): `POST <baseUrl>/chat/completions` with `model`, `messages`,
 * `max_tokens` and `temperature`, the key as a Bearer token; the answer's first choice and its
 * `usage`. As every outgoing call: the host resolved once and every address public (unless allowed),
 * the connection to the checked address, no redirects, the answer capped, one deadline. A 4xx but
 * 429 means the service refused; a 429, a 5xx, no answer or one that is not a completion means it is
 * unavailable.
 */
export class OpenAiChatModel implements LanguageModel {
  constructor(private readonly o: OpenAiChatModelOptions = {}) {}

  async complete(endpoint: ChatEndpoint, request: ChatRequest): Promise<ChatAnswer> {
    let url: URL;
    try {
      url = new URL(`${endpoint.baseUrl.replace(/\/+$/, '')}/chat/completions`);
    } catch {
      throw new ValidationError('ERR_PROMPT_INVALID_BASE_URL');
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ValidationError('ERR_PROMPT_INVALID_BASE_URL');
    const lookup = await pinnedLookupFor(url, this.o.allowPrivate ?? false);
    if (!lookup) throw unavailable();
    const body = Buffer.from(
      JSON.stringify({
        model: endpoint.model,
        messages: request.messages.map((m) => ({ role: m.role, content: m.content })),
        max_tokens: request.maxTokens,
        temperature: request.temperature,
      }),
    );
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'content-length': String(body.length),
      accept: 'application/json',
      'user-agent': 'servicedesk-assistant/1',
      ...(endpoint.apiKey ? { authorization: `Bearer ${endpoint.apiKey}` } : {}),
    };
    const { status, text } = await this.exchange(url, headers, body, lookup);
    if (status === 429 || status >= 500) throw unavailable();
    if (status < 200 || status >= 300) throw new ValidationError('ERR_LANGUAGE_MODEL_REFUSED');
    return readCompletion(text);
  }

  private exchange(url: URL, headers: Record<string, string>, body: Buffer, lookup: NonNullable<Awaited<ReturnType<typeof pinnedLookupFor>>>) {
    const client = url.protocol === 'https:' ? https : http;
    return new Promise<{ status: number; text: string }>((resolve, reject) => {
      let done = false;
      const finish = (outcome: () => void) => {
        if (!done) {
          done = true;
          clearTimeout(timer);
          outcome();
        }
      };
      const req = client.request(url, { method: 'POST', headers, lookup }, (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size <= MAX_ANSWER_BYTES) chunks.push(chunk);
          else {
            res.destroy();
            finish(() => reject(unavailable()));
          }
        });
        res.on('end', () => finish(() => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') })));
        res.on('error', () => finish(() => reject(unavailable())));
      });
      const timer = setTimeout(() => {
        finish(() => reject(new ServiceUnavailableError('ERR_LANGUAGE_MODEL_TIMEOUT')));
        req.destroy();
      }, this.o.timeoutMs ?? 60_000);
      req.on('error', () => finish(() => reject(unavailable())));
      req.end(body);
    });
  }
}

/** The first choice's text and the usage; anything else is not a completion. */
function readCompletion(text: string): ChatAnswer {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw unavailable();
  }
  const answer = parsed as { choices?: Array<{ message?: { content?: unknown } }>; usage?: Record<string, unknown> } | null;
  const content = answer?.choices?.[0]?.message?.content;
  if (typeof content !== 'string') throw unavailable();
  const usage = answer?.usage ?? {};
  const promptTokens = count(usage.prompt_tokens);
  const completionTokens = count(usage.completion_tokens);
  return { text: content, usage: { promptTokens, completionTokens, totalTokens: count(usage.total_tokens) || promptTokens + completionTokens } };
}
