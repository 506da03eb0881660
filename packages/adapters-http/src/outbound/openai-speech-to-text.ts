import { randomBytes } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import { ServiceUnavailableError, ValidationError } from '@servicedesk/core';
import type { AudioClip, SpeechToText, SpeechToTextEndpoint, Transcript } from '@servicedesk/core/transcription/ports';
import { pinnedLookupFor } from './safe-fetch.js';

export interface OpenAiSpeechToTextOptions {
  /** Let loopback and private addresses through (a Whisper server on the LAN, tests): `ALLOW_PRIVATE_URLS=true`. Off by default. */
  readonly allowPrivate?: boolean;
  /** The whole request, upload included, must be answered within this (`TRANSCRIPTION_TIMEOUT_MS`). */
  readonly timeoutMs?: number;
}

/** A transcript of hours of speech is a few hundred kilobytes; anything much larger is not an answer of this API. */
const MAX_ANSWER_BYTES = 2 * 1024 * 1024;
/** The formats OpenAI reads, told by the file name's extension. */
const READ_EXTENSIONS = new Set(['flac', 'mp3', 'mp4', 'mpeg', 'mpga', 'm4a', 'ogg', 'wav', 'webm']);
const EXTENSION_OF_TYPE: Readonly<Record<string, string>> = {
  'audio/ogg': 'ogg',
  'audio/opus': 'ogg',
  'application/ogg': 'ogg',
  'audio/mpeg': 'mp3',
  'audio/mp3': 'mp3',
  'audio/mp4': 'm4a',
  'audio/m4a': 'm4a',
  'audio/x-m4a': 'm4a',
  'audio/wav': 'wav',
  'audio/wave': 'wav',
  'audio/x-wav': 'wav',
  'audio/webm': 'webm',
  'audio/flac': 'flac',
  'audio/x-flac': 'flac',
  'video/mp4': 'mp4',
  'video/webm': 'webm',
};

/**
 * The file name sent: safe in a header, with an extension the service reads (it tells the format by
 * it): a voice note stored as `PTT-2024.opus` or without extension goes as `….ogg`.
 */
export function uploadName(filename: string, contentType: string): string {
  const base =
    filename
      .replace(/[^\w.-]/g, '_')
      .replace(/^\.+/, '')
      .slice(-100) || 'audio';
  const extension = /\.([a-z0-9]+)$/i.exec(base)?.[1]?.toLowerCase();
  if (extension && READ_EXTENSIONS.has(extension)) return base;
  const byType = EXTENSION_OF_TYPE[mainType(contentType)];
  return byType ? `${base.replace(/\.(oga|opus)$/i, '')}.${byType}` : base;
}

const mainType = (contentType: string) => contentType.split(';')[0]!.trim().toLowerCase();

function multipartBody(boundary: string, fields: ReadonlyArray<readonly [string, string]>, audio: AudioClip): Buffer {
  const chunks: Buffer[] = [];
  for (const [name, value] of fields) {
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  chunks.push(
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${uploadName(audio.filename, audio.contentType)}"\r\n` +
        `Content-Type: ${mainType(audio.contentType) || 'application/octet-stream'}\r\n\r\n`,
    ),
  );
  chunks.push(audio.data, Buffer.from(`\r\n--${boundary}--\r\n`));
  return Buffer.concat(chunks);
}

/**
 * Speech-to-text through any OpenAI-compatible service: `POST <baseUrl>/audio/transcriptions`,
 * multipart with `file`, `model`, `language` (when known) and `response_format=json`, the key as a
 * Bearer token; the answer `{"text": "…"}`. The rules of our other outgoing calls hold: the host is
 * resolved once and every address must be public (unless allowed), the connection goes to the
 * checked address, redirects are not followed, the answer is capped, and the whole exchange has a
 * deadline. A 4xx but 429 means the service refused (the key, the model, the file); a 429, a 5xx,
 * no answer or an answer that is not a transcription means it is unavailable.
 */
export class OpenAiSpeechToText implements SpeechToText {
  constructor(private readonly o: OpenAiSpeechToTextOptions = {}) {}

  async transcribe(endpoint: SpeechToTextEndpoint, audio: AudioClip, options: { readonly language?: string | null } = {}): Promise<Transcript> {
    let url: URL;
    try {
      url = new URL(`${endpoint.baseUrl.replace(/\/+$/, '')}/audio/transcriptions`);
    } catch {
      throw new ValidationError('ERR_TRANSCRIPTION_INVALID_BASE_URL');
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ValidationError('ERR_TRANSCRIPTION_INVALID_BASE_URL');
    const pinnedLookup = await pinnedLookupFor(url, this.o.allowPrivate ?? false);
    if (!pinnedLookup) throw new ServiceUnavailableError('ERR_TRANSCRIPTION_PROVIDER_UNAVAILABLE');
    const boundary = `servicedesk-${randomBytes(16).toString('hex')}`;
    const fields: Array<readonly [string, string]> = [
      ['model', endpoint.model],
      ['response_format', 'json'],
    ];
    if (options.language) fields.push(['language', options.language]);
    const body = multipartBody(boundary, fields, audio);
    const headers: Record<string, string> = {
      'content-type': `multipart/form-data; boundary=${boundary}`,
      'content-length': String(body.length),
      accept: 'application/json',
      'user-agent': 'servicedesk-transcription/1',
      ...(endpoint.apiKey ? { authorization: `Bearer ${endpoint.apiKey}` } : {}),
    };
    const client = url.protocol === 'https:' ? https : http;
    const { status, text } = await new Promise<{ status: number; text: string }>((resolve, reject) => {
      let settled = false;
      const fail = (err: Error) => {
        if (!settled) {
          settled = true;
          clearTimeout(deadline);
          reject(err);
        }
      };
      const req = client.request(url, { method: 'POST', headers, lookup: pinnedLookup }, (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_ANSWER_BYTES) {
            res.destroy();
            fail(new ServiceUnavailableError('ERR_TRANSCRIPTION_PROVIDER_UNAVAILABLE'));
          } else chunks.push(chunk);
        });
        res.on('end', () => {
          if (settled) return;
          settled = true;
          clearTimeout(deadline);
          resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') });
        });
        res.on('error', () => fail(new ServiceUnavailableError('ERR_TRANSCRIPTION_PROVIDER_UNAVAILABLE')));
      });
      const deadline = setTimeout(() => {
        fail(new ServiceUnavailableError('ERR_TRANSCRIPTION_TIMEOUT'));
        req.destroy();
      }, this.o.timeoutMs ?? 120_000);
      req.on('error', () => fail(new ServiceUnavailableError('ERR_TRANSCRIPTION_PROVIDER_UNAVAILABLE')));
      req.end(body);
    });
    if (status === 429 || status >= 500) throw new ServiceUnavailableError('ERR_TRANSCRIPTION_PROVIDER_UNAVAILABLE');
    if (status < 200 || status >= 300) throw new ValidationError('ERR_TRANSCRIPTION_PROVIDER_REFUSED');
    const parsed = parse(text);
    if (typeof parsed?.text !== 'string') throw new ServiceUnavailableError('ERR_TRANSCRIPTION_PROVIDER_UNAVAILABLE');
    return { text: parsed.text };
  }
}

function parse(text: string): Record<string, unknown> | null {
  try {
    const value = JSON.parse(text) as unknown;
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}
