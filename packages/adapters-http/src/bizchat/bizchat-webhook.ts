import { bizchatFailureReason, inboundMediaOf, type InboundMedia, type InboundMediaKind, type ProviderEvent } from '@servicedesk/core';
import { cleanContacts, cleanLocation, sharedSummary, type SharedContact, type SharedLocation } from '@servicedesk/core/connections/shared-content';

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const text = (v: unknown): string | undefined => (typeof v === 'string' && v.length > 0 ? v : undefined);
const STATUSES = { sent: 'sent', delivered: 'delivered', read: 'read', failed: 'failed' } as const;

const CLOUD_API_KINDS: Readonly<Record<string, InboundMediaKind>> = {
  image: 'image',
  audio: 'audio',
  video: 'video',
  document: 'document',
  sticker: 'sticker',
};

/**
 * A Cloud API message's file (`type` image, audio, video, document or sticker: the part under its
 * type holds `id`, `mime_type`, a document's `filename`, an audio's `voice` flag, a `caption`),
 * fetched later by its media id; with its caption, the message's body. Undefined for any other message.
 */
export function cloudApiMediaOf(m: Record<string, unknown>): { media: InboundMedia; caption: string } | undefined {
  const type = text(m.type);
  const kind = type ? CLOUD_API_KINDS[type] : undefined;
  const part = type && isRecord(m[type]) ? (m[type] as Record<string, unknown>) : undefined;
  if (!kind || !part) return undefined;
  const media = inboundMediaOf({
    kind: kind === 'audio' && part.voice === true ? 'voice' : kind,
    mimetype: text(part.mime_type),
    fileName: text(part.filename),
    source: { from: 'cloudapi', mediaId: text(part.id) },
  });
  return media ? { media, caption: typeof part.caption === 'string' ? part.caption : '' } : undefined;
}

/** What one signed business-API delivery holds: events per phone-number id, and template status updates per business account. */
export interface BizchatDelivery {
  readonly numbers: Array<{ phoneNumberId: string; events: ProviderEvent[] }>;
  readonly templates: Array<{ wabaId: string; metaId: string | null; name: string; language: string; event: string }>;
}

/** Seconds since the epoch, as the Cloud API sends them (a string), to ISO 8601. */
function isoOf(seconds: unknown): string | undefined {
  const n = typeof seconds === 'string' ? Number(seconds) : typeof seconds === 'number' ? seconds : NaN;
  const d = new Date(n * 1000);
  return Number.isFinite(n) && !Number.isNaN(d.getTime()) ? d.toISOString() : undefined;
}

/** The text a message shows in the conversation: its text, a reply's title, a caption, or its type in brackets. */
function bodyOf(m: Record<string, unknown>): string {
  const type = text(m.type) ?? 'unknown';
  const part = isRecord(m[type]) ? (m[type] as Record<string, unknown>) : {};
  if (type === 'text') return typeof part.body === 'string' ? part.body : '';
  if (type === 'button') return text(part.text) ?? '';
  if (type === 'interactive') {
    const reply = isRecord(part.button_reply) ? part.button_reply : isRecord(part.list_reply) ? part.list_reply : {};
    return text(reply.title) ?? '';
  }
  const caption = text(part.caption);
  return caption ? `[${type}] ${caption}` : `[${type}]`;
}

/**
 * A `location` message's place (`latitude`, `longitude`, `name`, `address`, `url`) or a `contacts`
 * message's cards (`name.formatted_name`, else the first and last names; `phones[]` by `wa_id`, else
 * the number's digits), checked, with the words that say it as the body.
 */
function sharedOf(m: Record<string, unknown>): { body: string; location?: SharedLocation; contacts?: SharedContact[] } | undefined {
  if (m.type === 'location') {
    const location = cleanLocation(m.location);
    return location ? { body: sharedSummary({ location }), location } : undefined;
  }
  if (m.type !== 'contacts' || !Array.isArray(m.contacts)) return undefined;
  const contacts = cleanContacts(
    m.contacts.map((c) => {
      const card = isRecord(c) ? c : {};
      const name = isRecord(card.name) ? card.name : {};
      const phones = Array.isArray(card.phones) ? card.phones.filter(isRecord) : [];
      return {
        name: text(name.formatted_name) ?? ([text(name.first_name), text(name.last_name)].filter(Boolean).join(' ') || undefined),
        numbers: phones.map((p) => text(p.wa_id) ?? text(p.phone)).filter(Boolean),
      };
    }),
  );
  return contacts ? { body: sharedSummary({ contacts }), contacts } : undefined;
}

