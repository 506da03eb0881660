import type { OutboundContent, SessionControl } from '@servicedesk/core';
import { PermanentSendError, type Connector, type ConnectorListener, type ConnectorSession } from '../ports.js';

export interface GraphConnectorOptions {
  /** Graph API base URL with version, e.g. https://graph.facebook.com/v21.0 (tests use a local fake). */
  readonly baseUrl: string;
  readonly timeoutMs?: number;
}

interface GraphError {
  error?: { message?: string; code?: number };
}

class GraphSession implements ConnectorSession {
  private current: 'CONNECTED' | 'DISCONNECTED' = 'CONNECTED';

  constructor(
    readonly chatappId: number,
    private readonly pageId: string,
    private readonly token: string,
    private readonly o: GraphConnectorOptions,
  ) {}

  status() {
    return this.current;
  }

  /** Messenger and Instagram share the Send API: `POST /<page-id>/messages` with the page token. */
  async send(to: string, content: OutboundContent) {
    if (this.current !== 'CONNECTED') throw new PermanentSendError('ERR_SESSION_NOT_CONNECTED');
    const message = content.media
      ? { attachment: { type: graphAttachmentType(content.media.contentType), payload: { url: content.media.url, is_reusable: true } } }
      : { text: asText(content) };
    const res = await this.post(`${this.pageId}/messages`, { recipient: { id: to }, messaging_type: 'RESPONSE', message });
    const body = (await res.json().catch(() => ({}))) as GraphError & { message_id?: string };
    if (res.ok && body.message_id) return { providerMessageId: body.message_id };
    if (res.status >= 500 || res.status === 429) throw new Error(`graph ${res.status}`);
    throw new PermanentSendError(`ERR_GRAPH_${body.error?.code ?? res.status}: ${body.error?.message ?? 'refused'}`);
  }

  /** Social networks address people by page-scoped ids, not phone numbers. */
  async checkNumber() {
    return { exists: false, id: null };
  }

  async stop() {
    this.current = 'DISCONNECTED';
  }

  private post(path: string, payload: unknown) {
    return fetch(`${this.o.baseUrl}/${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${this.token}` },
      body: JSON.stringify(payload),
      signal: AbortSignal.timeout(this.o.timeoutMs ?? 15_000),
    });
  }
}

function graphAttachmentType(contentType: string): 'image' | 'video' | 'audio' | 'file' {
  if (contentType.startsWith('image/')) return 'image';
  if (contentType.startsWith('video/')) return 'video';
  if (contentType.startsWith('audio/')) return 'audio';
  return 'file';
}

/** Buttons and lists as numbered text: the Send API's templates differ per network and per page. */
function asText(content: OutboundContent): string {
  const lines = [content.body];
  content.buttons?.forEach((b, i) => {
    lines.push(`${i + 1}. ${b.text}`);
  });
  content.list?.sections.forEach((s) => {
    if (s.title) lines.push(s.title);
    for (const r of s.rows) lines.push(`- ${r.title}${r.description ? ` (${r.description})` : ''}`);
  });
  return lines.filter(Boolean).join('\n');
}

/**
 * Messenger and Instagram through the Graph API Send API. Inbound messages arrive at the
 * backend's signed webhook, not here; a session is "connected" once its page token checks out.
 */
export class GraphConnector implements Connector {
  readonly providers = ['messenger', 'instagram'] as const;

  constructor(private readonly o: GraphConnectorOptions) {}

  async start(command: SessionControl, listener: ConnectorListener): Promise<ConnectorSession> {
    const token = command.secrets.pageAccessToken;
    const session = new GraphSession(command.chatappId, command.externalId ?? 'me', token ?? '', this.o);
    const valid = token ? await this.checkToken(token) : false;
    if (!valid) await session.stop();
    queueMicrotask(() => listener.status(valid ? 'CONNECTED' : 'DISCONNECTED', null));
    return session;
  }

  private async checkToken(token: string): Promise<boolean> {
    try {
      const res = await fetch(`${this.o.baseUrl}/me?fields=id`, {
        headers: { authorization: `Bearer ${token}` },
        signal: AbortSignal.timeout(this.o.timeoutMs ?? 15_000),
      });
      return res.ok;
    } catch {
      return false;
    }
  }
}
