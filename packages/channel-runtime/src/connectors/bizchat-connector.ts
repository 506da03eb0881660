import type { OutboundContent, SessionControl } from '@servicedesk/core';
import { PermanentSendError, type Connector, type ConnectorListener, type ConnectorSession } from '../ports.js';
import { bizchatFailure, type GraphErrorBody } from './bizchat-errors.js';

export interface BizchatConnectorOptions {
  /** Graph API base URL with version, e.g. https://graph.facebook.com/v21.0 (tests use a local fake). */
  readonly baseUrl: string;
  readonly timeoutMs?: number;
}

/** The Cloud API's `messages` payload for one message (without the envelope fields). */
export function bizchatPayload(content: OutboundContent): Record<string, unknown> {
  const context = content.quotedProviderMessageId ? { context: { message_id: content.quotedProviderMessageId } } : {};
  if (content.template) {
    const { name, language, components } = content.template;
    return { ...context, type: 'template', template: { name, language: { code: language }, ...(components.length ? { components } : {}) } };
  }
  if (content.media) {
    const type = mediaType(content.media.contentType);
    const caption = content.body && type !== 'audio' ? { caption: content.body } : {};
    const filename = type === 'document' ? { filename: content.media.filename } : {};
    return { ...context, type, [type]: { link: content.media.url, ...caption, ...filename } };
  }
  if (content.buttons?.length && content.buttons.length <= 3) {
    return {
      ...context,
      type: 'interactive',
      interactive: {
        type: 'button',
        body: { text: content.body || ' ' },
        action: { buttons: content.buttons.map((b) => ({ type: 'reply', reply: { id: b.id, title: b.text.slice(0, 20) } })) },
      },
    };
  }
  if (content.list) {
    const { title, buttonText, sections } = content.list;
    return {
      ...context,
      type: 'interactive',
      interactive: {
        type: 'list',
        ...(title ? { header: { type: 'text', text: title.slice(0, 60) } } : {}),
        body: { text: content.body || title || ' ' },
        action: {
          button: buttonText.slice(0, 20),
          sections: sections.map((s) => ({
            title: s.title.slice(0, 24),
            rows: s.rows.map((r) => ({ id: r.id, title: r.title.slice(0, 24), ...(r.description ? { description: r.description.slice(0, 72) } : {}) })),
          })),
        },
      },
    };
  }
  const lines = [content.body, ...(content.buttons ?? []).map((b, i) => `${i + 1}. ${b.text}`)];
  return { ...context, type: 'text', text: { body: lines.filter(Boolean).join('\n'), preview_url: false } };
}

function mediaType(contentType: string): 'image' | 'video' | 'audio' | 'document' {
  if (contentType.startsWith('image/')) return 'image';
  if (contentType.startsWith('video/')) return 'video';
  if (contentType.startsWith('audio/')) return 'audio';
  return 'document';
}

class BizchatSession implements ConnectorSession {
  private current: 'CONNECTED' | 'DISCONNECTED' = 'CONNECTED';

  constructor(
    readonly chatappId: number,
    private readonly phoneNumberId: string,
    private readonly token: string,
    private readonly o: BizchatConnectorOptions,
  ) {}

  status() {
    return this.current;
  }

  /** `POST /<phone-number-id>/messages`; refusals end the message failed with a readable reason, throttling and outages are retried. */
  async send(to: string, content: OutboundContent) {
    if (this.current !== 'CONNECTED') throw new PermanentSendError('ERR_SESSION_NOT_CONNECTED');
    const res = await fetch(`${this.o.baseUrl}/${this.phoneNumberId}/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${this.token}` },
      body: JSON.stringify({ messaging_product: 'whatsapp', recipient_type: 'individual', to, ...bizchatPayload(content) }),
      signal: AbortSignal.timeout(this.o.timeoutMs ?? 15_000),
    });
    const body = (await res.json().catch(() => ({}))) as GraphErrorBody & { messages?: Array<{ id?: string }> };
    const id = body.messages?.[0]?.id;
    if (res.ok && id) return { providerMessageId: id };
    const failure = bizchatFailure(res.status, body);
    if (failure.retry) throw new Error(`bizchat ${res.status}: ${failure.reason}`);
    throw new PermanentSendError(failure.reason);
  }

  /** The Cloud API cannot look numbers up: a send to a number without an account fails (131026). */
  async checkNumber(number: string) {
    return { exists: true, id: number.replace(/\D/g, '') || null };
  }

  async stop() {
    this.current = 'DISCONNECTED';
  }
}

/**
 * The business channel (bizchat) through the WhatsApp Business Cloud API: sends go to the
 * connection's phone-number id (`externalId`) with its `secrets.accessToken`; inbound messages and
 * statuses arrive at the backend's signed webhook. A session is connected once the provider answers
 * for the phone number with that token.
 */
export class BizchatConnector implements Connector {
  readonly providers = ['cloudapi'] as const;

  constructor(private readonly o: BizchatConnectorOptions) {}

  async start(command: SessionControl, listener: ConnectorListener): Promise<ConnectorSession> {
    const token = command.secrets.accessToken ?? '';
    const phoneNumberId = command.externalId ?? '';
    const session = new BizchatSession(command.chatappId, phoneNumberId, token, this.o);
    const valid = token && phoneNumberId ? await this.checkNumber(phoneNumberId, token) : false;
    if (!valid) await session.stop();
    queueMicrotask(() => listener.status(valid ? 'CONNECTED' : 'DISCONNECTED', null));
    return session;
  }

  private async checkNumber(phoneNumberId: string, token: string): Promise<boolean> {
    try {
      const res = await fetch(`${this.o.baseUrl}/${phoneNumberId}?fields=id,display_phone_number`, {
        headers: { authorization: `Bearer ${token}` },
        signal: AbortSignal.timeout(this.o.timeoutMs ?? 15_000),
      });
      return res.ok;
    } catch {
      return false;
    }
  }
}