/**
 * Meta's `whatsapp_business_account` deliveries: `entry[].changes[]` with `field: messages` hold
 * `value.metadata.phone_number_id`, `messages[]` (inbound, by `wamid`) and `statuses[]` (sent,
 * delivered, read, failed with `errors[]`); `field: message_template_status_update` holds a
 * template's new status. Anything not shaped as documented is skipped, never trusted.
 */
export function parseBizchatDelivery(payload: unknown): BizchatDelivery {
  const delivery: BizchatDelivery = { numbers: [], templates: [] };
  if (!isRecord(payload) || payload.object !== 'whatsapp_business_account' || !Array.isArray(payload.entry)) return delivery;
  for (const entry of payload.entry) {
    if (!isRecord(entry) || !Array.isArray(entry.changes)) continue;
    const wabaId = text(entry.id);
    for (const change of entry.changes) {
      if (!isRecord(change) || !isRecord(change.value)) continue;
      const value = change.value;
      if (change.field === 'message_template_status_update') {
        const name = text(value.message_template_name);
        const language = text(value.message_template_language);
        const event = text(value.event);
        const id = value.message_template_id;
        if (wabaId && name && language && event) {
          delivery.templates.push({ wabaId, metaId: typeof id === 'number' || typeof id === 'string' ? String(id) : null, name, language, event });
        }
        continue;
      }
      const phoneNumberId = isRecord(value.metadata) ? text(value.metadata.phone_number_id) : undefined;
      if (change.field !== 'messages' || !phoneNumberId) continue;
      const names = new Map<string, string>();
      for (const c of Array.isArray(value.contacts) ? value.contacts : []) {
        const name = isRecord(c) && isRecord(c.profile) ? text(c.profile.name) : undefined;
        if (isRecord(c) && text(c.wa_id) && name) names.set(c.wa_id as string, name);
      }
      const events: ProviderEvent[] = [];
      for (const m of Array.isArray(value.messages) ? value.messages : []) {
        const wamid = isRecord(m) ? text(m.id) : undefined;
        const from = isRecord(m) ? text(m.from) : undefined;
        if (!isRecord(m) || !wamid || !from || !/^\d{5,20}$/.test(from)) continue;
        const at = isoOf(m.timestamp);
        const shared = sharedOf(m);
        // A file: its caption is the body, and the backend fetches it by its media id.
        const file = shared ? undefined : cloudApiMediaOf(m);
        events.push({
          type: 'InboundMessage',
          providerMessageId: wamid,
          from,
          senderName: names.get(from) ?? from,
          body: shared?.body ?? file?.caption ?? bodyOf(m),
          isGroup: false,
          ...(at ? { at } : {}),
          ...(shared?.location ? { location: shared.location } : {}),
          ...(shared?.contacts ? { contacts: shared.contacts } : {}),
          ...(file ? { media: file.media } : {}),
        });
      }
      for (const s of Array.isArray(value.statuses) ? value.statuses : []) {
        const wamid = isRecord(s) ? text(s.id) : undefined;
        const status = isRecord(s) ? STATUSES[text(s.status) as keyof typeof STATUSES] : undefined;
        if (!isRecord(s) || !wamid || !status) continue;
        const at = isoOf(s.timestamp);
        const error = Array.isArray(s.errors) && isRecord(s.errors[0]) ? s.errors[0] : null;
        const detail = error && isRecord(error.error_data) ? text(error.error_data.details) : undefined;
        const reason =
          status === 'failed' && error && typeof error.code === 'number'
            ? bizchatFailureReason(error.code, detail ?? text(error.title) ?? text(error.message) ?? 'failed')
            : undefined;
        events.push({ type: 'MessageStatusChanged', providerMessageId: wamid, status, ...(reason ? { reason } : {}), ...(at ? { at } : {}) });
      }
      delivery.numbers.push({ phoneNumberId, events });
    }
  }
  return delivery;
}
